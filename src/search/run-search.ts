import { FlowScoutError, isFlowScoutError } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import { runBeamLoop } from './beam.js';
import { commitIteration, usageOf, type LoopState } from './commit.js';
import { addNodeUsage, nodeUsageOf, type NodeUse } from './node-usage.js';
import { evaluateWorkflow } from '../evaluate/evaluate.js';
import { createSearchMemo, NO_SAVINGS, totalSavings, type MemoSavings } from './memo.js';
import { memoizeJudge } from '../metrics/judge-memo.js';
import { runMctsLoop, type StopKind } from './mcts.js';
import type { IterationRow, SearchContext } from './search-context.js';
import { BudgetStop, evaluationRows, simulateRoot, type Splits } from './step.js';
import type { EvaluationRow } from '../store/types.js';
import { SearchTree, type Candidate } from './tree.js';
import type { TaskRecord } from '../records/schema.js';
import type { ExecutionPolicy } from '../policies/types.js';
import { stratifiedOrder, stratifiedSample } from '../records/stratify.js';

/**
 * A whole search run (docs/DESIGN.md, "Search"): evaluate G0 as the root (or reload the tree
 * of a stored run and continue it), run the MCTS or beam loop, then score the best D_val candidate
 * and G0 on D_test. Everything is written to the store as it happens; the run's row is marked done
 * (or stopped, when a budget ran out) with the result.
 */

/** Everything a search needs: the splits, G0 and the context without its records. */
export interface RunSearchInput extends Omit<SearchContext, 'opt' | 'val' | 'memo'> {
  splits: Splits;
  g0: Workflow;
  /** How G0 was made (mined, plain, LLM-only), for its summary. */
  startLabel: string;
  /** Memoize node runs (default true). */
  memo?: boolean;
  /** 'none' evaluates G0 only (the NoMCTS ablation). */
  strategy?: 'mcts' | 'beam' | 'none';
  /** Called once the search loop ended, before G0 and the best candidate run on D_test (progress display). */
  onTestStart?: (records: number) => void;
  /**
   * Called after G0 is scored and whenever the best D_val candidate changes, with the search so far
   * (the CLI writes the artifacts then, so a failure later loses nothing).
   */
  onBestChanged?: (sofar: SearchResult) => void;
  /**
   * Writes the finished search's files (the CLI's `--out`). Called before the run is stored as
   * `done`, so a run is `done` only once its files are whole; when it throws (a full disk), the run
   * is stored as `failed` and `--resume` writes them again.
   */
  writeOutputs?: (result: SearchResult) => void;
}

/** R, TC and ES of one evaluation. */
export interface Scores {
  reward: number;
  tc: number;
  es: number;
}

/** What a finished (or stopped) search returns. */
export interface SearchResult {
  tree: SearchTree;
  root: Candidate;
  best: Candidate;
  stopKind: StopKind | 'none';
  stopReason: string;
  /** Every iteration's row (a resumed run includes the stored ones). */
  iterations: IterationRow[];
  /** D_test scores of the best candidate and of G0 (absent when D_test is empty or a budget ran out). */
  /** `esRecords`: test records with a reference answer (ES is scored on those; TC on all). */
  test?: { best: Scores; g0: Scores; records: number; esRecords?: number };
  testSkipped?: string;
  savings?: MemoSavings;
  usage: Record<string, unknown>;
}

/**
 * Runs (or resumes) a search; see the module comment. A search that throws (a model that stopped
 * working, a store or disk failure) is stored as `failed` with the reason, and stays resumable.
 */
export async function runSearch(input: RunSearchInput): Promise<SearchResult> {
  try {
    return await searchOnce(input);
  } catch (e) {
    if (input.persist) {
      const stopped = isFlowScoutError(e) && e.code === 'BUDGET_EXHAUSTED';
      try {
        input.persist.store.updateRun(input.persist.runId, {
          status: stopped ? 'stopped' : 'failed',
          stopReason: e instanceof Error ? e.message : String(e),
        });
      } catch {
        // The store itself failed; the error below says so.
      }
    }
    throw e;
  }
}

async function searchOnce(input: RunSearchInput): Promise<SearchResult> {
  const stored = input.persist ? input.persist.store.getRun(input.persist.runId) : undefined;
  const memo =
    input.memo === false
      ? undefined
      : createSearchMemo(
          input.persist ? input.persist.store.loadMemo(input.persist.runId) : [],
          savingsFrom(stored?.usage),
        );
  const {
    splits,
    g0: _g0,
    startLabel: _label,
    memo: _memo,
    strategy: _strategy,
    onTestStart: _onTest,
    onBestChanged: _onBest,
    writeOutputs: _write,
    ...rest
  } = input;
  // The judge's scores are memoized with the nodes: a record answered as before is not judged again.
  const judge = memo ? memoizeJudge(rest.judge, memo) : rest.judge;
  const s = rest.settings;
  // What is evaluated: at most maxOpt / maxVal / maxTest records of each split, a stratified sample;
  // with racing, D_opt in its stratified order (every prefix a stratified sample).
  const cap = (records: readonly TaskRecord[], max: number | undefined, part: string) =>
    max !== undefined ? stratifiedSample(records, max, `${s.seed}:${part}`) : records.slice();
  const optCapped = cap(splits.opt, s.maxOpt, 'opt');
  const opt = s.racing ? stratifiedOrder(optCapped, `${s.seed}:race`) : optCapped;
  const val = cap(splits.val, s.maxVal, 'val');
  const testRecords = cap(splits.test, s.maxTest, 'test');
  const tree = input.persist
    ? SearchTree.fromRows(input.persist.store.loadCandidates(input.persist.runId))
    : new SearchTree();
  // The reward per D_opt record of fully evaluated candidates (a resumed run reads the best's from the store).
  const optRewards = new Map<string, ReadonlyMap<string, number>>();
  const raceAgainst = () => {
    if (tree.size === 0) return undefined;
    const best = tree.best();
    let perRecord = optRewards.get(best.id);
    if (!perRecord && input.persist) {
      const rows = input.persist.store.loadEvaluations(input.persist.runId, best.id).filter((r) => r.split === 'opt');
      perRecord = new Map(rows.map((r) => [r.recordId, (r.tc + r.es) / 2]));
      optRewards.set(best.id, perRecord);
    }
    return perRecord && best.optReward !== undefined ? { reward: best.optReward, perRecord } : undefined;
  };
  const ctx: SearchContext = {
    ...rest,
    judge,
    opt,
    val,
    splitsAsRead: splits,
    ...(memo ? { memo } : {}),
    ...(s.racing
      ? {
          raceAgainst,
          onFullyEvaluated: (id: string, perRecord: ReadonlyMap<string, number>) => void optRewards.set(id, perRecord),
        }
      : {}),
  };
  const state: LoopState = {
    tree,
    iterationsDone: stored?.iterationsDone ?? 0,
    sinceImprovement: stored?.sinceImprovement ?? 0,
    toolCalls: Number(stored?.usage?.toolCalls ?? 0),
    executions: Number(stored?.usage?.executions ?? 0),
    nodes: { ...((stored?.usage?.nodes as Record<string, NodeUse> | undefined) ?? {}) },
  };
  const iterations: IterationRow[] = input.persist
    ? input.persist.store.loadIterations(input.persist.runId).map((r) => r.data as unknown as IterationRow)
    : [];
  let reportedBest: string | undefined;
  const reportBest = (stopReason: string) => {
    if (!input.onBestChanged || tree.size === 0 || tree.best().id === reportedBest) return;
    reportedBest = tree.best().id;
    input.onBestChanged({
      tree,
      root: tree.root,
      best: tree.best(),
      stopKind: 'none',
      stopReason,
      iterations,
      usage: usageOf(ctx, state),
    });
  };
  const onIteration = (row: IterationRow) => {
    iterations.push(row);
    input.onIteration?.(row);
    reportBest(`in progress: best after iteration ${row.iteration}`);
  };

  if (tree.size === 0) {
    let outcome;
    try {
      outcome = await simulateRoot(ctx, tree, input.g0, `G0 (${input.startLabel})`);
    } catch (e) {
      if (e instanceof BudgetStop) throw budgetBeforeRoot(e.reason);
      throw e;
    }
    tree.add(outcome.child);
    state.toolCalls += outcome.toolCalls;
    state.executions += outcome.executions;
    addNodeUsage(state.nodes, outcome.nodes);
    commitIteration(ctx, state, outcome, [outcome.child], undefined);
  }
  reportBest(`in progress: best after iteration ${state.iterationsDone}`);

  const strategy = input.strategy ?? ctx.settings.strategy;
  const loopCtx = { ...ctx, onIteration };
  const loop =
    strategy === 'none'
      ? { stopKind: 'none' as const, stopReason: 'NoMCTS: G0 only, no search' }
      : strategy === 'beam'
        ? await runBeamLoop(loopCtx, state)
        : await runMctsLoop(loopCtx, state);

  const root = tree.root;
  const best = tree.best();
  const result: SearchResult = {
    tree,
    root,
    best,
    stopKind: loop.stopKind,
    stopReason: loop.stopReason,
    iterations,
    usage: usageOf(ctx, state),
    ...(memo ? { savings: totalSavings(memo, ctx.runner)! } : {}),
  };
  const testRows: EvaluationRow[] = [];
  if (testRecords.length === 0) result.testSkipped = 'no test records (the split gives D_test no share)';
  else if (loop.stopKind === 'budget') result.testSkipped = 'the budget ran out; the test set was not run';
  else if (loop.stopKind === 'interrupted') result.testSkipped = 'the search was interrupted; the test set was not run';
  else {
    input.onTestStart?.(testRecords.length);
    // Kept per record (with traces) so the web UI opens G0's and the best candidate's test records.
    const signals = [ctx.signal, ctx.breaker?.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const opts = {
      policy: ctx.policy,
      tools: ctx.tools,
      judge: ctx.judge,
      concurrency: ctx.settings.concurrency,
      feedback: false as const,
      ...(ctx.runner ? { runner: ctx.runner } : {}),
      ...(signal ? { signal } : {}),
    };
    const scoped = memo ? { memo } : {};
    // A model that stops working here ends the run with its error, not with test scores of 0.
    const tested = async (w: Workflow) => {
      try {
        return await evaluateWorkflow(w, testRecords, { ...opts, ...scoped });
      } finally {
        const trip = ctx.breaker?.tripped();
        if (trip) throw trip;
      }
    };
    const g0Test = await tested(root.workflow!);
    const bestTest = best.id === root.id ? g0Test : await tested(best.workflow!);
    const pick = (e: typeof g0Test): Scores => ({ reward: e.reward, tc: e.tc, es: e.es });
    result.test = {
      best: pick(bestTest),
      g0: pick(g0Test),
      records: testRecords.length,
      ...(g0Test.esRecords < testRecords.length ? { esRecords: g0Test.esRecords } : {}),
    };
    testRows.push(
      ...evaluationRows(root.id, 'test', g0Test),
      ...(best.id === root.id ? [] : evaluationRows(best.id, 'test', bestTest)),
    );
    state.toolCalls += g0Test.totals.toolCalls + (best.id === root.id ? 0 : bestTest.totals.toolCalls);
    state.executions += testRecords.length * (best.id === root.id ? 1 : 2);
    addNodeUsage(state.nodes, nodeUsageOf(best.id === root.id ? [g0Test] : [g0Test, bestTest]));
    result.usage = usageOf(ctx, state);
    if (memo) result.savings = totalSavings(memo, ctx.runner)!;
  }
  input.writeOutputs?.(result);
  if (input.persist) {
    const { store, runId } = input.persist;
    store.commitIteration(runId, {
      candidates: [],
      memo: memo?.drain() ?? [],
      // A run stored before its test records were kept with the root gets them now.
      records: input.splits.test.map((r) => ({ recordId: r.id, split: 'test' as const, record: r })),
      evaluations: testRows,
      run: {
        status: loop.stopKind === 'budget' || loop.stopKind === 'interrupted' ? 'stopped' : 'done',
        stopReason: loop.stopReason,
        bestCandidate: best.id,
        usage: result.usage,
        result: {
          best: best.id,
          bestVal: { score: best.valScore, tc: best.valTc, es: best.valEs },
          g0Val: { score: root.valScore, tc: root.valTc, es: root.valEs },
          ...(result.test ? { test: result.test } : {}),
          ...(result.testSkipped ? { testSkipped: result.testSkipped } : {}),
          stopKind: loop.stopKind,
        },
      },
    });
  }
  return result;
}

function savingsFrom(usage: Record<string, unknown> | undefined): Partial<MemoSavings> {
  if (!usage) return {};
  const n = (k: string) => (typeof usage[k] === 'number' ? (usage[k] as number) : 0);
  return Object.fromEntries(Object.keys(NO_SAVINGS).map((k) => [k, n(k)])) as Partial<MemoSavings>;
}

function budgetBeforeRoot(reason: string): FlowScoutError {
  return new FlowScoutError({
    code: 'BUDGET_EXHAUSTED',
    message: `${reason} before G0 was evaluated; there is nothing to save`,
    hint: 'Raise the budget (--budget-calls, --budget-tokens, --budget-usd, --budget-minutes).',
  });
}
