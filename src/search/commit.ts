import { totalSavings } from './memo.js';
import type { SearchContext, IterationRow } from './search-context.js';
import type { StepOutcome } from './step.js';
import type { NodeUse } from './node-usage.js';
import { toRow, type Candidate, type SearchTree } from './tree.js';
import type { TaskRecord } from '../records/schema.js';

/**
 * Persisting one iteration in one transaction, so a crash never leaves half an
 * iteration: the new
 * child, every candidate whose statistics changed, the child's per-record evaluations, the memo
 * entries learned meanwhile, the table row and the run's counters go to the store together.
 */

/** What the loops carry from one iteration to the next (all of it is stored). */
export interface LoopState {
  tree: SearchTree;
  iterationsDone: number;
  sinceImprovement: number;
  /** Tool calls and node runs done so far (the table's counters). */
  toolCalls: number;
  /** Model use per node so far. */
  nodes: Record<string, NodeUse>;
  /** Workflow executions (record runs) so far, D_test's included. */
  executions: number;
}

/** The run's counters: model requests, tokens and cost (from the shared budget), tool calls, memo savings, the workers' queue. */
export function usageOf(ctx: SearchContext, state: LoopState): Record<string, unknown> {
  const spent = ctx.budget?.budget.spent();
  return {
    llmCalls: spent?.llmCalls ?? 0,
    tokens: spent?.tokens ?? 0,
    costUsd: spent?.costUsd ?? 0,
    toolCalls: state.toolCalls,
    executions: state.executions,
    ...totalSavings(ctx.memo, ctx.runner),
    nodes: state.nodes,
    // With --redis: the workers' queue as last seen (the web UI shows it).
    ...(ctx.runner?.progressSnapshot?.() ? { queue: ctx.runner.progressSnapshot() } : {}),
  };
}

/** Writes one iteration (or the root) to the store in one transaction; drains the memo either way. */
export function commitIteration(
  ctx: SearchContext,
  state: LoopState,
  outcome: StepOutcome | undefined,
  touched: readonly Candidate[],
  row: IterationRow | undefined,
): void {
  const memo = ctx.memo?.drain() ?? [];
  if (!ctx.persist) return;
  const { store, runId } = ctx.persist;
  store.commitIteration(runId, {
    candidates: touched.map(toRow),
    evaluations: outcome?.evaluations ?? [],
    memo,
    // With the root, the records the run evaluates on (what `flowscout ui` shows beside each trace).
    ...(outcome?.child.seq === 0 ? { records: storedRecords(ctx) } : {}),
    ...(row ? { iteration: { iteration: row.iteration, data: row as unknown as Record<string, unknown> } } : {}),
    run: {
      iterationsDone: state.iterationsDone,
      sinceImprovement: state.sinceImprovement,
      bestCandidate: state.tree.best().id,
      usage: usageOf(ctx, state),
    },
  });
}

/** The records stored with the root: the splits as read when known, else what the search evaluates on. */
function storedRecords(
  ctx: SearchContext,
): Array<{ recordId: string; split: 'opt' | 'val' | 'test'; record: TaskRecord }> {
  const splits = ctx.splitsAsRead ?? { opt: ctx.opt, val: ctx.val, test: [] };
  return (['opt', 'val', 'test'] as const).flatMap((split) =>
    splits[split].map((r) => ({ recordId: r.id, split, record: r })),
  );
}
