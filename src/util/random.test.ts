import { describe, expect, it } from 'vitest';
import { createRandom } from './random.js';

describe('createRandom', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(createRandom('abc').next()).toBe(createRandom('abc').next());
  });

  it('int(n) stays in range and covers it', () => {
    const r = createRandom(1);
    const seen = new Set(Array.from({ length: 200 }, () => r.int(5)));
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(() => r.int(0)).toThrow(RangeError);
  });

  it('shuffle returns a permutation without changing the input', () => {
    const items = [1, 2, 3, 4, 5, 6, 7, 8];
    const shuffled = createRandom(7).shuffle(items);
    expect(items).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    expect(shuffled).not.toEqual(items);
    expect(createRandom(7).shuffle(items)).toEqual(shuffled);
  });
});
