import { adjacency, reachable } from '../graph/graph-utils.js';
import type { Workflow } from '../graph/schema.js';
import { createLexicalJudge } from '../metrics/lexical-judge.js';
import { gevalPrompt, JUDGE_SYSTEM } from '../metrics/llm-judge.js';
import { ES_DIMENSIONS } from '../metrics/types.js';
import { costUsd, type Price } from '../llm/prices.js';
import { PLAN_SYSTEM, asText, joinPrompt, renderNodePromptParts, systemFor } from '../policies/llm-prompts.js';
import { planRequest } from '../policies/llm-tool-plan.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import { createToolShortlister, DEFAULT_SHORTLIST_SIZE } from '../policies/tool-shortlist.js';
import type { ExecutionPolicy } from '../policies/types.js';
import type { TaskRecord } from '../records/schema.js';
import type { ToolRegistry } from '../contracts/tools.js';
import { changesState } from '../tools/effects.js';
import { evaluateWorkflow } from '../evaluate/evaluate.js';
import { EDIT_PLAN_JSON_SCHEMA, OPTIMIZER_SYSTEM, optimizerPrompt } from './optimizers/llm-optimizer-prompt.js';

/**
 * What a search will cost before it runs (`flowscout search --dry-run`, and the line every real
 * search prints first): model requests and input/output tokens, and dollars when the model has a
 * price. Nothing is sent to a model. G0 runs on a few D_opt records with the offline policy deciding
 * while every node's request is rendered exactly as the LLM policy would send it (system text,
 * prompt, tool shortlist with schemas, the JSON schema of the answer); the judge's and the
 * optimizer's prompts are rendered the same way. Tokens are counted at TOKEN_CHARS characters a
 * token. The per-record figures are then scaled by the run's shape:
 *
 * - G0 runs on D_opt and D_val; each of the J iterations asks the optimizer once and runs the new
 *   candidate on D_opt and D_val; G0 and the best candidate run on D_test at the end.
 * - The node memo reuses every node upstream of an edit: a candidate recomputes a node only when
 *   the edit was at the node or above it, so with edits spread evenly over the nodes a node with a
 *   ancestors-or-self out of n nodes reruns with probability a / n. G0 and its D_test run pay in full.
 * - The LLM judge scores every run record on each of its four dimensions (one request each).
 * - An answer (a synthesize node's output, the judge's candidate answer) is taken to be as long as
 *   the D_opt reference answers on average; other outputs are the offline policy's.
 * - Repair rounds, retries, duplicates and early stops (patience, budgets) are not foreseen, so the
 *   projection is an estimate, not a bound.
 */

/** Characters per token of the projection (a common rule of thumb for English text and JSON). */
export const TOKEN_CHARS = 4;
/** Output tokens assumed for an optimizer's edit plan. */
export const OPTIMIZER_OUTPUT_TOKENS = 400;
/** Output tokens of one judge request (a digit). */
export const JUDGE_OUTPUT_TOKENS = 1;

export interface RequestCost {
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

export interface CostProjection {
  /** Everything the run will send. */
  total: RequestCost;
  /** One G0 run of one record (the workflow's own requests, no judge). */
  perQuery: RequestCost;
  /** Per node of G0, on one record. */
  perNode: Record<string, RequestCost>;
  /** Judge requests of one record (0 when the judge is offline). */
  judgePerRecord: RequestCost;
  /** One optimizer proposal (0 when the optimizer is offline). */
  optimizerPerIteration: RequestCost;
  /** The parts of `total`. */
  parts: Array<{ label: string } & RequestCost>;
  /** Share of a candidate's node requests the memo is expected to leave to recompute. */
  recomputeShare: number;
  /** Records G0 was measured on. */
  sampled: number;
  /** USD, when the policy's model has a price. */
  costUsd?: number;
  /**
   * Write and destructive calls to live tools the run would make: per query (G0, measured) and in
   * all (every record run, as if no memo saved a call). The projection makes none of them.
   */
  writeCalls: { perQuery: number; total: number };
}

export interface ProjectionInput {
  g0: Workflow;
  splits: { opt: readonly TaskRecord[]; val: readonly TaskRecord[]; test: readonly TaskRecord[] };
  /** J. */
  iterations: number;
  tools: ToolRegistry;
  /** Which parts call a model. */
  policy: 'llm' | 'offline';
  judge: 'llm' | 'offline';
  optimizer: 'llm' | 'offline';
  /** Shortlist size of the LLM policy (default DEFAULT_SHORTLIST_SIZE; 0 = every candidate). */
  shortlist?: number;
  /** Whether the node memo is on (default true). */
  memo?: boolean;
  /** D_opt records G0 is measured on (default 5). */
  sample?: number;
  /** The policy model's price, when known. */
  price?: Price;
}

const ZERO: RequestCost = { requests: 0, inputTokens: 0, outputTokens: 0 };
const tokens = (chars: number) => Math.ceil(chars / TOKEN_CHARS);
const add = (a: RequestCost, b: RequestCost): RequestCost => ({ requests: a.requests + b.requests, inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens });
const scale = (a: RequestCost, k: number): RequestCost => ({ requests: a.requests * k, inputTokens: a.inputTokens * k, outputTokens: a.outputTokens * k });

/** Projects the model requests and tokens of a search (see the module comment). */
export async function projectSearchCost(input: ProjectionInput): Promise<CostProjection> {
  const sample = input.splits.opt.slice(0, Math.max(1, input.sample ?? 5));
  const descriptors = input.tools.list();
  const offline = createOfflinePolicy({ tools: descriptors, records: input.splits.opt });
  const size = input.shortlist ?? DEFAULT_SHORTLIST_SIZE;
  const shortlist = size > 0 ? { size, shortlister: createToolShortlister({ tools: descriptors, records: input.splits.opt }) } : undefined;
  const perNode = new Map<string, RequestCost>();
  const referenceChars = input.splits.opt.reduce((n, r) => n + r.reference.length, 0) / Math.max(1, input.splits.opt.length);
  const count = (nodeId: string, inChars: number, outChars: number) => {
    perNode.set(nodeId, add(perNode.get(nodeId) ?? ZERO, { requests: 1, inputTokens: tokens(inChars), outputTokens: Math.max(1, tokens(outChars)) }));
  };
  // The offline policy decides; every request is rendered as the LLM policy would send it.
  const measuring: ExecutionPolicy = {
    id: 'projection',
    kind: 'offline',
    label: offline.label,
    async runLlmNode(req) {
      const r = await offline.runLlmNode(req);
      const parts = renderNodePromptParts(req.node, req);
      const schema = req.node.output.type === 'json' ? JSON.stringify(req.node.output.schema) : '';
      // An answer is as long as the records' reference answers, not as the offline synthesizer's.
      const out = req.node.role === 'synthesize' ? referenceChars : asText(r.output).length;
      count(req.node.id, systemFor(req.node).length + joinPrompt(parts).length + schema.length, out);
      return r;
    },
    async planToolCalls(req) {
      const r = await offline.planToolCalls(req);
      const { prompt, schema } = planRequest(req, shortlist);
      count(req.node.id, PLAN_SYSTEM.length + joinPrompt(prompt).length + JSON.stringify(schema).length, JSON.stringify({ calls: r.calls }).length);
      return r;
    },
  };
  const counted = withoutLiveWrites(input.tools);
  const evaluation = await evaluateWorkflow(input.g0, sample, { policy: measuring, tools: counted.tools, judge: createLexicalJudge(), concurrency: 1 });
  const n = sample.length;
  const nodes: Record<string, RequestCost> = {};
  for (const [id, c] of perNode) nodes[id] = scale(c, 1 / n);
  const perQuery = input.policy === 'llm' ? Object.values(nodes).reduce(add, ZERO) : ZERO;

  let judgePerRecord = ZERO;
  if (input.judge === 'llm') {
    for (const record of sample) {
      for (const dim of ES_DIMENSIONS) {
        // The candidate answer is taken to be as long as the reference (see the synthesize node above).
        const chars = JUDGE_SYSTEM.length + gevalPrompt(dim, { query: record.query, reference: record.reference, answer: record.reference }).length;
        judgePerRecord = add(judgePerRecord, { requests: 1, inputTokens: tokens(chars), outputTokens: JUDGE_OUTPUT_TOKENS });
      }
    }
    judgePerRecord = scale(judgePerRecord, 1 / n);
  }
  let optimizerPerIteration = ZERO;
  if (input.optimizer === 'llm' && evaluation.feedback) {
    const prompt = optimizerPrompt({ workflow: input.g0, feedback: evaluation.feedback, tools: descriptors, siblings: [], toolNodesAllowed: true });
    optimizerPerIteration = { requests: 1, inputTokens: tokens(OPTIMIZER_SYSTEM.length + prompt.length + JSON.stringify(EDIT_PLAN_JSON_SCHEMA).length), outputTokens: OPTIMIZER_OUTPUT_TOKENS };
  }

  // A node reruns in a candidate when the edit was at it or above it (see the module comment).
  const ids = input.g0.nodes.map((x) => x.id);
  const adj = adjacency(input.g0);
  const weightOf = (id: string) => (input.policy === 'llm' ? (nodes[id]?.requests ?? 0) : 0);
  const totalWeight = ids.reduce((s, id) => s + weightOf(id), 0);
  const recomputeShare =
    input.memo === false || totalWeight === 0 ? 1 : ids.reduce((s, id) => s + (weightOf(id) * reachable(adj, [id], 'backward').size) / ids.length, 0) / totalWeight;
  const candidateQuery = scale(perQuery, recomputeShare);

  const { opt, val, test } = input.splits;
  const J = input.iterations;
  const parts: Array<{ label: string } & RequestCost> = [
    { label: `G0 on D_opt and D_val (${opt.length + val.length} records)`, ...scale(perQuery, opt.length + val.length) },
    { label: `${J} candidates on D_opt and D_val (memo reuses ~${Math.round((1 - recomputeShare) * 100)}% of node requests)`, ...scale(candidateQuery, J * (opt.length + val.length)) },
    { label: `G0 and the best on D_test (${test.length} records)`, ...add(scale(perQuery, test.length), scale(candidateQuery, test.length)) },
    { label: 'judge (4 dimensions per record run)', ...scale(judgePerRecord, (J + 1) * (opt.length + val.length) + 2 * test.length) },
    { label: `optimizer (${J} proposals)`, ...scale(optimizerPerIteration, J) },
  ];
  const round = (c: RequestCost): RequestCost => ({ requests: Math.round(c.requests), inputTokens: Math.round(c.inputTokens), outputTokens: Math.round(c.outputTokens) });
  const total = round(parts.reduce<RequestCost>(add, ZERO));
  const projection: CostProjection = {
    total,
    perQuery: round(perQuery),
    perNode: Object.fromEntries(Object.entries(nodes).map(([k, v]) => [k, round(v)])),
    judgePerRecord: round(judgePerRecord),
    optimizerPerIteration,
    parts: parts.map((p) => ({ label: p.label, ...round(p) })),
    recomputeShare,
    sampled: n,
    writeCalls: { perQuery: counted.count() / n, total: Math.round((counted.count() / n) * ((J + 1) * (opt.length + val.length) + 2 * test.length)) },
  };
  if (input.price) projection.costUsd = costUsd(input.price, total.inputTokens, total.outputTokens);
  return projection;
}

/** The one line a search prints before it starts (and `--dry-run` prints with its parts). */
export function projectionLine(p: CostProjection, priced: boolean): string {
  const cost = p.costUsd !== undefined ? `, about $${p.costUsd.toFixed(2)}` : priced ? '' : ', cost unknown (no price for the model)';
  return `projected: ${p.total.requests} model requests, ${p.total.inputTokens} input and ${p.total.outputTokens} output tokens${cost} (G0 measured on ${p.sampled} D_opt records; ${p.perQuery.requests} requests and ${p.perQuery.inputTokens} input tokens a query)`;
}

/**
 * The projection's tools: reads pass through; a write or destructive call to a live tool is counted
 * and not made (the projection sends nothing anywhere a search would not read).
 */
function withoutLiveWrites(tools: ToolRegistry): { tools: ToolRegistry; count(): number } {
  let count = 0;
  return {
    tools: {
      ...tools,
      call: async (name, args, ctx) => {
        const e = tools.effectOf(name);
        if (!e || !e.live || !changesState(e)) return tools.call(name, args, ctx);
        count++;
        return { tool: name, args, status: 'error', error: `not run: '${name}' is a live ${e.effect} tool (cost projection)`, durationMs: 0 };
      },
    },
    count: () => count,
  };
}

/** The dry run's line about write calls, when the run would make any. */
export function writeCallsLine(p: Pick<CostProjection, 'writeCalls'>, allowLiveWrites: boolean): string | undefined {
  if (p.writeCalls.total === 0) return undefined;
  const perQuery = Number.isInteger(p.writeCalls.perQuery) ? String(p.writeCalls.perQuery) : p.writeCalls.perQuery.toFixed(1);
  return `projected: ${p.writeCalls.total} write calls to live tools (${perQuery} a query; at most, before the memo); ${allowLiveWrites ? 'they would be SENT (--allow-live-writes)' : 'they would be answered from replay or refused, not sent (--allow-live-writes sends them)'}`;
}
