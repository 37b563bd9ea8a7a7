import type { Choices, LlmNode } from '../../graph/schema.js';
import type { LlmNodeRequest, NodeInput } from '../types.js';
import { callsOf, describeCall } from './summarize.js';
import { synthesizeAnswer } from './synthesize.js';
import { stem, terms } from '../../text/words.js';
import { MAX_REQUEST_PARTS, requestClauses, splitClauses } from '../../text/clauses.js';
import { alignInOrder } from '../../util/in-order-alignment.js';

/**
 * The offline policy's LLM nodes, by deterministic rules (docs/DESIGN.md, "Policies"):
 * - plan: the query split into clauses, numbered;
 * - judge: each boolean field is true when its concept (the field name, its description and the
 *   node's `question`, minus generic words) appears in the query; the field a judge's `choices`
 *   answer in takes the option whose tools, in order, answer the request's parts
 *   (`routeBySequence`), else `otherwise`; other fields by their schema;
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

/**
 * The concept words of a judge field: its name, description and the node's `question`, minus
 * generic words. (A judge written before judges had a `question` field has its question only in its
 * prompt text, which is never read back: its field name and description decide.)
 */
export function conceptTerms(field: string, schema: Schema | undefined, node: LlmNode): string[] {
  const text = `${field.replace(/_/g, ' ')} ${schema?.description ?? ''} ${node.question ?? ''}`;
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
  // A router written before routers had `choices` lists its routes in its prompt text only, which
  // is never read back: its field is then filled by its schema, as any other.
  if (node.role === 'judge' && node.choices?.field === field) {
    // A branch inside the workflow: the tools earlier steps called serve their parts of the request.
    const served = node.choices.part ? req.inputs.flatMap((i) => (i.calls ?? []).map((c) => c.tool)) : [];
    const routed = routeBySequence(node.choices, req.query, opts.toolFit, served);
    if (routed !== undefined) return routed;
  }
  if (schema?.enum && schema.enum.length > 0) {
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

/** How well a tool answers a part of the request, in [0, 1] (its BM25 score as a share of the best tool's). */
export type ToolFit = (part: string, tool: string) => number;

/** What the rules read besides the request. */
export interface RuleOptions {
  /** Tool retrieval, for a router that aligns the request's parts with its routes' tools. */
  toolFit: ToolFit;
}

/**
 * Least alignment for the offline router to take a route. Chosen on D_val (mean TC of G0, bundled
 * domains, seeds 0-2): 0.429 routing nothing, 0.426 at 0.7, 0.431 at 0.75 and at 0.8, 0.430 at 0.85
 * and 0.9. The former rule — the route whose keywords the request used most, taken when it used all
 * of them — gave 0.425 alone and 0.427 after the alignment (keywords are for a model's router; a
 * word a route's requests share is weak evidence of the tools a request needs). Checked again on
 * seven domains (docs/guides/benchmarks.md, History): no other value did better.
 */
export const ROUTE_MIN_ALIGN = 0.8;

/**
 * The offline router (docs/DESIGN.md, "Mining": routes): of a judge's `choices`, the option whose
 * tools, in order, answer the request's parts best — a monotone alignment of the parts
 * (`requestClauses`) with the option's tool sequence, each aligned pair worth the tool's fit to the
 * part (`ToolFit`), the sum divided by the longer of the two, so an option with steps the request
 * does not ask for, or a request with parts the option has no step for, scores less (a branch that
 * does one `part` of the request scores by the parts its tools answer instead: `partsAnswered`) —
 * when that reaches `ROUTE_MIN_ALIGN`, else `fallback`, else `otherwise` (without one, the best option). Ties go to
 * the option listed first. An option's `about` and `asks` are for a model's router. Undefined
 * without options.
 */
export function routeBySequence(
  choices: Choices,
  query: string,
  fit: ToolFit,
  served: readonly string[] = [],
): string | undefined {
  const listed = choices.options;
  if (listed.length === 0) return undefined;
  const other = choices.otherwise;
  const parts = requestClauses(query).slice(0, MAX_REQUEST_PARTS);
  let best: { value: string; score: number } | undefined;
  for (const r of listed) {
    // A router's route must do the whole request; a branch inside the workflow only its part of it.
    const score =
      parts.length === 0
        ? 0
        : choices.part
          ? partsAnswered(parts, r.tools, fit, served)
          : alignedShare(parts, r.tools, fit);
    if (!best || score > best.score + 1e-9) best = { value: r.value, score };
  }
  return best && best.score >= ROUTE_MIN_ALIGN ? best.value : (choices.fallback ?? other ?? best?.value);
}

/**
 * A route's monotone alignment of the request's parts with its tools, each aligned pair worth the
 * tool's fit to the part, divided by the longer of the two sequences.
 */
function alignedShare(parts: readonly string[], tools: readonly string[], fit: ToolFit): number {
  const { value } = alignInOrder(parts.length, tools.length, (i, j) => fit(parts[i]!, tools[j]!));
  return value / Math.max(parts.length, tools.length);
}

/**
 * How much of the request a branch's tools answer: per part of the request, 1 when one of the tools
 * fits it at least `ROUTE_MIN_ALIGN`, plus a tie-break below 1 from how well they fit the rest. A
 * part that a tool called before the branch (`served`) fits at least as well is left out.
 * A branch answering no part scores below `ROUTE_MIN_ALIGN`.
 */
function partsAnswered(
  parts: readonly string[],
  tools: readonly string[],
  fit: ToolFit,
  served: readonly string[],
): number {
  let answered = 0;
  let rest = 0;
  for (const p of parts) {
    const best = Math.max(0, ...tools.map((t) => fit(p, t)));
    // A part a tool called before the branch answers at least as well was served there.
    const before = Math.max(0, ...served.map((t) => fit(p, t)));
    if (before >= ROUTE_MIN_ALIGN && before >= best) continue;
    if (best >= ROUTE_MIN_ALIGN) answered++;
    else rest += best;
  }
  return answered + (ROUTE_MIN_ALIGN * rest) / Math.max(1, parts.length);
}

/** Runs an LLM node by rule (see the file comment). */
export function runLlmRule(req: LlmNodeRequest, opts: RuleOptions): string | Record<string, unknown> {
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
