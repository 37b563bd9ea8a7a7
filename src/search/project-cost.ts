import { adjacency, reachable } from '../graph/graph-utils.js';
import { DEFAULT_JUDGE_MODE, type JudgeMode } from '../metrics/llm-judge.js';
import { cachedPrefixTokens, type CountedRequest } from '../llm/counting-model.js';
import { costUsd } from '../llm/prices.js';
import { raceRounds } from './race.js';
import { countRequests, OPTIMIZER_SAMPLE, type ProjectionInput } from './count-requests.js';

/**
 * What a search will cost before it runs (`flowscout search --dry-run`, and the line every real
 * search prints first): model requests and input/output tokens, and dollars when the model has a
 * price. It is a projection, counted on the real parts: the LLM policy, the LLM judge (both modes)
 * and the LLM optimizer run unchanged on a model that sends nothing and counts every request they
 * build (llm/counting-model.ts). That model answers what the offline policy, the lexical judge and
 * the rule-based optimizer decide, so G0 runs on a few D_opt records as it would with a model that
 * decides alike; a synthesize node answers with the record's reference answer (an LLM's answer is
 * about that long). No live tool is called (reads included: a call is answered from the records'
 * recorded responses, or not made; tools/no-live-calls.ts). The counts of those records (and of
 * two optimizer proposals, from G0 and from the candidate the first one made) are then scaled by
 * the run's shape:
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
 * - The judge memo reuses a score when a candidate answers a record as an earlier one did: a
 *   record's answer is taken to change only when the edit was at a node the record's run executes,
 *   so with edits spread evenly a record that executes e of the n nodes is judged again with
 *   probability e / n (and G0's D_test answers are reused the same way by the best candidate).
 * - A request's prefix that another request of the sample shares is taken to be served by the
 *   provider's prefix cache (OpenAI's rule, llm/counting-model.ts) and priced at the cached rate.
 * - Repair rounds the offline answers do not cause, retries, duplicates, the bindings and hints a
 *   search learns (which let later candidates skip requests) and early stops (patience, budgets)
 *   are not foreseen, so the projection is an estimate, not a bound.
 */

/**
 * Share of candidates taken to survive the race and run on all of D_opt and D_val. Measured offline
 * on the bundled domains (benchmarks/search-racing.ts, seeds 0–2: 11 of 63 evaluated candidates,
 * 17 %); rounded up, since an LLM optimizer's candidates may be closer to the best.
 */
export const RACE_SURVIVAL = 0.25;

/** Optimizer proposals the projection counts (from G0, then from the candidate each one made). */

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
  /** Every request counted on the sampled records, when `keepRequests` asked for them. */
  requests?: readonly CountedRequest[];
}

export type { ProjectionInput } from './count-requests.js';

const ZERO: RequestCost = { requests: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
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

/** The counted requests summed per role (`policy:<node>`, `judge:<mode>`, `optimizer`). */
function counts(requests: readonly CountedRequest[]): Map<string, RequestCost> {
  const out = new Map<string, RequestCost>();
  const roles = new Set(requests.map((r) => r.role.split(':')[0]!));
  for (const kind of roles) {
    const of = requests.filter((r) => r.role.split(':')[0] === kind);
    const cached = cachedPrefixTokens(of);
    of.forEach((r, i) =>
      out.set(
        r.role,
        add(out.get(r.role) ?? ZERO, {
          requests: 1,
          inputTokens: r.inputTokens,
          outputTokens: r.outputTokens,
          cachedInputTokens: Math.min(r.inputTokens, cached[i]!),
        }),
      ),
    );
  }
  return out;
}

/** Projects the model requests and tokens of a search (see the module comment). */
export async function projectSearchCost(input: ProjectionInput): Promise<CostProjection> {
  const sample = input.splits.opt.slice(0, Math.max(1, input.sample ?? 5));
  const cfg = input.settings ?? {};
  const capped = (k: number, max: number | undefined) => (max !== undefined ? Math.min(k, max) : k);
  const judged = [
    ...input.splits.opt.slice(0, capped(input.splits.opt.length, cfg.maxOpt)),
    ...input.splits.val.slice(0, capped(input.splits.val.length, cfg.maxVal)),
    ...input.splits.test.slice(0, capped(input.splits.test.length, cfg.maxTest)),
  ];
  const { model, evaluation, tools } = await countRequests(input, sample, judged);
  const n = sample.length;
  const counted = counts(model.requests);
  const live = tools.liveCalls();
  const nodes: Record<string, RequestCost> = {};
  for (const [role, c] of counted)
    if (role.startsWith('policy:')) nodes[role.slice('policy:'.length)] = scale(c, 1 / n);
  const perQuery = input.policy === 'llm' ? Object.values(nodes).reduce(add, ZERO) : ZERO;
  const perJudged = 1 / Math.max(1, judged.length);
  const judgeOf: Record<JudgeMode, RequestCost> = {
    'per-dimension': scale(counted.get('judge:per-dimension') ?? ZERO, perJudged),
    joint: scale(counted.get('judge:joint') ?? ZERO, perJudged),
  };
  const optimizerPerIteration = scale(counted.get('optimizer') ?? ZERO, 1 / OPTIMIZER_SAMPLE);
  const judgeMode = input.judgeMode ?? DEFAULT_JUDGE_MODE;
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
  if (input.keepRequests) projection.requests = model.requests;
  return projection;
}
