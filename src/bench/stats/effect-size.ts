import { mean, sampleSd } from './describe.js';

/**
 * Cohen's d for paired samples (mean difference / standard deviation of the differences), also
 * called d_z: the mean of the per-query differences divided by their sample standard deviation.
 *
 * Undefined (NaN) for fewer than two pairs. When every difference is the same the standard
 * deviation is 0: d is 0 if that difference is 0, and undefined otherwise (an infinite effect is
 * not a number a table can compare; the report shows "n/a (constant difference)").
 */
export function cohensDPaired(diffs: readonly number[]): number {
  if (diffs.length < 2) return Number.NaN;
  const m = mean(diffs);
  const sd = sampleSd(diffs);
  if (sd < 1e-12) return Math.abs(m) < 1e-12 ? 0 : Number.NaN;
  return m / sd;
}
