import type { WorkflowNode } from '../graph/schema.js';
import type { NodeInput } from '../policies/types.js';
import { stableStringify } from '../contracts/canonical-args.js';
import { clip } from '../util/clip.js';

/**
 * A node's context (docs/DESIGN.md, "Execution"): "the query plus the outputs of the sources of its live
 * data edges", rendered as text and truncated to the run's `contextChars`. Pure functions.
 */

/** The output a tool node hands to its successors: its last attempt's calls with their outputs. */
export interface ToolNodeOutputCall {
  tool: string;
  args: Record<string, unknown>;
  status: 'ok' | 'error';
  output?: unknown;
  error?: string;
}

/** What a finished node offers as an input. */
export interface InputSource {
  node: WorkflowNode;
  status: 'ok' | 'error';
  output?: unknown;
}

/** One live data predecessor as a policy sees it. */
export function toNodeInput(src: InputSource): NodeInput {
  const input: NodeInput = { nodeId: src.node.id, kind: src.node.kind, output: src.output, status: src.status };
  if (src.node.kind === 'llm') input.role = src.node.role;
  if (src.node.kind === 'tool') {
    const calls = Array.isArray(src.output) ? (src.output as ToolNodeOutputCall[]) : [];
    input.calls = calls.map((c) => ({ tool: c.tool, args: c.args, status: c.status }));
  }
  return input;
}

/**
 * The context text: the query, then one section per input in the given (topological) order. When
 * it is longer than `contextChars`, the query keeps up to half the budget and the sections share the
 * rest evenly (a short section leaves its unused share to the others); each cut says how much was cut.
 */
export function renderContext(query: string, inputs: readonly NodeInput[], contextChars: number): string {
  const head = `Query: ${query}`;
  const sections = inputs.map(renderInput);
  const full = [head, ...sections].join('\n\n');
  if (full.length <= contextChars) return full;
  const separators = 2 * sections.length;
  const headBudget =
    sections.length === 0 ? contextChars : Math.max(0, Math.min(head.length, Math.floor(contextChars / 2)));
  let remaining = Math.max(0, contextChars - headBudget - separators);
  const budgets = new Array<number>(sections.length).fill(0);
  const open = sections.map((_, i) => i).sort((a, b) => sections[a]!.length - sections[b]!.length || a - b);
  for (let k = 0; k < open.length; k++) {
    const i = open[k]!;
    const share = Math.floor(remaining / (open.length - k));
    budgets[i] = Math.min(sections[i]!.length, share);
    remaining -= budgets[i]!;
  }
  return [cut(head, headBudget), ...sections.map((s, i) => cut(s, budgets[i]!))].join('\n\n');
}

/** One input as text: `[id] (llm plan)` then the text or JSON; tool inputs list their calls. */
export function renderInput(input: NodeInput): string {
  if (input.kind === 'llm') {
    const label = `[${input.nodeId}] (llm ${input.role ?? ''}${input.status === 'error' ? ', failed' : ''})`.replace(
      ' )',
      ')',
    );
    return `${label}\n${asText(input.output)}`;
  }
  const calls = Array.isArray(input.output) ? (input.output as ToolNodeOutputCall[]) : [];
  const lines = calls.map(
    (c) =>
      `${c.tool} ${stableStringify(c.args)} → ${c.status === 'ok' ? asText(c.output) : `error: ${c.error ?? 'failed'}`}`,
  );
  return `[${input.nodeId}] (tool, ${input.status})\n${lines.length > 0 ? lines.join('\n') : '(no calls)'}`;
}

/** A value as prompt text: strings as they are, everything else as JSON. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/**
 * The first `max` characters of a context, for an observation's `input` summary. The summary is a
 * string of its own: V8 makes a slice of a long string a view that keeps the whole string alive, so a
 * summary kept by the search's memo (every node's observation, for the whole search) would keep the
 * node's whole context too (`structuredClone` copies the characters alone).
 */
export function summarizeInput(context: string, max = 300): string {
  if (context.length <= max) return context;
  return structuredClone(`${context.slice(0, max)}… [${context.length - max} more chars]`);
}

/** `text` within `budget` characters, saying how many were cut (the marker counts toward the budget). */
function cut(text: string, budget: number): string {
  return clip(text, budget, { keepWhitespace: true, marker: (n) => ` … [truncated ${n} chars]` });
}
