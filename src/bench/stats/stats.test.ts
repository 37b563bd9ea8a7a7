import { describe, expect, it } from 'vitest';
import { bootstrapMeanCi } from './bootstrap.js';
import { boxSummary, mean, quantile, sampleSd } from './describe.js';
import { cohensDPaired } from './effect-size.js';
import { holmAdjust } from './holm.js';
import { normalTwoSided } from './normal.js';
import { compareAgainstBaselines } from './paired-compare.js';
import { averageRanks, signedRankCounts, wilcoxonSignedRank } from './wilcoxon.js';

describe('Wilcoxon signed-rank', () => {
  it('exact p without ties: d = [-0.5, 2, -0.2, -0.7, 4, 3.9] gives W+ = 15, W− = 6, p = 2·14/64', () => {
    // |d| ranks: 0.2→1(−), 0.5→2(−), 0.7→3(−), 2→4(+), 3.9→5(+), 4→6(+). Subsets of {1..6} with sum ≤ 6: 14.
    const r = wilcoxonSignedRank([1, 2, 3, 4, 5, 6], [1.5, 0, 3.2, 4.7, 1, 2.1]);
    expect(r).toMatchObject({ n: 6, zeros: 0, wPlus: 15, wMinus: 6, statistic: 6, method: 'exact' });
    expect(r.p).toBeCloseTo(28 / 64, 12); // SciPy: 0.4375
  });

  it('normal approximation with ties and zeros, continuity-corrected', () => {
    // d ≠ 0: four 0.5 (avg rank 2.5), four +1 and one −1 (avg rank 7): W+ = 38, W− = 7.
    // var = 9·10·19/24 − ((4³−4) + (5³−5))/48 = 71.25 − 3.75 = 67.5; z = (|38 − 22.5| − 0.5)/√67.5.
    const x = [1, 1, 1, 0.5, 0.5, 0, 1, 1, 0.5, 1, 0, 1];
    const y = [0, 0.5, 1, 0, 0.5, 0, 0, 0.5, 0, 0, 1, 0];
    const r = wilcoxonSignedRank(x, y);
    expect(r).toMatchObject({ n: 9, zeros: 3, wPlus: 38, wMinus: 7, statistic: 7, method: 'normal' });
    expect(r.z).toBeCloseTo(15 / Math.sqrt(67.5), 10);
    expect(r.p).toBeCloseTo(0.067889, 5); // SciPy wilcoxon(..., method='approx', correction=True)
  });

  it('every pair equal: nothing to test, p = 1', () => {
    expect(wilcoxonSignedRank([0.5, 1], [0.5, 1])).toMatchObject({ n: 0, zeros: 2, p: 1, method: 'none' });
  });

  it('the sign of z follows the direction of the difference', () => {
    const lower = wilcoxonSignedRank(
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1],
      Array(26).fill(1),
    );
    expect(lower.method).toBe('normal');
    expect(lower.z!).toBeLessThan(0);
    expect(lower.p).toBeLessThan(0.001);
  });

  it('refuses unpaired samples', () => {
    expect(() => wilcoxonSignedRank([1, 2], [1])).toThrow(/equal lengths/);
  });

  it('average ranks and the exact null distribution', () => {
    expect(averageRanks([3, 1, 3, 2])).toEqual({ ranks: [3.5, 1, 3.5, 2], tieSizes: [1, 1, 2] });
    // Subsets of {1,2,3}: sums 0,1,2,3,3,4,5,6.
    expect(signedRankCounts(3)).toEqual([1, 1, 1, 2, 1, 1, 1]);
  });
});

describe('Holm correction', () => {
  it('multiplies the k-th smallest p by m − k + 1 and keeps the order monotone', () => {
    // sorted 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → raised to 0.06.
    const adj = holmAdjust([0.01, 0.04, 0.03]);
    expect(adj[0]).toBeCloseTo(0.03, 12);
    expect(adj[1]).toBeCloseTo(0.06, 12);
    expect(adj[2]).toBeCloseTo(0.06, 12);
  });
  it('caps at 1 and leaves untested entries out of m', () => {
    // m = 2: 0.2·2 = 0.4, then 0.6·1 = 0.6; and 0.55·2 = 1.1 → 1.
    const adj = holmAdjust([0.6, Number.NaN, 0.2]);
    expect(adj[0]).toBeCloseTo(0.6, 12);
    expect(adj[1]).toBeNaN();
    expect(adj[2]).toBeCloseTo(0.4, 12);
    expect(holmAdjust([0.55, 0.7])).toEqual([1, 1]);
  });
});

describe('effect size and descriptive statistics', () => {
  it("paired Cohen's d = mean / sample sd of the differences", () => {
    expect(cohensDPaired([1, 2, 3])).toBeCloseTo(2, 12);
    expect(cohensDPaired([0, 0, 0])).toBe(0);
    expect(cohensDPaired([0.5, 0.5])).toBeNaN();
    expect(cohensDPaired([1])).toBeNaN();
  });
  it('quantiles interpolate linearly (type 7) and box plots flag outliers beyond 1.5·IQR', () => {
    expect(quantile([4, 1, 3, 2], 0.25)).toBeCloseTo(1.75, 12);
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(sampleSd([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(boxSummary([1, 2, 3, 4, 100])).toMatchObject({
      q1: 2,
      median: 3,
      q3: 4,
      whiskerLow: 1,
      whiskerHigh: 4,
      outliers: [100],
    });
    expect(boxSummary([])).toBeUndefined();
  });
  it('the normal tail matches known values', () => {
    expect(normalTwoSided(1.959964)).toBeCloseTo(0.05, 6);
    expect(normalTwoSided(0)).toBe(1);
    expect(normalTwoSided(6) / 1.973e-9).toBeCloseTo(1, 2);
  });
});

describe('bootstrap interval', () => {
  it('is reproducible from the seed and changes with it', () => {
    const xs = [0.1, -0.2, 0.5, 0.3, 0, 0.4, -0.1, 0.2];
    const a = bootstrapMeanCi(xs, { seed: 7 });
    expect(bootstrapMeanCi(xs, { seed: 7 })).toEqual(a);
    expect(bootstrapMeanCi(xs, { seed: 8 })).not.toEqual(a);
    expect(a!.low).toBeLessThan(mean(xs));
    expect(a!.high).toBeGreaterThan(mean(xs));
    expect(a!.low).toBeGreaterThanOrEqual(-0.2);
    expect(a!.high).toBeLessThanOrEqual(0.5);
  });
  it('collapses to the value for constant differences and is undefined without data', () => {
    expect(bootstrapMeanCi([0.25, 0.25, 0.25], { seed: 1, resamples: 50 })).toMatchObject({
      low: 0.25,
      high: 0.25,
      resamples: 50,
    });
    expect(bootstrapMeanCi([], { seed: 1 })).toBeUndefined();
  });
});

describe('FlowScout against baselines', () => {
  it('pairs by query, corrects across baselines with Holm, and refuses mismatched query sets', () => {
    const flow = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
    const res = compareAgainstBaselines(
      flow,
      [
        { name: 'weak', scores: [0, 0, 0, 0, 0, 0, 0, 0] },
        { name: 'same', scores: flow },
      ],
      3,
    );
    expect(res[0]).toMatchObject({ baseline: 'weak', n: 8 });
    expect(res[0]!.meanDiff).toBeCloseTo(0.45, 12);
    expect(res[0]!.cohensD).toBeCloseTo(0.45 / Math.sqrt(0.06), 10);
    expect(res[0]!.wilcoxon.method).toBe('exact');
    // 8 distinct positive differences: exact p = 2 / 2^8; Holm over the 2 baselines (the other p is 1) doubles it.
    expect(res[0]!.wilcoxon.p).toBeCloseTo(2 / 256, 12);
    expect(res[0]!.pHolm).toBeCloseTo(4 / 256, 12);
    expect(res[1]).toMatchObject({ meanDiff: 0, cohensD: 0, pHolm: 1 });
    expect(() => compareAgainstBaselines(flow, [{ name: 'short', scores: [1] }], 3)).toThrow(/same queries/);
  });
});
