import { describe, expect, it } from 'vitest';
import { coefficientOfVariation, stability } from './stability.js';

describe('coefficientOfVariation', () => {
  it('is population std / mean (hand-computed)', () => {
    // mean 0.5, deviations ±0.25, population std 0.25 → CV 0.5
    expect(coefficientOfVariation([0.25, 0.75])).toBeCloseTo(0.5, 12);
    // mean 0.6, squared deviations 0.04, 0, 0.04 → variance 0.08/3, std 0.163299… → CV 0.272166…
    expect(coefficientOfVariation([0.4, 0.6, 0.8])).toBeCloseTo(Math.sqrt(0.08 / 3) / 0.6, 12);
  });
  it('is 0 for equal runs, one run, and all-zero runs', () => {
    expect(coefficientOfVariation([0.7, 0.7, 0.7])).toBe(0);
    expect(coefficientOfVariation([0.3])).toBe(0);
    expect(coefficientOfVariation([0, 0, 0])).toBe(0);
  });
  it('is Infinity for a zero mean with spread, and refuses no runs', () => {
    expect(coefficientOfVariation([-1, 1])).toBe(Number.POSITIVE_INFINITY);
    expect(() => coefficientOfVariation([])).toThrow(/at least one value/);
  });
});

describe('stability', () => {
  it('averages the per-query CVs', () => {
    const s = stability([
      [0.25, 0.75],
      [0.5, 0.5],
    ]);
    expect(s.perQuery).toEqual([0.5, 0]);
    expect(s.cv).toBeCloseTo(0.25, 12);
    expect(stability([]).cv).toBe(0);
  });
});
