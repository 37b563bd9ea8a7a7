import { APICallError } from 'ai';
import type { Redis } from 'ioredis';
import { abortableSleep, createRateLimiter, type RateLimiter } from '../llm/rate-limiter.js';
import { parseRetryAfter } from '../llm/retry.js';
import { KEY_PREFIX } from './jobs.js';

/**
 * The model rate limit of one run, held across every worker (docs/ARCHITECTURE.md, "Distributed
 * evaluation"). It is the `RateLimiter` the LLM clients of a worker send through, so every model
 * request of the run passes here:
 *
 * - in this process, at most `concurrency` requests in flight (the worker's own bound);
 * - across all workers, at most `requestsPerMinute` requests started in any rolling 60 s: a sorted
 *   set in Redis of the run's request start times, trimmed and counted by one Lua script on Redis's
 *   own clock (so machines with skewed clocks agree);
 * - when a provider answers 429, the run's pause key is set for its Retry-After (default 5 s) and
 *   every worker's next request waits it out; `onRateLimited` lets the worker also hold the whole
 *   queue (BullMQ's `queue.rateLimit`), so no worker starts new jobs into the limit meanwhile.
 */

const WINDOW_MS = 60_000;

// KEYS[1] the run's start-time set; ARGV[1] limit, ARGV[2] window ms, ARGV[3] a unique member.
// Returns 0 when a start was recorded, else the ms until the oldest start leaves the window.
const TAKE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(oldest[2]) + window - now)
`;

export interface SharedLimiterOptions {
  /**
   * The run whose limits a request counts against: a run id, or a function read when a request is
   * made (a worker's limiter serves jobs of several runs; it reads the run of the job in whose
   * async context the request is made).
   */
  run: string | (() => string);
  /** Requests in flight in this process (default 4). */
  concurrency?: number;
  /** Requests started per rolling minute over all workers of the run (default unlimited). */
  requestsPerMinute?: number;
  /** Called with the pause a 429 asked for (the worker holds the queue for as long). */
  onRateLimited?: (ms: number) => void;
}

/** Creates the shared limiter (see the module comment). */
export function createSharedLimiter(redis: Redis, options: SharedLimiterOptions): RateLimiter {
  const local = createRateLimiter({ concurrency: options.concurrency ?? 4 });
  const runOf =
    typeof options.run === 'string'
      ? (
          (id: string) => () =>
            id
        )(options.run)
      : options.run;
  const keysOf = (run: string) => ({
    starts: `${KEY_PREFIX}:run:${run}:starts`,
    pause: `${KEY_PREFIX}:run:${run}:pause`,
  });
  const rpm =
    options.requestsPerMinute !== undefined && options.requestsPerMinute > 0
      ? Math.floor(options.requestsPerMinute)
      : undefined;
  let seq = 0;
  const member = () => `${process.pid}-${Date.now()}-${seq++}-${Math.random().toString(36).slice(2, 8)}`;

  const waitForTurn = async (keys: { starts: string; pause: string }, signal?: AbortSignal) => {
    for (;;) {
      const paused = await redis.pttl(keys.pause);
      if (paused > 0) {
        await abortableSleep(paused, signal);
        continue;
      }
      if (rpm === undefined) return;
      const wait = Number(await redis.eval(TAKE_SLOT, 1, keys.starts, rpm, WINDOW_MS, member()));
      if (wait === 0) return;
      await abortableSleep(wait, signal);
    }
  };

  return {
    run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      // Read now, in the caller's context (the local limiter may start `fn` from another one).
      const keys = keysOf(runOf());
      return local.run(async () => {
        await waitForTurn(keys, signal);
        try {
          return await fn();
        } catch (e) {
          const pause = rateLimitPause(e);
          if (pause !== undefined) {
            await redis.set(keys.pause, '1', 'PX', pause);
            options.onRateLimited?.(pause);
          }
          throw e;
        }
      }, signal);
    },
    pending: () => local.pending(),
  };
}

/** The pause a 429 asks for (its Retry-After, read as the model client reads it; 5 s when it says nothing), else undefined. */
export function rateLimitPause(e: unknown): number | undefined {
  if (!APICallError.isInstance(e) || e.statusCode !== 429) return undefined;
  const ms = parseRetryAfter(e.responseHeaders);
  return ms !== undefined && ms > 0 ? ms : 5_000;
}
