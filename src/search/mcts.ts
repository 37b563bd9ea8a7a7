import { annealedLambda } from './anneal.js';
import { backpropagate } from './backprop.js';
import { commitIteration, usageOf, type LoopState } from './commit.js';
import { addNodeUsage } from './node-usage.js';
import { iterationRandom } from './iteration-random.js';
import type { IterationRow, SearchContext } from './search-context.js';
import { selectPath } from './select.js';
import { BudgetStop, expandAndSimulate, type StepOutcome } from './step.js';
import type { Candidate } from './tree.js';

/**
 * The MCTS loop of Algorithm 1 (docs/DESIGN.md, "Search"). The root holds G0 with its D_opt reward and
 * feedback. Each iteration t = 1..J:
 *
 * 1. λ_t = cosine annealing from λ_max to λ_min (anneal.ts);
 * 2. **select**: descend from the root while the node already has `children` children, by
 *    Score = Q + λ_t·sqrt(ln(C_parent + 1) / (C_child + 1)) (select.ts); failed and duplicate
 *    candidates are never entered;
 * 3. **expand** the selected node with the optimizer, from its cached feedback, and
 * 4. **simulate** the child on D_opt (reward, feedback) and D_val (score) (step.ts);
 * 5. **backpropagate** the child's D_opt reward along the path root → child (backprop.ts);
 * 6. keep the best D_val candidate; stop after J iterations, or when P iterations in a row did not
 *    improve the best D_val score, or when a budget runs out.
 *
 * Randomness comes from (seed, t) only and every iteration is committed in one transaction, so a
 * run resumed from the store continues exactly as the uninterrupted run would have.
 */

/** Why a loop ended. */
export type StopKind = 'iterations' | 'patience' | 'budget' | 'interrupted';

/** How a loop ended. */
export interface LoopResult {
  stopKind: StopKind;
  stopReason: string;
}

/** Runs iterations t = iterationsDone + 1 … J of Algorithm 1 on the tree in `state`. */
export async function runMctsLoop(ctx: SearchContext, state: LoopState): Promise<LoopResult> {
  const s = ctx.settings;
  const now = ctx.now ?? Date.now;
  const started = now();
  for (let t = state.iterationsDone + 1; t <= s.iterations; t++) {
    await turnEventLoop();
    const early = stopBefore(ctx, state);
    if (early) return early;
    const lambda = annealedLambda(t, s.iterations, { lambdaMax: s.lambdaMax, lambdaMin: s.lambdaMin });
    const path = selectPath(state.tree.nodes, state.tree.root.id, {
      children: s.children,
      lambda,
      expandable: (id) => state.tree.expandable(id),
    });
    const parentId = path[path.length - 1]!;
    let outcome: StepOutcome;
    try {
      outcome = await expandAndSimulate(ctx, state.tree, parentId, t, iterationRandom(s.seed, t));
    } catch (e) {
      if (e instanceof BudgetStop) return { stopKind: 'budget', stopReason: e.reason };
      throw e;
    }
    const row = applyOutcome(ctx, state, outcome, path, t, lambda, now() - started);
    ctx.onIteration?.(row);
  }
  return { stopKind: 'iterations', stopReason: `reached ${s.iterations} iterations` };
}

/**
 * Lets timers and signal handlers run between iterations. An offline search over replayed tools can
 * run on promise callbacks alone, which would starve a Ctrl-C handler and the wall-time budget's timer.
 */
export function turnEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A reason to stop before the next iteration: a stop request, patience or an exhausted budget. */
export function stopBefore(ctx: SearchContext, state: LoopState): LoopResult | undefined {
  if (ctx.stop?.aborted)
    return { stopKind: 'interrupted', stopReason: `interrupted after iteration ${state.iterationsDone}` };
  if (state.sinceImprovement >= ctx.settings.patience) {
    return { stopKind: 'patience', stopReason: `no better validation score in ${ctx.settings.patience} iterations` };
  }
  const budget = ctx.budget;
  if (budget && (budget.exhausted() || budget.signal.aborted))
    return { stopKind: 'budget', stopReason: budget.error()?.message ?? 'budget exhausted' };
  return undefined;
}

/**
 * Adds the child to the tree, backpropagates its reward along `path` (+ the child), updates the best
 * and the patience counter, and commits the iteration. Returns the table row.
 */
export function applyOutcome(
  ctx: SearchContext,
  state: LoopState,
  outcome: StepOutcome,
  path: readonly string[],
  t: number,
  lambda: number,
  elapsedMs: number,
): IterationRow {
  const bestBefore = state.tree.best();
  const child = state.tree.add(outcome.child);
  const reward = child.optReward ?? 0;
  const fullPath = [...path, child.id];
  const updated = backpropagate(state.tree.nodes, fullPath, reward);
  const touched: Candidate[] = [];
  for (const [id, stats] of updated) {
    const c = state.tree.get(id);
    Object.assign(c, { visits: stats.visits, w: stats.w, q: stats.q });
    touched.push(c);
  }
  const best = state.tree.best();
  state.iterationsDone = t;
  state.toolCalls += outcome.toolCalls;
  state.executions += outcome.executions;
  addNodeUsage(state.nodes, outcome.nodes);
  state.sinceImprovement = best.id !== bestBefore.id ? 0 : state.sinceImprovement + 1;
  const usage = usageOf(ctx, state);
  const row: IterationRow = {
    iteration: t,
    parent: path[path.length - 1]!,
    child: child.id,
    status: outcome.status,
    summary:
      child.error && outcome.status !== 'failed'
        ? `${child.summary ?? ''} [${child.error.split('\n')[0]}]`
        : (child.summary ?? ''),
    lambda,
    ...(child.optReward !== undefined ? { optReward: child.optReward } : {}),
    ...(child.valScore !== undefined ? { valScore: child.valScore, valTc: child.valTc!, valEs: child.valEs! } : {}),
    best: best.id,
    bestVal: best.valScore ?? 0,
    llmCalls: usage.llmCalls as number,
    costUsd: usage.costUsd as number,
    toolCalls: state.toolCalls,
    elapsedMs,
  };
  commitIteration(ctx, state, outcome, touched, row);
  return row;
}
