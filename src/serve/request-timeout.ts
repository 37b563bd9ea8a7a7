import type { ErrorShape } from '../errors/index.js';
import type { Trace } from '../runtime/trace.js';
import type { ServeRunRequest, WorkflowService } from './workflow-service.js';

/**
 * The request timeout of `flowscout serve` (`--timeout`), one path for every way a run is asked
 * for (`POST /run`, the MCP tool over stdio and over Streamable HTTP): the run gets an AbortSignal
 * that fires at the timeout or when the caller cancels (a client that went away), and the caller's
 * answer does not wait for the run past the timeout: it goes out when the timer fires, whatever the
 * policy or a tool that ignores its signal is doing (the cancelled run ends in the background and
 * frees its slot of `--max-runs` then).
 */

/** The default request timeout in milliseconds (`serve --timeout`). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

/** A run that finished in time (its trace may still be an `error` trace), or one cancelled at the timeout. */
export type BoundedRun = { trace: Trace; timedOut?: undefined } | { timedOut: ErrorShape<'TIMEOUT'> };

/**
 * Runs `request` on `service` for at most `timeoutMs`. `request.signal` (the caller's own
 * cancellation) cancels the run too. Rejects as `service.run` does (a bad query, a budget, a
 * request cancelled by its caller before its run started).
 */
export async function runWithinTimeout(
  service: WorkflowService,
  request: ServeRunRequest,
  timeoutMs: number,
): Promise<BoundedRun> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  const run = service.run({ ...request, signal });
  run.catch(() => undefined);
  let trace: Trace;
  try {
    trace = await Promise.race([run, untilAborted(timeout)]);
  } catch (e) {
    if (timeout.aborted) return { timedOut: requestTimedOut(timeoutMs) };
    throw e;
  }
  // A run cancelled by the timer may resolve (with a cancelled trace) before the race sees the timer.
  if (timeout.aborted) return { timedOut: requestTimedOut(timeoutMs) };
  return { trace };
}

/** What a caller is told about a run cancelled at the request timeout (HTTP 504; an MCP tool error). */
export function requestTimedOut(timeoutMs: number): ErrorShape<'TIMEOUT'> {
  return {
    code: 'TIMEOUT',
    message: `the run did not finish within the request timeout of ${timeoutMs} ms and was cancelled`,
    hint: 'Start serve with a larger --timeout <ms>, or make the slow tool answer sooner (--call-timeout <ms> bounds each tool call).',
  };
}

/** Rejects when `signal` aborts (never resolves). */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
