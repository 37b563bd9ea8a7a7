import { parseRouteTable } from '../../graph/route-table.js';
import type { LlmNode } from '../../graph/schema.js';
import type { LlmNodeRequest, NodeInput } from '../types.js';
import { callsOf, describeCall } from './summarize.js';
import { synthesizeAnswer } from './synthesize.js';
import { requestClauses, splitClauses, stem, terms } from './text.js';

/**
 * The offline policy's LLM nodes, by deterministic rules (docs/DESIGN.md, "Policies"):
 * - plan: the query split into clauses, numbered;
 * - judge: each boolean field is true when its concept (the field name, its description and the
 *   node's question, minus generic words) appears in the query; a router's field (its prompt lists
 *   routes with past requests) takes the route whose past requests are most like the request
 *   (`routeByPastRequests`); other fields by their schema;
 * - extract / reason / verify: pass-through summaries of their inputs (verify also lists errors),
 *   never the request itself (an answer that repeats the request is not a result);
 * - synthesize: one paragraph per tool call seen in the inputs, numbers and names kept.
 * Text nodes return text; JSON nodes return an object that fits their declared schema.
 */

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[]; description?: string; required?: string[] };

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
      if (calls.length === 0) out.push(`Step ${input.nodeId} made no call${input.status === 'error' ? ' (it failed)' : ''}.`);
      for (const c of calls) out.push(describeCall(c));
    } else if (typeof input.output === 'string') {
      if (input.role !== 'plan' && input.output.trim()) out.push(input.output.trim());
    } else if (input.output !== undefined) out.push(JSON.stringify(input.output));
  }
  return out;
}

function fillValue(schema: Schema | undefined, field: string, node: LlmNode, req: LlmNodeRequest, clauses: string[]): unknown {
  const types = new Set(schema?.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]);
  const queryTerms = new Set(terms(req.query));
  if (types.has('boolean')) {
    if (node.role === 'verify') return !req.inputs.some((i) => i.status === 'error');
    return conceptTerms(field, schema, node).some((t) => queryTerms.has(t));
  }
  if (schema?.enum && schema.enum.length > 0) {
    const routed = node.role === 'judge' ? routeByPastRequests(node.prompt, req.query, schema.enum.map(String)) : undefined;
    if (routed !== undefined) return routed;
    const hit = schema.enum.find((e) => terms(String(e)).some((t) => queryTerms.has(t)));
    return hit ?? schema.enum[0];
  }
  if (types.has('number') || types.has('integer')) return node.role === 'plan' ? clauses.length : 0;
  if (types.has('array')) {
    const itemTypes = schema?.items?.type;
    return itemTypes === 'string' || (Array.isArray(itemTypes) && itemTypes.includes('string')) ? clauses : [];
  }
  if (types.has('object')) return fillObject(schema, node, req, clauses);
  return node.role === 'plan' ? clauses.join('; ') : inputSummaries(req.inputs).join(' ');
}

function fillObject(schema: Schema | undefined, node: LlmNode, req: LlmNodeRequest, clauses: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, sub] of Object.entries(schema?.properties ?? {})) out[field] = fillValue(sub, field, node, req, clauses);
  return out;
}


/**
 * Least word overlap (Jaccard, over the lower-case words of the two requests) with a route's past
 * request for the offline router to take that route; below it, `other`. Chosen on D_opt and D_val of
 * the bundled domains (seeds 0-2), running each record as the calls of its most similar D_opt
 * record: mean TC on D_val 0.406 when every record is routed (overlap 0), 0.417 from 0.4, 0.413 from
 * 0.5; on D_opt, leaving the record out, 0.517, 0.534 and 0.544. Routing every request sends
 * requests unlike any past one to a route that fits them badly.
 */
export const ROUTE_MIN_OVERLAP = 0.45;

/**
 * Routes whose past requests overlap the request within this much of the best route's compete on
 * length: the one whose number of steps is nearest the request's number of parts wins. Variants of
 * one task often differ only by a step more or less (a list, then its details, then a quote), and
 * their requests share most words. Chosen on D_val (mean TC of G0 with routes, bundled domains,
 * seeds 0-2): 0.417 without (0), 0.425 at 0.05, 0.423 at 0.1, 0.396 at 0.2.
 */
export const ROUTE_STEP_MARGIN = 0.05;


function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
}

/**
 * A router (docs/DESIGN.md, "Mining": routes): when the prompt lists routes as `- <value>: calls a → b.
 * Past requests:` lines each followed by `  • "<past request>"` lines and the field's values name
 * them, the route whose past requests share the most words with the request (among those within
 * `ROUTE_STEP_MARGIN` of the best, the one whose number of steps is nearest the request's number of
 * parts), or `other` when none shares `ROUTE_MIN_OVERLAP`. Undefined when the prompt lists no routes
 * of these values.
 */
export function routeByPastRequests(prompt: string, query: string, values: readonly string[]): string | undefined {
  const listed = parseRouteTable(prompt).filter((r) => values.includes(r.value) && r.requests.length > 0);
  const examples = new Map(listed.map((r) => [r.value, r.requests]));
  const steps = new Map(listed.map((r) => [r.value, r.tools.length]));
  if (examples.size === 0) return undefined;
  const q = wordSet(query);
  const scored: Array<{ value: string; overlap: number }> = [];
  for (const value of values) {
    let overlap = -1;
    for (const past of examples.get(value) ?? []) {
      const p = wordSet(past);
      let shared = 0;
      for (const w of q) if (p.has(w)) shared++;
      overlap = Math.max(overlap, shared / (q.size + p.size - shared || 1));
    }
    if (overlap >= 0) scored.push({ value, overlap });
  }
  scored.sort((a, b) => b.overlap - a.overlap);
  const other = values.find((v) => !examples.has(v)) ?? scored[0]!.value;
  const best = scored[0];
  if (!best || best.overlap < ROUTE_MIN_OVERLAP) return other;
  const parts = requestClauses(query).length;
  const near = scored.filter((x) => x.overlap >= best.overlap - ROUTE_STEP_MARGIN);
  near.sort((a, b) => Math.abs((steps.get(a.value) ?? 0) - parts) - Math.abs((steps.get(b.value) ?? 0) - parts) || b.overlap - a.overlap);
  return near[0]!.value;
}

/** Runs an LLM node by rule (see the file comment). */
export function runLlmRule(req: LlmNodeRequest): string | Record<string, unknown> {
  const node = req.node;
  const clauses = splitClauses(req.query);
  if (node.output.type === 'json') return fillObject(node.output.schema as Schema, node, req, clauses);
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
