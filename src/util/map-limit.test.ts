import { describe, expect, it } from 'vitest';
import { mapLimit } from './map-limit.js';

describe('mapLimit', () => {
  it('keeps input order and never exceeds the limit', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapLimit([30, 10, 20, 5, 15], 2, async (ms, i) => {
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, ms));
      inFlight--;
      return `${i}:${ms}`;
    });
    expect(out).toEqual(['0:30', '1:10', '2:20', '3:5', '4:15']);
    expect(peak).toBe(2);
    expect(await mapLimit([], 3, async () => 1)).toEqual([]);
  });

  it('rethrows the first failure and starts no new work after it', async () => {
    const started: number[] = [];
    const run = mapLimit([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      await new Promise((r) => setTimeout(r, 5));
      if (n === 2) throw new Error('tool 2 failed');
      return n;
    });
    await expect(run).rejects.toThrow('tool 2 failed');
    await new Promise((r) => setTimeout(r, 30));
    expect(started).toEqual([1, 2, 3]);
  });
});
