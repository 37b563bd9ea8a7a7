import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { APICallError } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../support/redis.js';
import { openRedis } from '../../src/distributed/redis-connection.js';
import { createSharedLimiter } from '../../src/distributed/redis-limiter.js';

// Two limiters on one run stand for two workers on two machines: they share Redis, nothing else.
let redis: ReturnType<typeof openRedis>;
beforeAll(() => {
  redis = openRedis(testRedisUrl());
});
afterAll(() => redis.disconnect());

describe('the shared model rate limit (real Redis)', () => {
  it('lets 3 of 5 requests started at once by two workers through under --rpm 3; the others wait for the window', async () => {
    const run = `t-${randomBytes(3).toString('hex')}`;
    const a = createSharedLimiter(redis, { run, concurrency: 5, requestsPerMinute: 3 });
    const b = createSharedLimiter(redis, { run, concurrency: 5, requestsPerMinute: 3 });
    const stop = new AbortController();
    let started = 0;
    const call = (l: typeof a) =>
      l
        .run(async () => void started++, stop.signal)
        .then(
          () => 'done',
          (e: { code?: string }) => e.code,
        );
    const all = [call(a), call(b), call(a), call(b), call(a)];
    // Three finish; the other two cannot start before the oldest start leaves the 60 s window.
    const finished: string[] = [];
    await new Promise<void>((resolve) =>
      all.forEach(
        (p) =>
          void p.then((r) => {
            finished.push(String(r));
            if (finished.length === 3) resolve();
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(started).toBe(3);
    expect(await redis.zcard(`flowscout:run:${run}:starts`)).toBe(3);
    stop.abort();
    expect((await Promise.all(all)).sort()).toEqual(['ABORTED', 'ABORTED', 'done', 'done', 'done']);
    expect(started).toBe(3);
  });

  it("a 429 pauses every worker's requests of the run for its Retry-After and tells the worker (to hold the queue)", async () => {
    const run = `t-${randomBytes(3).toString('hex')}`;
    const held: number[] = [];
    const a = createSharedLimiter(redis, { run, onRateLimited: (ms) => held.push(ms) });
    const tooMany = new APICallError({
      message: 'Too Many Requests',
      url: 'http://x',
      requestBodyValues: {},
      statusCode: 429,
      responseHeaders: { 'retry-after-ms': '20000' },
      isRetryable: true,
    });
    await expect(a.run(async () => Promise.reject(tooMany))).rejects.toBe(tooMany);
    expect(held).toEqual([20000]);
    const pttl = await redis.pttl(`flowscout:run:${run}:pause`);
    expect(pttl).toBeGreaterThan(10_000);
    // The other worker waits instead of sending into the limit.
    const b = createSharedLimiter(redis, { run });
    const stop = new AbortController();
    let sent = false;
    const waiting = b.run(async () => void (sent = true), stop.signal).catch((e: { code?: string }) => e.code);
    await new Promise((r) => setTimeout(r, 300));
    stop.abort();
    expect(await waiting).toBe('ABORTED');
    expect(sent).toBe(false);
  });

  it("one worker's limiter serving jobs of two runs counts each request against the run of its job", async () => {
    const runA = `t-${randomBytes(3).toString('hex')}`;
    const runB = `t-${randomBytes(3).toString('hex')}`;
    const job = new AsyncLocalStorage<string>();
    const l = createSharedLimiter(redis, { run: () => job.getStore()!, concurrency: 4, requestsPerMinute: 1 });
    const stop = new AbortController();
    const sent: string[] = [];
    const call = (run: string) =>
      job
        .run(run, () => l.run(async () => void sent.push(run), stop.signal))
        .then(
          () => 'done',
          (e: { code?: string }) => e.code,
        );
    // Each run has its own minute: the first request of each goes through at once.
    expect(await call(runA)).toBe('done');
    expect(await call(runB)).toBe('done');
    // A second request of run A waits for A's window, whatever run B does.
    const second = call(runA);
    await new Promise((r) => setTimeout(r, 300));
    stop.abort();
    expect(await second).toBe('ABORTED');
    expect(sent).toEqual([runA, runB]);
    expect(await redis.zcard(`flowscout:run:${runA}:starts`)).toBe(1);
    expect(await redis.zcard(`flowscout:run:${runB}:starts`)).toBe(1);
  });
});
