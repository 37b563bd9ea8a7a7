import { z } from 'zod';
import { EditPlanSchema, NewNodeSchema } from '../../graph/edits/edit-schema.js';
import { LLM_ROLES, type Workflow } from '../../graph/schema.js';
import { PROMPT_TEMPLATES } from '../../graph/prompt-templates.js';
import {
  SYNTHESIZE_DIRECTIVE_IDS,
  SYNTHESIZE_DIRECTIVES,
  SYNTHESIZE_VARIANT_IDS,
  SYNTHESIZE_VARIANTS,
} from '../../graph/synthesize-variants.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { Feedback } from '../../evaluate/feedback-types.js';

/**
 * The LLM optimizer's prompts (docs/DESIGN.md, "Search"): the workflow, the
 * feedback and the prompt-template library (the edit-plan schema goes as the response format). Pure
 * text builders.
 */

/** The optimizer's system prompt. */
export const OPTIMIZER_SYSTEM = [
  'You are the workflow optimizer of FlowScout. A workflow is a directed acyclic graph of LLM nodes and tool-calling',
  'nodes that answers user requests of one domain by calling real tools. You receive the workflow, feedback from running',
  'it on past requests whose correct tool calls and answers are known, and the tools available. You answer with an edit',
  'plan: a JSON object that matches the edit-plan schema, with one focused change (usually 1-3 edits) that fixes the',
  'problem with the most evidence in the feedback. Use existing node ids, new ids that are not taken, and tool names',
  'from the tool list only. Keep exactly one plan node at the start and one synthesize node at the end.',
].join(' ');

/**
 * The edit-plan schema, sent as the request's response format. It leaves out `taskPart` (of a tool
 * node and of `set_task`): the rule-based optimizer's mark on the neutral tasks it writes, nothing a
 * model decides. The new node's schema, which three edits take, is written once under `$defs` and
 * referred to: written out three times it was most of every optimizer request (docs/guides/
 * benchmarks.md, "Model requests and tokens per query"); the schema says the same.
 */
export const EDIT_PLAN_JSON_SCHEMA = hoisted(
  withoutProperty(z.toJSONSchema(EditPlanSchema) as Record<string, unknown>, 'taskPart'),
  'new_node',
  withoutProperty(z.toJSONSchema(NewNodeSchema) as Record<string, unknown>, 'taskPart'),
);

/**
 * `schema` with every copy of `sub` (compared without its `description`) replaced by a reference to
 * `$defs[name]`; a copy's own description stays beside the reference.
 */
function hoisted(schema: Record<string, unknown>, name: string, sub: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, description: _d, ...def } = sub;
  const key = JSON.stringify(def);
  let found = 0;
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (!x || typeof x !== 'object') return x;
    const { description, ...rest } = x as Record<string, unknown>;
    if (JSON.stringify(rest) === key) {
      found++;
      return { $ref: `#/$defs/${name}`, ...(description !== undefined ? { description } : {}) };
    }
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, walk(v)]));
  };
  const out = walk(schema) as Record<string, unknown>;
  return found > 0 ? { ...out, $defs: { ...(out.$defs as object | undefined), [name]: def } } : out;
}

/** A JSON Schema without the property `name` anywhere (a copy). */
function withoutProperty(schema: Record<string, unknown>, name: string): Record<string, unknown> {
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (!x || typeof x !== 'object') return x;
    return Object.fromEntries(
      Object.entries(x).map(([k, v]) => {
        if (k === 'properties' && v && typeof v === 'object')
          return [k, walk(Object.fromEntries(Object.entries(v).filter(([p]) => p !== name)))];
        if (k === 'required' && Array.isArray(v)) return [k, v.filter((p) => p !== name)];
        return [k, walk(v)];
      }),
    );
  };
  return walk(schema) as Record<string, unknown>;
}

/** What goes into the prompt. */
export interface OptimizerPromptInput {
  workflow: Workflow;
  feedback: Feedback;
  tools: readonly ToolDescriptor[];
  siblings: readonly string[];
  toolNodesAllowed: boolean;
  /** At most this many tools are listed (the ones the feedback names first). Default 40. */
  maxTools?: number;
}

/** Node ids a feedback pattern concerns (its node, nodes, slot and judge fields). */
function feedbackNodes(feedback: Feedback): Set<string> {
  const ids = new Set<string>();
  for (const p of feedback.patterns) {
    const x = p as unknown as Record<string, unknown>;
    for (const k of ['node', 'after', 'before', 'judge', 'last']) if (typeof x[k] === 'string') ids.add(x[k] as string);
    if (Array.isArray(x.nodes)) for (const n of x.nodes) if (typeof n === 'string') ids.add(n);
    if (Array.isArray(x.sources))
      for (const c of x.sources as Array<{ name?: unknown }>) if (typeof c?.name === 'string') ids.add(c.name);
  }
  return ids;
}

/**
 * The workflow as the optimizer sees it: the nodes the feedback concerns and their neighbours in
 * full JSON, every other node as one line (id, kind, role or tools, calls), and every edge as one
 * line. `meta` and a tool node's `taskPart` are left out, and a node's hints are named, not written out (they can be long; the
 * feedback's hint proposals carry what a `set_hint` edit needs).
 */
export function compactWorkflowView(workflow: Workflow, feedback: Feedback): string {
  const concerned = feedbackNodes(feedback);
  const near = new Set(concerned);
  for (const e of workflow.edges) {
    if (concerned.has(e.from)) near.add(e.to);
    if (concerned.has(e.to)) near.add(e.from);
  }
  const full = workflow.nodes.filter((n) => near.has(n.id) || n.kind === 'llm');
  const brief = workflow.nodes.filter((n) => !full.includes(n));
  const line = (n: Workflow['nodes'][number]) =>
    n.kind === 'llm'
      ? `- ${n.id}: llm ${n.role}`
      : `- ${n.id}: tool${n.tools?.length ? ` [${n.tools.slice(0, 3).join(', ')}${n.tools.length > 3 ? `, +${n.tools.length - 3}` : ''}]` : ' (any tool)'}${n.calls === 'many' ? ', calls many' : ''}${n.optional ? ', may make no call' : ''}${n.bind?.length ? `, ${n.bind.length} bound` : ''}${n.hints?.length ? `, hints about ${n.hints.length} tools` : ''}`;
  // `taskPart` is the rule-based optimizer's mark on its own tasks, nothing a model edits.
  const shown = (n: Workflow['nodes'][number]) => {
    if (n.kind !== 'tool') return JSON.stringify(n);
    const { taskPart: _taskPart, ...rest } = n;
    return JSON.stringify(
      n.hints?.length ? { ...rest, hints: `about ${n.hints.map((h) => h.tool).join(', ')}` } : rest,
    );
  };
  const guard = (e: Workflow['edges'][number]) =>
    e.when
      ? ` when ${e.when.kind === 'status' ? `status ${e.when.status}` : `${e.when.field} ${e.when.op}${e.when.value !== undefined ? ` ${JSON.stringify(e.when.value)}` : ''}`}`
      : '';
  return [
    `name: ${JSON.stringify(workflow.name)}; ${workflow.nodes.length} nodes, ${workflow.edges.length} edges.`,
    `Nodes in full (the ones the feedback names, their neighbours, and the LLM nodes):`,
    ...full.map(shown),
    ...(brief.length > 0 ? [`Other nodes (summarized; edit them by id as well):`, ...brief.map(line)] : []),
    `Edges (from -> to, kind, guard):`,
    ...workflow.edges.map((e) => `- ${e.from} -> ${e.to} ${e.kind}${guard(e)}`),
  ].join('\n');
}

/**
 * The first prompt of an expansion in two parts, laid out for providers' prompt caches: `stable`
 * is the same for every expansion of the run (the prompt templates, the hand-off, the synthesize
 * variants, the variant's constraint), `variable` carries the workflow, its feedback, the tools the
 * feedback names first and the siblings. The edit-plan schema is not repeated in the prompt: the
 * request carries it as its response format, which every provider reads (OpenAI puts it before the
 * system text, where its prefix cache serves it).
 */
export function optimizerPromptParts(input: OptimizerPromptInput): { stable: string; variable: string } {
  const stable = [
    `## Prompt templates\nA new LLM node without "prompt" gets the template of its role; {{query}} and {{inputs}} are filled at run time.\n${LLM_ROLES.map((r) => `- ${r}: ${firstLine(PROMPT_TEMPLATES[r])}`).join('\n')}`,
  ];
  if (input.toolNodesAllowed) stable.push(HAND_OFF_SECTION, synthesizeVariantsSection());
  else
    stable.push(
      '## Constraint\nTool nodes are forbidden in this search: do not add tool nodes or turn nodes into tool nodes.',
    );
  const variable = [
    `## Workflow\n${compactWorkflowView(input.workflow, input.feedback)}`,
    `## Feedback from running it\n${input.feedback.text}`,
    `## Tools (name: description)\n${toolList(input.tools, input.feedback, input.maxTools ?? 40)}`,
  ];
  if (input.siblings.length > 0)
    variable.push(
      `## Already tried from this workflow (propose something different)\n${input.siblings.map((s) => `- ${s}`).join('\n')}`,
    );
  variable.push('Answer with the edit plan as one JSON object that matches the edit-plan schema, and nothing else.');
  return { stable: stable.join('\n\n'), variable: variable.join('\n\n') };
}

/** The first prompt of an expansion as one text (see optimizerPromptParts). */
export function optimizerPrompt(input: OptimizerPromptInput): string {
  const { stable, variable } = optimizerPromptParts(input);
  return `${stable}\n\n${variable}`;
}

/**
 * How the request reaches the tool positions (policies/hand-off.ts), so the optimizer knows which
 * fields route a part of the request to a position: the same mechanism the policies use.
 */
export const HAND_OFF_SECTION = [
  '## How tool nodes get their part of the request',
  'The request is split into its parts (clauses: "first …, then …, finally …"). The parts go to the tool nodes in graph order: a part never',
  'goes to an earlier node than the part before it, every node takes at most one part, and the most parts are read. Among such hand-offs, a',
  'part goes to the node whose tools fit it best: a node\'s "mined" tools and its "tools" hint (when it lists several tools) decide its fit; a',
  'node without them fits any part. A node with "calls": "many" takes several consecutive parts (one call each) when it has such tool lists',
  'or is the last tool node. So: a hint of several tools moves the parts those tools fit to that node; "calls": "many" on the last tool node',
  'covers requests with more parts than tool nodes; a node that fits no part makes no call.',
].join('\n');

/**
 * The synthesize variants of the template library, so the optimizer can switch or refine the
 * answer's style (the same choices the rule-based optimizer has, through the same `set_directives`
 * edit). The sentences are quoted so the optimizer knows what each id asks of the synthesizer.
 */
export function synthesizeVariantsSection(): string {
  const directives = SYNTHESIZE_DIRECTIVE_IDS.map(
    (d) => `- ${d} (raises ${SYNTHESIZE_DIRECTIVES[d].dims.join(', ')}): "${SYNTHESIZE_DIRECTIVES[d].sentence}"`,
  );
  const variants = SYNTHESIZE_VARIANT_IDS.map(
    (v) =>
      `- ${v}: ${SYNTHESIZE_VARIANTS[v].summary}${SYNTHESIZE_VARIANTS[v].directives.length ? ` [${SYNTHESIZE_VARIANTS[v].directives.join(', ')}]` : ''}`,
  );
  return [
    '## Synthesizer prompt variants',
    'When answers score low (see the judge dimensions in the feedback), change how the synthesize node writes with a set_directives edit:',
    '{"op": "set_directives", "id": <the synthesize node>, "variant": <a variant>} switches it to a variant (its directives and prompt), and',
    '{"op": "set_directives", "id": …, "directives": [<ids>]} sets its directives in order (append one id to its current "directives" to refine it).',
    'The node keeps its directives as ids; their sentences (below) are added to its prompt when a model runs it.',
    'Variants:',
    ...variants,
    'Directives:',
    ...directives,
  ].join('\n');
}

/** The repair round: the first prompt, the rejected answer and why it was rejected. */
export function repairPrompt(first: string, answer: string, problem: string): string {
  return `${first}\n\n## Your previous answer\n${answer.slice(0, 4000)}\n\n## Why it cannot be applied\n${problem}\n\nReturn a corrected edit plan as one JSON object and nothing else.`;
}

function toolList(tools: readonly ToolDescriptor[], fb: Feedback, max: number): string {
  const named = new Set<string>();
  for (const p of fb.patterns) {
    if ('tool' in p && typeof p.tool === 'string') named.add(p.tool);
    for (const key of ['tools', 'expected', 'got'] as const) {
      const list = (p as unknown as Record<string, unknown>)[key];
      if (Array.isArray(list))
        for (const c of list) if (c && typeof c === 'object' && 'name' in c) named.add(String(c.name));
    }
  }
  const ordered = [...tools].sort((a, b) => Number(named.has(b.name)) - Number(named.has(a.name)));
  const shown = ordered.slice(0, max).map((t) => `- ${t.name}: ${firstLine(t.description).slice(0, 160)}`);
  if (tools.length > max) shown.push(`- … ${tools.length - max} more tools`);
  return shown.join('\n');
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim()) ?? '').trim();
}
