import { createRandom } from '../../util/random.js';
import { mean, quantile } from './describe.js';

/**
 * The percentile bootstrap confidence interval of a mean (the report gives 95%
 * intervals of the mean difference, seeded). For paired data pass the per-query differences:
 * resampling whole pairs keeps the pairing. `resamples` resamples of size n are drawn with
 * replacement from a seeded generator (mulberry32), so the interval is reproducible from the seed;
 * the bounds are the (1 − level)/2 and (1 + level)/2 type-7 quantiles of the resampled means.
 */

export interface BootstrapOptions {
  seed: number | string;
  /** Resamples (default 2000). */
  resamples?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export interface BootstrapInterval {
  low: number;
  high: number;
  level: number;
  resamples: number;
}

/** The interval of mean(xs); undefined for no values. */
export function bootstrapMeanCi(xs: readonly number[], opts: BootstrapOptions): BootstrapInterval | undefined {
  if (xs.length === 0) return undefined;
  const resamples = opts.resamples ?? 2000;
  const level = opts.level ?? 0.95;
  const random = createRandom(opts.seed);
  const n = xs.length;
  const means = new Array<number>(resamples);
  for (let b = 0; b < resamples; b++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += xs[random.int(n)]!;
    means[b] = s / n;
  }
  const alpha = (1 - level) / 2;
  return { low: quantile(means, alpha), high: quantile(means, 1 - alpha), level, resamples };
}

/** Convenience for report text: the observed mean of `xs` (NaN when empty). */
export const observedMean = mean;
