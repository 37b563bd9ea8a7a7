import type { Workflow } from '../../graph/schema.js';
import type { CandidateRow, EvaluationRow, RunRow, Store } from '../../store/index.js';
import { FlowScoutError } from '../../errors/index.js';
import { displayStatus, type ShownRunStatus } from '../../store/run-lock.js';
import { alignCalls, type RefCall, type TcDetail } from './aligned-calls.js';
import { argumentSources, type AlignedPairs } from '../../dataflow/argument-sources.js';
import { diffWorkflows, type WorkflowDiff } from './workflow-diff.js';

export { alignCalls, type AlignedCall } from './aligned-calls.js';

/**
 * What `flowscout ui` shows, read from the store: plain JSON views over runs, candidates and the
 * per-record traces the search stored. Nothing here calls a model or a tool, and nothing writes.
 * Every string goes to the page as text (the app never renders HTML from data).
 */

/** The status a person sees: the store's own words, and `interrupted` for a run marked running whose process is gone (store/run-lock.ts). */
export type ShownStatus = ShownRunStatus;

export interface RunSummary {
  id: string;
  status: ShownStatus;
  stopReason?: string;
  data?: string;
  policy: string;
  judge: string;
  optimizer: string;
  offline: boolean;
  strategy: string;
  seed: number;
  bestCandidate?: string;
  bestVal?: number;
  g0Val?: number;
  iterations: number;
  maxIterations?: number;
  llmCalls: number;
  tokens: number;
  costUsd: number;
  toolCalls: number;
  createdAt: string;
  updatedAt: string;
  durationMs: number;
  /** The command that continues an unfinished run. */
  resume?: string;
  owner?: { pid: number; host: string };
  /** A run on `flowscout worker`s (`search --redis`): the queue as of the last stored iteration. */
  queue?: { waiting: number; active: number; done: number; failed: number; workers: number };
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** The status a person sees, as the CLI shows it (`displayStatus`: whether a `running` run's process is alive is the store's one rule). */
export function shownStatus(store: Pick<Store, 'getLock'>, run: RunRow): ShownStatus {
  return displayStatus(store, run);
}

/** A run made without any model: its figures are offline figures. */
export function isOffline(r: RunRow): boolean {
  return [r.policyLabel, r.judgeLabel, r.optimizerLabel].every((l) => /offline/i.test(l));
}

export function runSummary(store: Pick<Store, 'getLock'>, run: RunRow, dbFlag: string | undefined): RunSummary {
  const usage = run.usage ?? {};
  const res = run.result as { bestVal?: { score?: number }; g0Val?: { score?: number } } | undefined;
  const settings = (run.config.settings ?? {}) as { iterations?: number };
  const status = shownStatus(store, run);
  const s: RunSummary = {
    id: run.id,
    status,
    policy: run.policyLabel,
    judge: run.judgeLabel,
    optimizer: run.optimizerLabel,
    offline: isOffline(run),
    strategy: run.strategy,
    seed: run.seed,
    iterations: run.iterationsDone,
    llmCalls: num(usage.llmCalls),
    tokens: num(usage.tokens),
    costUsd: num(usage.costUsd),
    toolCalls: num(usage.toolCalls),
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    durationMs: Math.max(0, Date.parse(run.updatedAt) - Date.parse(run.createdAt)),
  };
  if (run.stopReason) s.stopReason = run.stopReason;
  if (run.recordsFile) s.data = run.recordsFile;
  if (run.bestCandidate) s.bestCandidate = run.bestCandidate;
  if (res?.bestVal?.score !== undefined) s.bestVal = res.bestVal.score;
  if (res?.g0Val?.score !== undefined) s.g0Val = res.g0Val.score;
  if (typeof settings.iterations === 'number') s.maxIterations = settings.iterations;
  const q = usage.queue as Record<string, unknown> | undefined;
  if (q && typeof q === 'object')
    s.queue = {
      waiting: num(q.waiting),
      active: num(q.active),
      done: num(q.done),
      failed: num(q.failed),
      workers: num(q.workers),
    };
  if (status === 'stopped' || status === 'failed' || status === 'interrupted')
    s.resume = `flowscout search --resume ${run.id}${dbFlag ? ` --db ${dbFlag}` : ''}`;
  if (run.owner) s.owner = run.owner;
  return s;
}

/** A search-tree node as the run page draws it. */
export interface TreeNode {
  id: string;
  parent: string | null;
  seq: number;
  iteration: number;
  kind: 'ok' | 'duplicate' | 'failed' | 'invalid';
  summary: string;
  error?: string;
  duplicateOf?: string;
  optReward?: number;
  valScore?: number;
  valTc?: number;
  valEs?: number;
  visits: number;
  meanReward: number;
  best: boolean;
}

function candidateKind(c: CandidateRow): TreeNode['kind'] {
  if (c.duplicateOf) return 'duplicate';
  if (c.error) return c.workflow ? 'invalid' : 'failed';
  return 'ok';
}

function treeNode(c: CandidateRow, best: string | undefined): TreeNode {
  const n: TreeNode = {
    id: c.id,
    parent: c.parent,
    seq: c.seq,
    iteration: c.iteration,
    kind: candidateKind(c),
    summary: c.summary ?? '',
    visits: c.visits,
    meanReward: c.q,
    best: c.id === best,
  };
  for (const k of ['error', 'duplicateOf', 'optReward', 'valScore', 'valTc', 'valEs'] as const)
    if (c[k] !== undefined) (n as unknown as Record<string, unknown>)[k] = c[k];
  return n;
}

/** The run page: summary, budget, tree, per-iteration rows. */
export function runView(store: Store, id: string, dbFlag: string | undefined) {
  const run = store.getRun(id);
  const summary = runSummary(store, run, dbFlag);
  const candidates = store.loadCandidates(id);
  const best = run.bestCandidate;
  const iterations = store.loadIterations(id).map((r) => r.data);
  const budget = (run.config.budget ?? {}) as Record<string, number | undefined>;
  const res = run.result as Record<string, unknown> | undefined;
  return {
    run: summary,
    budget,
    usage: run.usage ?? {},
    result: res ?? null,
    outDir: run.outDir ?? null,
    tree: candidates.map((c) => treeNode(c, best)),
    iterations,
  };
}

function mean(xs: number[]): number | undefined {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined;
}

/**
 * Scores of one split as the CLI states them (metrics/score.ts): TC over every record, ES and its
 * dimensions only over the records with a reference answer (`judged`; a run that ended in a hand-off
 * has none, and its stored ES of 0 is no score). Without the run's records (`judged` undefined) every
 * row counts.
 */
function splitScores(rows: EvaluationRow[], judged: ReadonlySet<string> | undefined) {
  const scored = judged ? rows.filter((r) => judged.has(r.recordId)) : rows;
  const dims: Record<string, number> = {};
  const keys = new Set(scored.flatMap((r) => Object.keys(r.dims ?? {})));
  for (const k of keys) dims[k] = mean(scored.map((r) => num(r.dims[k])))!;
  const tc = mean(rows.map((r) => r.tc));
  const es = mean(scored.map((r) => r.es));
  return {
    records: rows.length,
    esRecords: scored.length,
    tc: tc ?? null,
    es: es ?? null,
    score: tc !== undefined && es !== undefined ? (tc + es) / 2 : null,
    dims,
  };
}

/** `split/recordId` → whether the record has a reference answer (the rule of metrics/score.ts `hasReference`); undefined when the run stored no records. */
function referencedRecords(store: Store, runId: string): Map<string, Set<string>> | undefined {
  const rows = store.loadRunRecords(runId);
  if (rows.length === 0) return undefined;
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    const reference = (r.record as { reference?: unknown } | null)?.reference;
    if (typeof reference !== 'string' || reference.trim() === '') continue;
    if (!out.has(r.split)) out.set(r.split, new Set());
    out.get(r.split)!.add(r.recordId);
  }
  return out;
}

/** The candidate page: workflow, parent diff, plan, scores per split, per-record rows. */
export function candidateView(store: Store, runId: string, candidateId: string) {
  const run = store.getRun(runId);
  const candidates = store.loadCandidates(runId);
  const c = candidates.find((x) => x.id === candidateId);
  if (!c) {
    throw new FlowScoutError({
      code: 'NOT_FOUND',
      message: `no candidate '${candidateId}' in run ${runId}`,
      hint: `Candidates: ${candidates.map((x) => x.id).join(', ')}`,
    });
  }
  const parent = c.parent ? candidates.find((x) => x.id === c.parent) : undefined;
  const scoredBy = c.duplicateOf ?? c.id;
  const evals = store.loadEvaluations(runId, scoredBy);
  const judged = referencedRecords(store, runId);
  const res = run.result as
    | {
        test?: {
          records: number;
          best: { tc: number; es: number; reward: number };
          g0: { tc: number; es: number; reward: number };
        };
        best?: string;
      }
    | undefined;
  let test: { records: number; tc: number; es: number; score: number } | null = null;
  if (res?.test) {
    const root = candidates.find((x) => x.parent === null);
    const pick = c.id === res.best ? res.test.best : root && c.id === root.id ? res.test.g0 : undefined;
    if (pick) test = { records: res.test.records, tc: pick.tc, es: pick.es, score: pick.reward };
  }
  const workflow = (c.workflow ?? null) as Workflow | null;
  const parentWorkflow = (parent?.workflow ?? null) as Workflow | null;
  const diff: WorkflowDiff | null = workflow && parentWorkflow ? diffWorkflows(parentWorkflow, workflow) : null;
  return {
    run: runSummary(store, run, undefined),
    candidate: { ...treeNode(c, run.bestCandidate), hash: c.hash ?? null, plan: c.plan ?? null },
    workflow,
    parentWorkflow,
    diff,
    scoredBy,
    scores: {
      opt: splitScores(
        evals.filter((e) => e.split === 'opt'),
        judged && (judged.get('opt') ?? new Set()),
      ),
      val: splitScores(
        evals.filter((e) => e.split === 'val'),
        judged && (judged.get('val') ?? new Set()),
      ),
      test,
    },
    records: evals.map((e) => ({
      split: e.split,
      recordId: e.recordId,
      tc: e.tc,
      es: e.es,
      dims: e.dims,
      error: e.error ?? null,
      calls: e.calls.length,
    })),
  };
}

/** The record page: query, reference and produced answers, aligned calls, node observations. */
export function recordView(store: Store, runId: string, candidateId: string, split: string, recordId: string) {
  const run = store.getRun(runId);
  const candidates = store.loadCandidates(runId);
  const c = candidates.find((x) => x.id === candidateId);
  if (!c)
    throw new FlowScoutError({
      code: 'NOT_FOUND',
      message: `no candidate '${candidateId}' in run ${runId}`,
      hint: 'Open the run page to see its candidates.',
    });
  const scoredBy = c.duplicateOf ?? c.id;
  const ev = store.loadEvaluations(runId, scoredBy).find((e) => e.split === split && e.recordId === recordId);
  if (!ev)
    throw new FlowScoutError({
      code: 'NOT_FOUND',
      message: `candidate ${candidateId} of run ${runId} has no result for record '${recordId}' on ${split}`,
      hint: 'Open the candidate page to see the records it was evaluated on.',
    });
  const stored = store.loadRunRecords(runId).find((r) => r.recordId === recordId)?.record as
    { query?: string; reference?: string; calls?: RefCall[] } | undefined;
  const trace = store.loadRecordTrace(runId, scoredBy, split, recordId) as
    | {
        status?: string;
        error?: string;
        observations?: unknown[];
        totals?: Record<string, number>;
        detail?: TcDetail & { tc?: number; k?: number; kHat?: number };
        rationale?: string;
        judgeError?: string;
      }
    | undefined;
  const produced = ev.calls as Array<{ tool: string; args: Record<string, unknown>; status?: string }>;
  const reference = stored?.calls ?? [];
  return {
    candidateId,
    scoredBy,
    split,
    recordId,
    /** The run made no model request: its scores are offline figures (the page says so beside them). */
    offline: isOffline(run),
    query: stored?.query ?? null,
    reference: stored?.reference ?? null,
    answer: ev.answer,
    tc: ev.tc,
    es: ev.es,
    dims: ev.dims,
    error: ev.error ?? null,
    referenceCalls: reference.map((r) => ({ tool: r.tool, args: r.args })),
    producedCalls: produced,
    alignment: trace?.detail && stored ? alignCalls(reference, produced, trace.detail) : null,
    /** Where the reference arguments' values stand, and how many the run called and passed right. */
    argumentSources:
      trace?.detail && stored?.query !== undefined
        ? argumentSources({ query: stored.query, calls: reference }, produced, {
            matched: [],
            wrongArgs: [],
            reordered: [],
            ...(trace.detail as Partial<AlignedPairs>),
          })
        : null,
    tcCounts: trace?.detail
      ? {
          lcs: (trace.detail as { lcs?: number }).lcs ?? null,
          k: trace.detail.k ?? null,
          kHat: trace.detail.kHat ?? null,
        }
      : null,
    trace: trace
      ? {
          status: trace.status ?? null,
          error: trace.error ?? null,
          observations: trace.observations ?? [],
          totals: trace.totals ?? null,
          rationale: trace.rationale ?? null,
          judgeError: trace.judgeError ?? null,
        }
      : null,
  };
}
