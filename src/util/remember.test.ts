import { describe, expect, it } from 'vitest';
import { remember } from './remember.js';

describe('remember', () => {
  it('computes a key once and keeps at most `size` entries, dropping the oldest', () => {
    const memo = new Map<string, number>();
    let computed = 0;
    const square = (n: number) => remember(memo, String(n), 2, () => (computed++, n * n));
    expect([square(2), square(2), square(3)]).toEqual([4, 4, 9]);
    expect(computed).toBe(2);
    square(4); // drops 2, the oldest
    expect([...memo.keys()]).toEqual(['3', '4']);
    expect(square(2)).toBe(4);
    expect(computed).toBe(4);
  });
});
