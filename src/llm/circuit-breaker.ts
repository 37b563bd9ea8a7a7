import { FlowScoutError } from '../errors/index.js';
import type { FailureKind } from './retry.js';

/**
 * The circuit breaker of a run's model calls. A model that stopped working (a revoked key, an
 * exhausted quota, a server gone away) makes every call fail the same way; without a breaker each
 * failure becomes an error observation, every candidate scores 0 and the run ends "successfully"
 * with a table of zeros. The breaker watches the logical calls of every client of the run: when the
 * last `threshold` calls all failed with the same error (after their retries), it trips: it aborts
 * `signal` with a MODEL_UNAVAILABLE error naming that failure, and every later call throws the same
 * error without being sent. A success anywhere resets the count. Model answers that were merely
 * unusable (bad JSON) are not failures of the model's availability and are not counted.
 */
export interface CircuitBreaker {
  /** Calls in a row that must fail alike to trip (0 = never trips). */
  readonly threshold: number;
  /** Aborted with the trip error once tripped (search evaluations listen to it). */
  readonly signal: AbortSignal;
  /** Throws the trip error when tripped (called before a request is sent). */
  check(): void;
  success(): void;
  /** Records a failed call; `key` says which failure it was (same key = same failure). */
  failure(key: string, error: FlowScoutError, kind?: FailureKind): void;
  /** The trip error, once tripped. */
  tripped(): FlowScoutError | undefined;
}

/** Default threshold: enough to ride out one bad record, few enough to stop within seconds. */
export const DEFAULT_BREAKER_THRESHOLD = 8;

/**
 * A breaker that trips after `threshold` equal failures in a row (see above). `kinds` limits what
 * counts (e.g. `run` stops at the first call that got no answer at all: timeout or network).
 */
export function createCircuitBreaker(
  opts: { threshold?: number; kinds?: readonly FailureKind[] } = {},
): CircuitBreaker {
  const threshold = Math.max(0, Math.floor(opts.threshold ?? DEFAULT_BREAKER_THRESHOLD));
  const controller = new AbortController();
  let lastKey: string | undefined;
  let streak = 0;
  let trip: FlowScoutError | undefined;
  return {
    threshold,
    signal: controller.signal,
    check() {
      if (trip) throw trip;
    },
    success() {
      streak = 0;
      lastKey = undefined;
    },
    failure(key, error, kind) {
      if (trip || threshold === 0) return;
      if (opts.kinds && (kind === undefined || !opts.kinds.includes(kind))) {
        streak = 0;
        lastKey = undefined;
        return;
      }
      streak = key === lastKey ? streak + 1 : 1;
      lastKey = key;
      if (streak < threshold) return;
      trip = new FlowScoutError({
        code: 'MODEL_UNAVAILABLE',
        message:
          streak === 1
            ? `stopped: ${error.message}`
            : `stopped: the last ${streak} model calls all failed the same way — ${error.message}`,
        hint: `${error.hint ? `${error.hint} ` : ''}Nothing after the last finished step was scored. Once the model works again, continue where it stopped (a search: --resume <run>).`,
        details: { breaker: { threshold, failures: streak }, cause: error.details },
        cause: error,
      });
      controller.abort(trip);
    },
    tripped: () => trip,
  };
}
