/**
 * Descriptive statistics for the benchmark report (docs/DESIGN.md, "Metrics"): means, sample
 * standard deviations, type-7 quantiles (linear interpolation, as R's default and NumPy's `linear`)
 * and the five-number summary with Tukey whiskers that the box plot of Fig. 3 draws.
 */

/** Arithmetic mean; NaN for no values (callers decide how to show "no data"). */
export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Sample standard deviation (n − 1 in the denominator); NaN for fewer than two values. */
export function sampleSd(xs: readonly number[]): number {
  if (xs.length < 2) return Number.NaN;
  const m = mean(xs);
  let ss = 0;
  for (const x of xs) ss += (x - m) ** 2;
  return Math.sqrt(ss / (xs.length - 1));
}

/** The q-quantile (0 ≤ q ≤ 1) of `xs` by linear interpolation between order statistics (type 7). */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const h = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** What a box plot draws: quartiles, median, whiskers at the furthest points within 1.5·IQR, and the outliers beyond. */
export interface BoxSummary {
  n: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
  whiskerLow: number;
  whiskerHigh: number;
  outliers: number[];
}

/** The five-number summary with Tukey whiskers; undefined for no values. */
export function boxSummary(xs: readonly number[]): BoxSummary | undefined {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  const q1 = quantile(sorted, 0.25);
  const q3 = quantile(sorted, 0.75);
  const iqr = q3 - q1;
  const lowFence = q1 - 1.5 * iqr;
  const highFence = q3 + 1.5 * iqr;
  const inside = sorted.filter((x) => x >= lowFence && x <= highFence);
  return {
    n: sorted.length,
    min: sorted[0]!,
    q1,
    median: quantile(sorted, 0.5),
    q3,
    max: sorted[sorted.length - 1]!,
    mean: mean(sorted),
    whiskerLow: inside[0] ?? q1,
    whiskerHigh: inside[inside.length - 1] ?? q3,
    outliers: sorted.filter((x) => x < lowFence || x > highFence),
  };
}
