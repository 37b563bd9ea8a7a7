import { parseRouteTable } from '../../graph/route-table.js';
import type { LlmNode } from '../../graph/schema.js';
import type { LlmNodeRequest, NodeInput } from '../types.js';
import { callsOf, describeCall } from './summarize.js';
import { synthesizeAnswer } from './synthesize.js';
import { MAX_REQUEST_PARTS, requestClauses, splitClauses, stem, terms } from './text.js';

/**
 * The offline policy's LLM nodes, by deterministic rules (docs/DESIGN.md, "Policies"):
 * - plan: the query split into clauses, numbered;
 * - judge: each boolean field is true when its concept (the field name, its description and the
 *   node's question, minus generic words) appears in the query; a router's field (its prompt lists
 *   routes with their tools and keywords) takes the route whose tools, in order, answer the
 *   request's parts (`routeBySequence`), else the route whose keywords the request uses most
 *   (`routeByKeywords`); other fields by their schema;
 * - extract / reason / verify: pass-through summaries of their inputs (verify also lists errors),
 *   never the request itself (an answer that repeats the request is not a result);
 * - synthesize: one paragraph per tool call seen in the inputs, numbers and names kept.
 * Text nodes return text; JSON nodes return an object that fits their declared schema.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  description?: string;
  required?: string[];
};

const GENERIC = new Set(
  'need needed needs another more lookup step request requested ask asks answer answered question yes no decide decision whether user query result results information info tool call data before can be is are does do should would any some value field flag true false'
    .split(' ')
    .map(stem),
);

/** What a pass-through node says when no earlier node gave it anything (it never repeats the request as if it were a result). */
export const NOTHING_IN = 'No results came in to work from.';

/** The concept words of a judge field: its name, description and the node's question, minus generic words. */
export function conceptTerms(field: string, schema: Schema | undefined, node: LlmNode): string[] {
  const question = /question about this request:\s*(.+)/i.exec(node.prompt)?.[1] ?? '';
  const text = `${field.replace(/_/g, ' ')} ${schema?.description ?? ''} ${question}`;
  return [...new Set(terms(text))].filter((t) => !GENERIC.has(t));
}

/** Everything the inputs say, as short paragraphs. */
export function inputSummaries(inputs: readonly NodeInput[]): string[] {
  const out: string[] = [];
  for (const input of inputs) {
    if (input.kind === 'tool') {
      const calls = callsOf(input);
      if (calls.length === 0)
        out.push(`Step ${input.nodeId} made no call${input.status === 'error' ? ' (it failed)' : ''}.`);
      for (const c of calls) out.push(describeCall(c));
    } else if (typeof input.output === 'string') {
      if (input.role !== 'plan' && input.output.trim()) out.push(input.output.trim());
    } else if (input.output !== undefined) out.push(JSON.stringify(input.output));
  }
  return out;
}

function fillValue(
  schema: Schema | undefined,
  field: string,
  node: LlmNode,
  req: LlmNodeRequest,
  clauses: string[],
  opts: RuleOptions,
): unknown {
  const types = new Set(schema?.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]);
  const queryTerms = new Set(terms(req.query));
  if (types.has('boolean')) {
    if (node.role === 'verify') return !req.inputs.some((i) => i.status === 'error');
    return conceptTerms(field, schema, node).some((t) => queryTerms.has(t));
  }
  if (schema?.enum && schema.enum.length > 0) {
    const values = schema.enum.map(String);
    const routed =
      node.role !== 'judge'
        ? undefined
        : ((opts.toolFit ? routeBySequence(node.prompt, req.query, values, opts.toolFit) : undefined) ??
          routeByKeywords(node.prompt, req.query, values));
    if (routed !== undefined) return routed;
    const hit = schema.enum.find((e) => terms(String(e)).some((t) => queryTerms.has(t)));
    return hit ?? schema.enum[0];
  }
  if (types.has('number') || types.has('integer')) return node.role === 'plan' ? clauses.length : 0;
  if (types.has('array')) {
    const itemTypes = schema?.items?.type;
    return itemTypes === 'string' || (Array.isArray(itemTypes) && itemTypes.includes('string')) ? clauses : [];
  }
  if (types.has('object')) return fillObject(schema, node, req, clauses, opts);
  return node.role === 'plan' ? clauses.join('; ') : inputSummaries(req.inputs).join(' ');
}

function fillObject(
  schema: Schema | undefined,
  node: LlmNode,
  req: LlmNodeRequest,
  clauses: string[],
  opts: RuleOptions,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, sub] of Object.entries(schema?.properties ?? {}))
    out[field] = fillValue(sub, field, node, req, clauses, opts);
  return out;
}

/**
 * Least keyword score for the offline router to take a route: the share of a route's keywords the
 * request uses, plus a quarter of the share of the words of its description. Below it, `other`.
 * Chosen on D_val (mean TC of G0, bundled domains, seeds 0-2): 0.264 at 0.3, 0.346 at 0.7, 0.384 at
 * 1.0 and 0.385 when nothing is routed: keyword routing does not beat the skeleton offline, so the
 * offline router takes a route only when the request uses all of its keywords.
 */
export const ROUTE_MIN_SCORE = 1.0;

/**
 * Routes whose scores are within this much of the best route's compete on length: the one whose
 * number of steps is nearest the request's number of parts wins (the routes of one task often differ
 * by a step more or less).
 */
export const ROUTE_STEP_MARGIN = 0.05;

/**
 * A router (docs/DESIGN.md, "Mining": routes): when the prompt lists routes as
 * `- <value>: calls a → b. About: …. Keywords: ….` lines and the field's values name them, the route
 * whose keywords (and description) the request uses most (among those within `ROUTE_STEP_MARGIN`
 * of the best, the one whose number of steps is nearest the request's number of parts), or `other`
 * when none reaches `ROUTE_MIN_SCORE`. Undefined when the prompt lists no routes of these values.
 */
export function routeByKeywords(prompt: string, query: string, values: readonly string[]): string | undefined {
  const listed = parseRouteTable(prompt).filter((r) => values.includes(r.value));
  if (listed.length === 0) return undefined;
  const listedValues = new Set(listed.map((r) => r.value));
  const q = new Set(terms(query));
  const scored = listed.map((r) => {
    const kw = [...new Set(r.keywords.flatMap((k) => terms(k)))];
    const about = [...new Set(terms(r.about))].filter((t) => !GENERIC.has(t));
    const share = (ws: string[]) => (ws.length === 0 ? 0 : ws.filter((w) => q.has(w)).length / ws.length);
    return { value: r.value, steps: r.tools.length, score: share(kw) + 0.25 * share(about) };
  });
  scored.sort((a, b) => b.score - a.score);
  const other = values.find((v) => !listedValues.has(v)) ?? scored[0]!.value;
  const best = scored[0]!;
  if (best.score < ROUTE_MIN_SCORE) return other;
  const parts = requestClauses(query).length;
  const near = scored.filter((x) => x.score >= best.score - ROUTE_STEP_MARGIN);
  near.sort((a, b) => Math.abs(a.steps - parts) - Math.abs(b.steps - parts) || b.score - a.score);
  return near[0]!.value;
}

/** How well a tool answers a part of the request, in [0, 1] (its BM25 score as a share of the best tool's). */
export type ToolFit = (part: string, tool: string) => number;

/** What the rules may read besides the request. */
export interface RuleOptions {
  /** Tool retrieval, for a router that aligns the request's parts with its routes' tools. */
  toolFit?: ToolFit;
}

/**
 * Least alignment for the offline router to take a route by its tools. Chosen on D_val (mean TC of
 * G0, bundled domains, seeds 0-2, with the keyword rule after it): 0.415 routing by keywords alone,
 * 0.415 at 0.7, 0.419 at 0.8, 0.416 at 0.9.
 */
export const ROUTE_MIN_ALIGN = 0.8;

/**
 * A router by sequence (docs/DESIGN.md, "Mining": routes): the route whose tools, in order, answer
 * the request's parts best — a monotone alignment of the parts (`requestClauses`) with the route's
 * tool sequence, each aligned pair worth the tool's fit to the part (`ToolFit`), the sum divided by
 * the longer of the two, so a route with steps the request does not ask for, or a request with parts
 * the route has no step for, scores less — when that reaches `ROUTE_MIN_ALIGN`; undefined otherwise
 * (and when the prompt lists no routes of these values). Ties go to the route listed first.
 */
export function routeBySequence(
  prompt: string,
  query: string,
  values: readonly string[],
  fit: ToolFit,
): string | undefined {
  const listed = parseRouteTable(prompt).filter((r) => values.includes(r.value));
  if (listed.length === 0) return undefined;
  const parts = requestClauses(query).slice(0, MAX_REQUEST_PARTS);
  if (parts.length === 0) return undefined;
  let best: { value: string; score: number } | undefined;
  for (const r of listed) {
    const m = parts.length;
    const n = r.tools.length;
    const d: number[][] = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
    for (let i = m - 1; i >= 0; i--)
      for (let j = n - 1; j >= 0; j--)
        d[i]![j] = Math.max(d[i + 1]![j]!, d[i]![j + 1]!, fit(parts[i]!, r.tools[j]!) + d[i + 1]![j + 1]!);
    const score = d[0]![0]! / Math.max(m, n);
    if (!best || score > best.score + 1e-9) best = { value: r.value, score };
  }
  return best && best.score >= ROUTE_MIN_ALIGN ? best.value : undefined;
}

/** Runs an LLM node by rule (see the file comment). */
export function runLlmRule(req: LlmNodeRequest, opts: RuleOptions = {}): string | Record<string, unknown> {
  const node = req.node;
  const clauses = splitClauses(req.query);
  if (node.output.type === 'json') return fillObject(node.output.schema as Schema, node, req, clauses, opts);
  switch (node.role) {
    case 'plan':
      return clauses.map((c, i) => `${i + 1}. ${c}`).join('\n');
    case 'synthesize':
      return synthesizeAnswer(req);
    case 'verify': {
      const failed = req.inputs.filter((i) => i.status === 'error').map((i) => i.nodeId);
      const body = inputSummaries(req.inputs).join('\n');
      return `${body}\nVerdict: ${failed.length === 0 ? 'consistent' : `problems found: ${failed.join(', ')} failed`}`.trim();
    }
    case 'reason': {
      const body = inputSummaries(req.inputs);
      return `${body.join('\n')}\nResult: ${body[0] ?? 'nothing to reason over'}`.trim();
    }
    case 'judge':
      return conceptTerms('decision', undefined, node).some((t) => new Set(terms(req.query)).has(t)) ? 'yes' : 'no';
    case 'extract':
    default:
      return inputSummaries(req.inputs).join('\n') || NOTHING_IN;
  }
}
