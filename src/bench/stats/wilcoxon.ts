import { normalTwoSided } from './normal.js';

/**
 * The Wilcoxon signed-rank test for paired samples (two-sided), the per-query significance test of
 * the benchmark (per-query paired tests between FlowScout and each baseline). Pairs are
 * the same test query under two approaches.
 *
 * - Differences d = x − y; zero differences are dropped (Wilcoxon's method, SciPy's default
 *   `zero_method='wilcox'`), n = the non-zero ones.
 * - |d| are ranked with average ranks for ties (|d| within 1e-12 count as tied); W+ and W− are the
 *   rank sums of the positive and negative differences; the statistic is T = min(W+, W−).
 * - **Exact** p-value when n ≤ 25 and no |d| are tied: 2·P(W+ ≤ T) under H0, from the exact null
 *   distribution (each of the 2^n sign assignments equally likely), capped at 1.
 * - Otherwise the **normal approximation**: mean n(n+1)/4, variance n(n+1)(2n+1)/24 − Σ(t³ − t)/48
 *   over tie groups of size t, with a continuity correction of 0.5.
 * - n = 0 (every pair equal): p = 1, nothing to test.
 */

export interface WilcoxonResult {
  /** Non-zero differences. */
  n: number;
  /** Pairs whose difference was zero (dropped). */
  zeros: number;
  wPlus: number;
  wMinus: number;
  /** T = min(W+, W−). */
  statistic: number;
  p: number;
  method: 'exact' | 'normal' | 'none';
  /** The z statistic of the normal approximation. */
  z?: number;
}

const TIE_EPS = 1e-12;
const EXACT_MAX_N = 25;

/** The two-sided Wilcoxon signed-rank test of x against y (equal lengths; pair i is (x[i], y[i])). */
export function wilcoxonSignedRank(x: readonly number[], y: readonly number[]): WilcoxonResult {
  if (x.length !== y.length) throw new RangeError(`paired samples need equal lengths (${x.length} vs ${y.length})`);
  const diffs = x.map((v, i) => v - y[i]!);
  const nonzero = diffs.filter((d) => Math.abs(d) > TIE_EPS);
  const zeros = diffs.length - nonzero.length;
  const n = nonzero.length;
  if (n === 0) return { n: 0, zeros, wPlus: 0, wMinus: 0, statistic: 0, p: 1, method: 'none' };

  const { ranks, tieSizes } = averageRanks(nonzero.map(Math.abs));
  let wPlus = 0;
  let wMinus = 0;
  nonzero.forEach((d, i) => (d > 0 ? (wPlus += ranks[i]!) : (wMinus += ranks[i]!)));
  const statistic = Math.min(wPlus, wMinus);
  const ties = tieSizes.some((t) => t > 1);

  if (n <= EXACT_MAX_N && !ties) {
    const counts = signedRankCounts(n);
    const total = 2 ** n;
    let below = 0;
    for (let w = 0; w <= Math.floor(statistic + 1e-9); w++) below += counts[w]!;
    return { n, zeros, wPlus, wMinus, statistic, p: Math.min(1, (2 * below) / total), method: 'exact' };
  }

  const mu = (n * (n + 1)) / 4;
  const tieTerm = tieSizes.reduce((s, t) => s + (t ** 3 - t), 0) / 48;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm;
  if (variance <= 0) return { n, zeros, wPlus, wMinus, statistic, p: 1, method: 'normal', z: 0 };
  const z = Math.max(0, Math.abs(wPlus - mu) - 0.5) / Math.sqrt(variance);
  return { n, zeros, wPlus, wMinus, statistic, p: normalTwoSided(z), method: 'normal', z: wPlus >= mu ? z : -z };
}

/** Average ranks (1-based) of `values`, and the sizes of the tie groups. */
export function averageRanks(values: readonly number[]): { ranks: number[]; tieSizes: number[] } {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length);
  const tieSizes: number[] = [];
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    while (end < order.length && order[end]!.v - order[start]!.v <= TIE_EPS) end++;
    const avg = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k]!.i] = avg;
    tieSizes.push(end - start);
    start = end;
  }
  return { ranks, tieSizes };
}

/** counts[w] = number of subsets of {1..n} whose sum is w (the exact null distribution of W+ times 2^n). */
export function signedRankCounts(n: number): number[] {
  const max = (n * (n + 1)) / 2;
  const counts = new Array<number>(max + 1).fill(0);
  counts[0] = 1;
  for (let k = 1; k <= n; k++) for (let w = max; w >= k; w--) counts[w]! += counts[w - k]!;
  return counts;
}
