import { isFlowScoutError, type FlowScoutError } from '../errors/index.js';
import type { Usage } from '../llm/usage.js';
import type { CallObservation } from './trace.js';

/** What running one node produced, before the run adds identity and timing (→ NodeObservation). */
export interface NodeStepResult {
  status: 'ok' | 'error';
  output?: unknown;
  error?: string;
  attempts: number;
  model?: string;
  usage?: Usage;
  calls?: CallObservation[];
}

/** The message of anything thrown, for error observations (the one the tool registry uses too). */
export { errorMessage } from '../errors/index.js';

/**
 * True for an error that stops the whole run: an exhausted budget (code BUDGET_EXHAUSTED, e.g.
 * `BudgetExceededError`) or a model that stopped working (MODEL_UNAVAILABLE, the circuit breaker of
 * `llm/circuit-breaker.ts`). Node steps let it through instead of recording it, and the run stops
 * (run-state.ts, `startRun`): every later request would be refused too.
 */
export function isBudgetExhausted(e: unknown): e is FlowScoutError {
  return isFlowScoutError(e) && (e.code === 'BUDGET_EXHAUSTED' || e.code === 'MODEL_UNAVAILABLE');
}
