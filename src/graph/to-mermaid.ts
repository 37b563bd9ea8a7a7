import { toolLabel } from './tool-label.js';
import { describeBinding } from '../dataflow/render.js';
import { clip } from '../util/clip.js';
import type { Guard, Workflow, WorkflowNode } from './schema.js';

/**
 * Mermaid flowchart of a workflow (docs/DESIGN.md, "Pipeline": G* is exported as JSON, a TypeScript module
 * and a Mermaid diagram). LLM nodes are rounded, tool nodes are subroutine boxes; the label holds the id,
 * the role or tool hint, `calls: many`, retry, and the start of the prompt or task. Data edges are
 * solid, control edges dotted, guards are edge labels. Mermaid node ids are generated (`n0`, `n1`,
 * …) so workflow ids such as `end` or `a--b` cannot collide with Mermaid syntax, and every label is
 * quoted with the characters that could end it or be read as markup (`"`, `#`, `%`, `<`, `>`, `&`, `;`, `|`,
 * backtick, newlines) written as Mermaid entity codes (`#34;`) or collapsed.
 */

/** Layout and detail of the diagram. */
export interface MermaidOptions {
  /** Flow direction (default top-down). */
  direction?: 'TD' | 'LR';
  /** Characters of prompt / task shown in a label; 0 hides them (default 60). */
  snippet?: number;
}

/** Renders the workflow as a Mermaid `flowchart`. */
export function toMermaid(workflow: Workflow, opts: MermaidOptions = {}): string {
  const snippet = opts.snippet ?? 60;
  const ids = new Map<string, string>();
  workflow.nodes.forEach((n) => {
    if (!ids.has(n.id)) ids.set(n.id, `n${ids.size}`);
  });
  const lines = [`flowchart ${opts.direction ?? 'TD'}`, `  %% ${oneLine(workflow.name)}`];
  const seen = new Set<string>();
  for (const n of workflow.nodes) {
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    const label = quote(nodeLabel(n, snippet));
    lines.push(n.kind === 'llm' ? `  ${ids.get(n.id)}(${label})` : `  ${ids.get(n.id)}[[${label}]]`);
  }
  for (const e of workflow.edges) {
    const from = ids.get(e.from);
    const to = ids.get(e.to);
    if (!from || !to) continue; // an edge to a missing node cannot be drawn; validation reports it
    const arrow = e.kind === 'data' ? '-->' : '-.->';
    lines.push(
      e.when ? `  ${from} ${arrow}|${quote(escapeText(guardLabel(e.when)))}| ${to}` : `  ${from} ${arrow} ${to}`,
    );
  }
  const llm = [...seen]
    .filter((id) => workflow.nodes.find((n) => n.id === id)?.kind === 'llm')
    .map((id) => ids.get(id));
  const tool = [...seen]
    .filter((id) => workflow.nodes.find((n) => n.id === id)?.kind === 'tool')
    .map((id) => ids.get(id));
  lines.push('  classDef llm fill:#eef3ff,stroke:#3b5bdb', '  classDef tool fill:#fff4e6,stroke:#e8590c');
  if (llm.length > 0) lines.push(`  class ${llm.join(',')} llm`);
  if (tool.length > 0) lines.push(`  class ${tool.join(',')} tool`);
  return `${lines.join('\n')}\n`;
}

/** A guard as people read it: `needed = true`, `status error`, `not done`. */
export function guardLabel(g: Guard): string {
  if (g.kind === 'status') return `status ${g.status}`;
  const v = JSON.stringify(g.value);
  switch (g.op) {
    case 'eq':
      return `${g.field} = ${v}`;
    case 'ne':
      return `${g.field} ≠ ${v}`;
    case 'gt':
      return `${g.field} > ${v}`;
    case 'gte':
      return `${g.field} ≥ ${v}`;
    case 'lt':
      return `${g.field} < ${v}`;
    case 'lte':
      return `${g.field} ≤ ${v}`;
    case 'in':
      return `${g.field} in ${v}`;
    case 'not_in':
      return `${g.field} not in ${v}`;
    case 'truthy':
      return g.field;
    case 'falsy':
      return `not ${g.field}`;
    case 'exists':
      return `${g.field} exists`;
  }
}

function nodeLabel(n: WorkflowNode, snippet: number): string {
  const lines = [n.id];
  if (n.kind === 'llm') {
    lines.push(`llm: ${n.role}${n.output.type === 'json' ? ' → json' : ''}${n.model ? ` (${n.model})` : ''}`);
    if (snippet > 0) lines.push(clip(n.prompt, snippet));
  } else {
    const hint = n.tools ?? [];
    const facts = [
      hint.length === 0 ? 'tool: any' : `tool${hint.length > 1 ? 's' : ''}: ${hint.map(toolLabel).join(', ')}`,
    ];
    if (n.calls === 'many') facts.push('calls: many');
    if (n.optional) facts.push('may make no call');
    if (n.retry) facts.push(`retry ×${n.retry.attempts} on ${n.retry.on}`);
    lines.push(facts.join(' · '));
    // Bound parameters: what the runtime fills with no model, and from where.
    if (n.bind?.length)
      lines.push(clip(`bound: ${n.bind.map((b) => describeBinding(b).replace(/^[^.]*\./, '')).join(', ')}`, 120));
    if (snippet > 0) lines.push(clip(n.task, snippet));
  }
  return lines.map(escapeText).join('<br/>');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Mermaid entity codes for characters that would end a label or be read as markup. */
function escapeText(text: string): string {
  return oneLine(text).replace(/[#"%<>&`;|]/g, (c) => `#${c.charCodeAt(0)};`);
}

function quote(label: string): string {
  return `"${label}"`;
}
