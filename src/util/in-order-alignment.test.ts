import { describe, expect, it } from 'vitest';
import { alignInOrder } from './in-order-alignment.js';

const equal = (a: string[], b: string[]) => (i: number, j: number) => (a[i] === b[j] ? 1 : undefined);

describe('alignInOrder', () => {
  it('finds the longest common subsequence, pairing as early as it can by default', () => {
    const a = ['x', 'y', 'y'];
    const b = ['x', 'y'];
    const r = alignInOrder(a.length, b.length, equal(a, b));
    expect(r.value).toBe(2);
    expect(r.pairs).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(r.steps).toEqual([
      { kind: 'pair', i: 0, j: 0 },
      { kind: 'pair', i: 1, j: 1 },
      { kind: 'row', i: 2 },
    ]);
  });

  it("with ties 'late', leaves rows unpaired first and pairs the last equal row", () => {
    const a = ['x', 'y', 'y'];
    const b = ['x', 'y'];
    const r = alignInOrder(a.length, b.length, equal(a, b), { ties: 'late' });
    expect(r.pairs).toEqual([
      [0, 0],
      [2, 1],
    ]);
  });

  it('never pairs out of order and prefers the larger summed value', () => {
    // Row 0 fits column 1 best, row 1 fits column 0 best: only one of the crossing pairs can be kept.
    const score = [
      [0.1, 0.9],
      [0.8, 0.2],
    ];
    const r = alignInOrder(2, 2, (i, j) => score[i]![j]);
    expect(r.pairs).toEqual([[0, 1]]);
    expect(r.value).toBeCloseTo(0.9);
    expect(alignInOrder(2, 2, (i, j) => (i === j ? 0.5 : score[i]![j])).value).toBeCloseTo(1);
  });

  it('lets a column marked many take several rows', () => {
    const a = ['x', 'x', 'y'];
    const b = ['x', 'y'];
    expect(alignInOrder(3, 2, equal(a, b)).pairs).toHaveLength(2);
    const r = alignInOrder(3, 2, equal(a, b), { many: (j) => j === 0 });
    expect(r.pairs).toEqual([
      [0, 0],
      [1, 0],
      [2, 1],
    ]);
    expect(r.steps.filter((s) => s.kind === 'col')).toEqual([]);
  });

  it('with morePairs, prefers more pairs among pairings of equal value', () => {
    // One pair worth 1 or two pairs worth 0.5 each.
    const score = (i: number, j: number) => (i === 0 && j === 1 ? 1 : i === j ? 0.5 : undefined);
    expect(alignInOrder(2, 2, score, { ties: 'late' }).pairs).toEqual([[0, 1]]);
    expect(alignInOrder(2, 2, score, { ties: 'late', morePairs: true }).pairs).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('lists every row and column once in its steps, and handles empty sequences', () => {
    const r = alignInOrder(2, 3, (i, j) => (i === 1 && j === 1 ? 1 : undefined));
    expect(r.steps).toEqual([
      { kind: 'row', i: 0 },
      { kind: 'col', j: 0 },
      { kind: 'pair', i: 1, j: 1 },
      { kind: 'col', j: 2 },
    ]);
    expect(alignInOrder(0, 2, () => 1)).toEqual({
      value: 0,
      pairs: [],
      steps: [
        { kind: 'col', j: 0 },
        { kind: 'col', j: 1 },
      ],
    });
  });
});
