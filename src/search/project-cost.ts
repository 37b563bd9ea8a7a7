import { adjacency, reachable } from '../graph/graph-utils.js';
import type { Workflow } from '../graph/schema.js';
import { createLexicalJudge } from '../metrics/lexical-judge.js';
import {
  gevalPrompt,
  JOINT_JUDGE_SYSTEM,
  JOINT_OUTPUT_TOKENS,
  jointPrompt,
  JUDGE_SYSTEM,
  type JudgeMode,
} from '../metrics/llm-judge.js';
import { raceRounds } from './race.js';
import type { SearchSettings } from './search-context.js';
import { ES_DIMENSIONS } from '../metrics/types.js';
import { costUsd, type Price } from '../llm/prices.js';
import { PLAN_SYSTEM, asText, joinPrompt, renderNodePromptParts, systemFor } from '../policies/llm-prompts.js';
import { planRequest } from '../policies/llm-tool-plan.js';
import { asksNoModel, fullyBoundCall, handOffFit } from '../policies/llm-policy.js';
import { handOff, partsFor } from '../retrieval/hand-off.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import { createToolShortlister, DEFAULT_SHORTLIST_SIZE } from '../policies/tool-shortlist.js';
import type { ExecutionPolicy } from '../policies/types.js';
import type { TaskRecord } from '../records/schema.js';
import type { ToolRegistry } from '../contracts/tools.js';
import { withoutLiveCalls } from '../tools/no-live-calls.js';
import { evaluateWorkflow } from '../evaluate/evaluate.js';
import { EDIT_PLAN_JSON_SCHEMA, OPTIMIZER_SYSTEM, optimizerPrompt } from './optimizers/llm-optimizer-prompt.js';

/**
 * What a search will cost before it runs (`flowscout search --dry-run`, and the line every real
 * search prints first): model requests and input/output tokens, and dollars when the model has a
 * price. Nothing is sent to a model, and no live tool is called (reads included: a call is answered
 * from the records' recorded responses, or not made; tools/no-live-calls.ts). G0 runs on a few D_opt records with the offline policy deciding
 * while every node's request is rendered exactly as the LLM policy would send it (system text,
 * prompt, tool shortlist with schemas, the JSON schema of the answer); the judge's and the
 * optimizer's prompts are rendered the same way. Tokens are counted at TOKEN_CHARS characters a
 * token. The per-record figures are then scaled by the run's shape:
 *
 * - G0 runs on D_opt and D_val (each capped at `maxOpt` / `maxVal` records); each of the J
 *   iterations asks the optimizer once and runs the new candidate on D_opt and D_val — with racing,
 *   on the first round of D_opt (race.ts), and on the rest of D_opt and on D_val only if it survives,
 *   which RACE_SURVIVAL of the candidates are taken to do; G0 and the best candidate run on D_test
 *   (capped at `maxTest`) at the end.
 * - The node memo reuses every node upstream of an edit, and every node given the same inputs as
 *   before: a candidate recomputes a node for a record only when the edit was at the node or at an
 *   ancestor the record's run executes, so with edits spread evenly over the nodes a node with a
 *   such ancestors-or-self out of n nodes reruns with probability a / n. G0 and its D_test run pay
 *   in full.
 * - The LLM judge scores every run record on each of its four dimensions (one request each), or
 *   with one request for all four (`judgeMode: 'joint'`; both are projected). The judge memo reuses
 *   a score when a candidate answers a record as an earlier one did: a record's answer is taken to
 *   change only when the edit was at a node the record's run executes (a node of another route of
 *   G0's router does not run for it), so with edits spread evenly a record that executes e of the n
 *   nodes is judged again with probability e / n (and G0's D_test answers are reused the same way by
 *   the best candidate). A model that answers an identical request differently is judged again.
 * - An answer (a synthesize node's output, the judge's candidate answer) is taken to be as long as
 *   the D_opt reference answers on average; other outputs are the offline policy's.
 * - A node's stable prefix (its system text and the part of its prompt that is the same for every
 *   record) is taken to be served by the provider's prefix cache (OpenAI's rule: from 1,024 tokens
 *   on, in steps of 128) and priced at the cached rate; the judge's and the optimizer's prompts are
 *   taken as uncached.
 * - Repair rounds, retries, duplicates and early stops (patience, budgets) are not foreseen, so the
 *   projection is an estimate, not a bound.
 */

/** Characters per token of the projection (a common rule of thumb for English text and JSON). */
export const TOKEN_CHARS = 4;
/** Output tokens assumed for an optimizer's edit plan. */
export const OPTIMIZER_OUTPUT_TOKENS = 400;
/** Output tokens of one judge request (a digit). */
export const JUDGE_OUTPUT_TOKENS = 1;
/**
 * Share of candidates taken to survive the race and run on all of D_opt and D_val. Measured offline
 * on the bundled domains (benchmarks/search-racing.ts, seeds 0–2: 11 of 63 evaluated candidates,
 * 17 %); rounded up, since an LLM optimizer's candidates may be closer to the best.
 */
export const RACE_SURVIVAL = 0.25;

export interface RequestCost {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** Input tokens a provider's prefix cache is expected to serve (see the module comment); part of `inputTokens`. */
  cachedInputTokens?: number;
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
  /** Judge requests of one record in the other judge mode, and the run's total in each mode. */
  judgeModes: Record<JudgeMode, { perRecord: RequestCost; total: RequestCost; costUsd?: number }>;
  /** The judge mode `total` is for. */
  judgeMode: JudgeMode;
  /** Share of the judge's candidate requests the judge memo is expected to save. */
  judgeReuseShare: number;
  /** Records a candidate is expected to run on (D_opt and D_val, fewer with racing). */
  recordsPerCandidate: number;
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
  /**
   * The projection's own calls to live tools on the sampled records: none is made (`made` is
   * always 0); each was answered from the records' recorded responses or not made.
   */
  liveToolCalls: { made: 0; answeredFromRecords: number; notMade: number };
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
  /** How the LLM judge asks (default per-dimension); the projection gives both modes. */
  judgeMode?: JudgeMode;
  /** Racing and the record caps of the search (absent: no racing, no caps). */
  settings?: Pick<SearchSettings, 'racing' | 'maxOpt' | 'maxVal' | 'maxTest'>;
}

const ZERO: RequestCost = { requests: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
const tokens = (chars: number) => Math.ceil(chars / TOKEN_CHARS);
const add = (a: RequestCost, b: RequestCost): RequestCost => ({
  requests: a.requests + b.requests,
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
  cachedInputTokens: (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0),
});
const scale = (a: RequestCost, k: number): RequestCost => ({
  requests: a.requests * k,
  inputTokens: a.inputTokens * k,
  outputTokens: a.outputTokens * k,
  cachedInputTokens: (a.cachedInputTokens ?? 0) * k,
});
/**
 * Tokens of a request's stable prefix (system text and the part of the prompt that is the same for
 * every record) that a provider's automatic prefix cache serves once the prefix was sent before:
 * OpenAI's rule, from 1,024 tokens on, in steps of 128.
 */
export function cachedPrefixTokens(prefixChars: number): number {
  const t = Math.floor(prefixChars / TOKEN_CHARS);
  return t >= 1024 ? 1024 + Math.floor((t - 1024) / 128) * 128 : 0;
}

/** Projects the model requests and tokens of a search (see the module comment). */
export async function projectSearchCost(input: ProjectionInput): Promise<CostProjection> {
  const sample = input.splits.opt.slice(0, Math.max(1, input.sample ?? 5));
  const descriptors = input.tools.list();
  const offline = createOfflinePolicy({ tools: descriptors });
  const size = input.shortlist ?? DEFAULT_SHORTLIST_SIZE;
  const shortlist = size > 0 ? { size, shortlister: createToolShortlister({ tools: descriptors }) } : undefined;
  const fit = handOffFit(descriptors);
  const perNode = new Map<string, RequestCost>();
  const referenceChars =
    input.splits.opt.reduce((n, r) => n + r.reference.length, 0) / Math.max(1, input.splits.opt.length);
  const count = (nodeId: string, inChars: number, outChars: number, stableChars: number) => {
    perNode.set(
      nodeId,
      add(perNode.get(nodeId) ?? ZERO, {
        requests: 1,
        inputTokens: tokens(inChars),
        outputTokens: Math.max(1, tokens(outChars)),
        cachedInputTokens: Math.min(tokens(inChars), cachedPrefixTokens(stableChars)),
      }),
    );
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
      count(
        req.node.id,
        systemFor(req.node).length + joinPrompt(parts).length + schema.length,
        out,
        systemFor(req.node).length + parts.stable.length,
      );
      return r;
    },
    async planToolCalls(req) {
      const r = await offline.planToolCalls(req);
      const parts = partsFor(handOff(req.query, req.workflow, fit(req.workflow), req.node.id), req.node.id);
      if (asksNoModel(req, parts) || fullyBoundCall(req)) return r;
      const { prompt, schema } = planRequest(req, shortlist);
      count(
        req.node.id,
        PLAN_SYSTEM.length + joinPrompt(prompt).length + JSON.stringify(schema).length,
        JSON.stringify({ calls: r.calls }).length,
        PLAN_SYSTEM.length + prompt.stable.length,
      );
      return r;
    },
  };
  // No live tool is called, reads included: the records' recorded responses answer what they can,
  // the rest is not made (tools/no-live-calls.ts); write calls are counted all the same.
  const tools = withoutLiveCalls(
    input.tools,
    [...input.splits.opt, ...input.splits.val, ...input.splits.test],
    'the projection calls no live tool',
  );
  const evaluation = await evaluateWorkflow(input.g0, sample, {
    policy: measuring,
    tools,
    judge: createLexicalJudge(),
    concurrency: 1,
  });
  const n = sample.length;
  const live = tools.liveCalls();
  const nodes: Record<string, RequestCost> = {};
  for (const [id, c] of perNode) nodes[id] = scale(c, 1 / n);
  const perQuery = input.policy === 'llm' ? Object.values(nodes).reduce(add, ZERO) : ZERO;

  const judgeOf: Record<JudgeMode, RequestCost> = { 'per-dimension': ZERO, joint: ZERO };
  if (input.judge === 'llm') {
    for (const record of sample) {
      // The candidate answer is taken to be as long as the reference (see the synthesize node above).
      const req = { query: record.query, reference: record.reference, answer: record.reference };
      for (const dim of ES_DIMENSIONS) {
        const chars = JUDGE_SYSTEM.length + gevalPrompt(dim, req).length;
        judgeOf['per-dimension'] = add(judgeOf['per-dimension'], {
          requests: 1,
          inputTokens: tokens(chars),
          outputTokens: JUDGE_OUTPUT_TOKENS,
        });
      }
      judgeOf.joint = add(judgeOf.joint, {
        requests: 1,
        inputTokens: tokens(JOINT_JUDGE_SYSTEM.length + jointPrompt(req).length),
        outputTokens: JOINT_OUTPUT_TOKENS,
      });
    }
    judgeOf['per-dimension'] = scale(judgeOf['per-dimension'], 1 / n);
    judgeOf.joint = scale(judgeOf.joint, 1 / n);
  }
  const judgeMode = input.judgeMode ?? 'per-dimension';
  const judgePerRecord = judgeOf[judgeMode];
  // A record's answer changes when the edit was at a node its run executes (see the module comment).
  const executedShare =
    input.memo === false
      ? 1
      : evaluation.perRecord.reduce(
          (sum, r) =>
            sum +
            Math.min(
              1,
              r.trace.observations.filter((o) => o.status !== 'skipped').length / Math.max(1, input.g0.nodes.length),
            ),
          0,
        ) / Math.max(1, evaluation.perRecord.length);
  let optimizerPerIteration = ZERO;
  if (input.optimizer === 'llm' && evaluation.feedback) {
    const prompt = optimizerPrompt({
      workflow: input.g0,
      feedback: evaluation.feedback,
      tools: descriptors,
      siblings: [],
      toolNodesAllowed: true,
    });
    optimizerPerIteration = {
      requests: 1,
      inputTokens: tokens(OPTIMIZER_SYSTEM.length + prompt.length + JSON.stringify(EDIT_PLAN_JSON_SCHEMA).length),
      outputTokens: OPTIMIZER_OUTPUT_TOKENS,
    };
  }

  // A node reruns in a candidate when the edit was at it or above it (see the module comment).
  const ids = input.g0.nodes.map((x) => x.id);
  const adj = adjacency(input.g0);
  const weightOf = (id: string) => (input.policy === 'llm' ? (nodes[id]?.requests ?? 0) : 0);
  const totalWeight = ids.reduce((s, id) => s + weightOf(id), 0);
  // With the second memo key (what a node is given), only the ancestors the record's run executes count.
  const executed = evaluation.perRecord.map(
    (r) => new Set(r.trace.observations.filter((o) => o.status !== 'skipped').map((o) => o.nodeId)),
  );
  const shareOf = (id: string) => {
    const runs = executed.filter((x) => x.has(id));
    if (runs.length === 0) return 0;
    const up = reachable(adj, [id], 'backward');
    return runs.reduce((sum, x) => sum + [...up].filter((a) => x.has(a)).length / ids.length, 0) / runs.length;
  };
  const recomputeShare =
    input.memo === false || totalWeight === 0
      ? 1
      : ids.reduce((s, id) => s + weightOf(id) * shareOf(id), 0) / totalWeight;
  const candidateQuery = scale(perQuery, recomputeShare);

  const cfg = input.settings ?? {};
  const capped = (k: number, max: number | undefined) => (max !== undefined ? Math.min(k, max) : k);
  const optN = capped(input.splits.opt.length, cfg.maxOpt);
  const valN = capped(input.splits.val.length, cfg.maxVal);
  const testN = capped(input.splits.test.length, cfg.maxTest);
  const J = input.iterations;
  const first = raceRounds(optN)[0]!;
  const recordsPerCandidate = cfg.racing ? first + RACE_SURVIVAL * (optN - first + valN) : optN + valN;
  const raceNote = cfg.racing
    ? `racing: ${first} D_opt records, the rest and D_val for ~${Math.round(RACE_SURVIVAL * 100)}%; `
    : '';
  const judgeRuns = (perRecord: RequestCost) =>
    add(scale(perRecord, optN + valN + testN), scale(perRecord, executedShare * (J * recordsPerCandidate + testN)));
  const parts: Array<{ label: string } & RequestCost> = [
    { label: `G0 on D_opt and D_val (${optN + valN} records)`, ...scale(perQuery, optN + valN) },
    {
      label: `${J} candidates (${raceNote}memo reuses ~${Math.round((1 - recomputeShare) * 100)}% of node requests)`,
      ...scale(candidateQuery, J * recordsPerCandidate),
    },
    {
      label: `G0 and the best on D_test (${testN} records)`,
      ...add(scale(perQuery, testN), scale(candidateQuery, testN)),
    },
    {
      label: `judge (${judgeMode === 'joint' ? '1 request' : '4 dimensions'} a record; memo reuses ~${Math.round((1 - executedShare) * 100)}% of candidates' scores)`,
      ...judgeRuns(judgePerRecord),
    },
    { label: `optimizer (${J} proposals)`, ...scale(optimizerPerIteration, J) },
  ];
  const round = (c: RequestCost): RequestCost => ({
    requests: Math.round(c.requests),
    inputTokens: Math.round(c.inputTokens),
    outputTokens: Math.round(c.outputTokens),
    cachedInputTokens: Math.round(c.cachedInputTokens ?? 0),
  });
  const priced = (c: RequestCost) =>
    costUsd(input.price!, c.inputTokens, c.outputTokens, { cachedInputTokens: c.cachedInputTokens ?? 0 });
  const total = round(parts.reduce<RequestCost>(add, ZERO));
  const withoutJudge = parts.filter((_, i) => i !== 3).reduce<RequestCost>(add, ZERO);
  const judgeModes = Object.fromEntries(
    (['per-dimension', 'joint'] as const).map((mode) => {
      const t = round(add(withoutJudge, judgeRuns(judgeOf[mode])));
      return [mode, { perRecord: round(judgeOf[mode]), total: t, ...(input.price ? { costUsd: priced(t) } : {}) }];
    }),
  ) as CostProjection['judgeModes'];
  const projection: CostProjection = {
    total,
    perQuery: round(perQuery),
    perNode: Object.fromEntries(Object.entries(nodes).map(([k, v]) => [k, round(v)])),
    judgePerRecord: round(judgePerRecord),
    judgeModes,
    judgeMode,
    judgeReuseShare: 1 - executedShare,
    recordsPerCandidate,
    optimizerPerIteration,
    parts: parts.map((p) => ({ label: p.label, ...round(p) })),
    recomputeShare,
    sampled: n,
    writeCalls: {
      perQuery: live.writes / n,
      total: Math.round((live.writes / n) * (optN + valN + J * recordsPerCandidate + 2 * testN)),
    },
    liveToolCalls: { made: 0, answeredFromRecords: live.answeredFromRecords, notMade: live.notMade },
  };
  if (input.price) projection.costUsd = priced(total);
  return projection;
}
