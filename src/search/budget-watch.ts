import {
  BudgetExceededError,
  createBudget,
  type Budget,
  type BudgetLimits,
  type BudgetResource,
} from '../llm/budget.js';

/**
 * The search's view of its budgets (LLM calls, tokens, money, wall time; on
 * exhaustion the run stops cleanly with the best candidate saved). It wraps the `llm/` budget that
 * every model client of the run shares and adds what the search needs to stop cleanly:
 *
 * - `refusals()` counts requests the budget refused. The runtime rejects a run on a refusal, but the
 *   judge records a failed request as an unscored answer and goes on (metrics/score.ts), so an
 *   evaluation during which any request was refused is incomplete: the search discards it instead
 *   of scoring a candidate on broken runs.
 * - `signal` aborts in-flight evaluations when the wall-time limit is reached (offline runs make no
 *   model calls, so nothing else would notice the clock).
 */
export interface BudgetWatch {
  /** Give this to every LLM client of the run. */
  readonly budget: Budget;
  readonly limits: Readonly<BudgetLimits>;
  refusals(): number;
  /** The first exhausted resource, if any. */
  exhausted(): BudgetResource | undefined;
  /** The error describing the exhausted resource (for the stop message). */
  error(): BudgetExceededError | undefined;
  /** Aborted when the wall-time limit passes. */
  readonly signal: AbortSignal;
  dispose(): void;
}

/** `deps.now` replaces the clock; `deps.timer: false` leaves the wall limit to `exhausted()` checks (tests with a fake clock). */
export function createBudgetWatch(
  limits: BudgetLimits = {},
  deps: { now?: () => number; timer?: boolean } = {},
): BudgetWatch {
  const inner = createBudget(limits, deps.now ? { now: deps.now } : {});
  let refused = 0;
  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof BudgetExceededError) refused++;
      throw e;
    }
  };
  const budget: Budget = {
    limits: inner.limits,
    check: () => guard(() => inner.check()),
    reserveCall: () => guard(() => inner.reserveCall()),
    charge: (t, c) => inner.charge(t, c),
    spent: () => inner.spent(),
    exhausted: () => inner.exhausted(),
  };
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const errorNow = (): BudgetExceededError | undefined => {
    try {
      inner.check();
      return undefined;
    } catch (e) {
      return e as BudgetExceededError;
    }
  };
  if (limits.maxWallMs !== undefined && deps.timer !== false) {
    timer = setTimeout(
      () => controller.abort(errorNow() ?? new BudgetExceededError('wallMs', limits.maxWallMs!, inner.spent())),
      Math.max(0, limits.maxWallMs),
    );
    timer.unref();
  }
  return {
    budget,
    limits: inner.limits,
    refusals: () => refused,
    exhausted: () => inner.exhausted(),
    error: errorNow,
    signal: controller.signal,
    dispose: () => clearTimeout(timer),
  };
}
