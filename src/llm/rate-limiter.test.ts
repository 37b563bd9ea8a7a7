import { describe, expect, it } from 'vitest';
import { createRateLimiter } from './rate-limiter.js';

describe('rate limiter', () => {
  it('keeps at most `concurrency` calls in flight', async () => {
    const limiter = createRateLimiter({ concurrency: 2 });
    let active = 0;
    let peak = 0;
    const job = () =>
      limiter.run(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((r) => setTimeout(r, 5));
        active--;
      });
    await Promise.all([job(), job(), job(), job(), job()]);
    expect(peak).toBe(2);
  });

  it('waits for the rolling minute when requestsPerMinute is reached', async () => {
    let t = 0;
    const waits: number[] = [];
    const limiter = createRateLimiter(
      { concurrency: 10, requestsPerMinute: 2 },
      { now: () => t, sleep: async (ms) => void (waits.push(ms), (t += ms)) },
    );
    const starts: number[] = [];
    for (let i = 0; i < 5; i++) await limiter.run(async () => void starts.push(t));
    expect(starts).toEqual([0, 0, 60_000, 60_000, 120_000]);
    expect(waits).toEqual([60_000, 60_000]);
  });

  it('lets a waiting call be cancelled', async () => {
    const limiter = createRateLimiter({ concurrency: 1 });
    let release!: () => void;
    const first = limiter.run(() => new Promise<void>((r) => (release = r)));
    const ctl = new AbortController();
    const second = limiter.run(async () => 'ran', ctl.signal);
    ctl.abort();
    await expect(second).rejects.toMatchObject({ code: 'ABORTED' });
    release();
    await first;
    expect(limiter.pending()).toEqual({ waiting: 0, active: 0 });
  });
});
