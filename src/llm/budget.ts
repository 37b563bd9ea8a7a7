import { FlowScoutError } from '../errors/index.js';

/**
 * Budgets stop a run cleanly (docs/DESIGN.md, "Search": budgets (calls, tokens, money, wall time) stop a run cleanly):
 * one budget object is shared by every model call of a run and checked before each request; when a
 * limit is reached the next request throws `BudgetExceededError` (code BUDGET_EXHAUSTED) naming what
 * ran out, and the caller (the search loop) stops and keeps what it has.
 *
 * Accounting rule: `maxLlmCalls` counts requests sent to a provider, retries included, and is
 * reserved atomically before sending, so it is never exceeded. Tokens and cost are charged when a
 * response arrives, so calls already in flight when the limit is reached may overshoot it slightly.
 */

export interface BudgetLimits {
  maxLlmCalls?: number;
  maxTokens?: number;
  maxCostUsd?: number;
  maxWallMs?: number;
}

export type BudgetResource = 'llmCalls' | 'tokens' | 'costUsd' | 'wallMs';

export interface BudgetSpent {
  llmCalls: number;
  tokens: number;
  costUsd: number;
  wallMs: number;
}

/** Limits on model calls, tokens, cost and wall time, checked before every model request. */
export interface Budget {
  readonly limits: Readonly<BudgetLimits>;
  /** Throws BudgetExceededError when any limit is reached. */
  check(): void;
  /** check(), then count one request against maxLlmCalls. Call right before sending. */
  reserveCall(): void;
  /** Adds the tokens and cost of a finished request. */
  charge(tokens: number, costUsd: number): void;
  spent(): BudgetSpent;
  /** The first exhausted resource, if any. */
  exhausted(): BudgetResource | undefined;
}

/** The typed error of an exhausted budget: a FlowScoutError with code BUDGET_EXHAUSTED and the resource. */
export class BudgetExceededError extends FlowScoutError {
  readonly resource: BudgetResource;
  readonly limit: number;
  readonly spentSoFar: BudgetSpent;

  constructor(resource: BudgetResource, limit: number, spent: BudgetSpent) {
    super({
      code: 'BUDGET_EXHAUSTED',
      message: `budget exhausted: ${describe(resource, limit, spent)}`,
      hint: 'The run stopped cleanly and kept what it had; raise the limit (--budget-calls, --budget-tokens, --budget-usd, --budget-minutes) to go further.',
      details: { resource, limit, spent },
    });
    this.resource = resource;
    this.limit = limit;
    this.spentSoFar = spent;
  }
}

function describe(resource: BudgetResource, limit: number, spent: BudgetSpent): string {
  switch (resource) {
    case 'llmCalls':
      return `${spent.llmCalls} of ${limit} model calls used`;
    case 'tokens':
      return `${spent.tokens} of ${limit} tokens used`;
    case 'costUsd':
      return `$${spent.costUsd.toFixed(4)} of $${limit} spent`;
    case 'wallMs':
      return `${Math.round(spent.wallMs / 1000)} s of ${Math.round(limit / 1000)} s elapsed`;
  }
}

/** Creates a budget; the wall clock starts now. Limits that are undefined are unlimited. */
export function createBudget(limits: BudgetLimits = {}, deps: { now?: () => number } = {}): Budget {
  for (const [k, v] of Object.entries(limits)) {
    if (v !== undefined && (typeof v !== 'number' || !(v >= 0))) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `budget limit ${k} must be a number ≥ 0, got ${String(v)}`,
      });
    }
  }
  const now = deps.now ?? Date.now;
  const started = now();
  let llmCalls = 0;
  let tokens = 0;
  let costUsd = 0;
  const spent = (): BudgetSpent => ({ llmCalls, tokens, costUsd, wallMs: now() - started });
  const exhausted = (): BudgetResource | undefined => {
    const s = spent();
    if (limits.maxLlmCalls !== undefined && s.llmCalls >= limits.maxLlmCalls) return 'llmCalls';
    if (limits.maxTokens !== undefined && s.tokens >= limits.maxTokens) return 'tokens';
    if (limits.maxCostUsd !== undefined && s.costUsd >= limits.maxCostUsd) return 'costUsd';
    if (limits.maxWallMs !== undefined && s.wallMs >= limits.maxWallMs) return 'wallMs';
    return undefined;
  };
  const limitOf = (r: BudgetResource): number =>
    ({ llmCalls: limits.maxLlmCalls, tokens: limits.maxTokens, costUsd: limits.maxCostUsd, wallMs: limits.maxWallMs })[
      r
    ] ?? Infinity;
  const check = () => {
    const r = exhausted();
    if (r) throw new BudgetExceededError(r, limitOf(r), spent());
  };
  return {
    limits: Object.freeze({ ...limits }),
    check,
    reserveCall() {
      check();
      llmCalls++;
    },
    charge(t, c) {
      tokens += t;
      costUsd += c;
    },
    spent,
    exhausted,
  };
}
