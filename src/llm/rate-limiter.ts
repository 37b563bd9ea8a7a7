import { setMaxListeners } from 'node:events';
import { FlowScoutError } from '../errors/index.js';

/**
 * One limiter per run, shared by everything that calls a model in it (policies, judge, optimizer,
 * simulator), so a search with many concurrent evaluations stays within the provider's limits
 * (docs/DESIGN.md, "Search": records are evaluated concurrently under the rate limits). Two limits: at most
 * `concurrency` calls in flight, and at most `requestsPerMinute` calls started in any 60 s window.
 */

export interface RateLimiterOptions {
  /** Calls in flight at once (default 4). */
  concurrency?: number;
  /** Calls started per rolling minute (default: unlimited). */
  requestsPerMinute?: number;
}

export interface RateLimiterDeps {
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RateLimiter {
  /** Runs `fn` when a slot is free and the per-minute window allows it. */
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Calls waiting for a slot right now, and calls in flight. */
  pending(): { waiting: number; active: number };
}

const WINDOW_MS = 60_000;

/** A sleep that wakes early (rejecting with ABORTED) when the signal fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortedError(): FlowScoutError {
  return new FlowScoutError({ code: 'ABORTED', message: 'The model call was cancelled.' });
}

/** Creates a limiter (see the file comment). */
export function createRateLimiter(options: RateLimiterOptions = {}, deps: RateLimiterDeps = {}): RateLimiter {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 4));
  const rpm =
    options.requestsPerMinute !== undefined && options.requestsPerMinute > 0
      ? Math.floor(options.requestsPerMinute)
      : undefined;
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? abortableSleep;
  const starts: number[] = [];
  const queue: Array<() => void> = [];
  let active = 0;

  const acquireSlot = (signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(abortedError());
    if (active < concurrency) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        active++;
        resolve();
      };
      const onAbort = () => {
        const i = queue.indexOf(grant);
        if (i >= 0) queue.splice(i, 1);
        reject(abortedError());
      };
      // Every request waiting here listens to the run's one signal: more than ten at once is normal.
      if (signal) setMaxListeners(0, signal);
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(grant);
    });
  };

  const release = () => {
    active--;
    const next = queue.shift();
    if (next) next();
  };

  const waitForWindow = async (signal?: AbortSignal): Promise<void> => {
    if (rpm === undefined) return;
    for (;;) {
      const t = now();
      while (starts.length > 0 && (starts[0] as number) <= t - WINDOW_MS) starts.shift();
      if (starts.length < rpm) {
        starts.push(t);
        return;
      }
      await sleep((starts[0] as number) + WINDOW_MS - t, signal);
    }
  };

  return {
    async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      await acquireSlot(signal);
      try {
        await waitForWindow(signal);
        return await fn();
      } finally {
        release();
      }
    },
    pending: () => ({ waiting: queue.length, active }),
  };
}
