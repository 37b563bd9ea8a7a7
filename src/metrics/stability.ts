import { FlowScoutError } from '../errors/index.js';

/**
 * Stability (docs/DESIGN.md, "Metrics"): per query, the coefficient of variation of ES over repeated runs
 * of the same workflow; the reported figure is the mean over queries. Lower is more stable.
 */

/**
 * CV = population standard deviation / mean of `values`.
 * Defined as 0 when all values are equal (one run, or every run scoring the same, including all 0:
 * a workflow that always scores 0 is stable, if useless). When the mean is 0 but the values differ
 * (possible only with negative values, never with ES ∈ [0, 1]) the CV is Infinity.
 */
export function coefficientOfVariation(values: readonly number[]): number {
  if (values.length === 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: 'the coefficient of variation needs at least one value',
      hint: 'Run each query at least once (--repeat N, N ≥ 1).',
    });
  }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
  const std = Math.sqrt(variance);
  if (std < 1e-12) return 0;
  if (mean === 0) return Number.POSITIVE_INFINITY;
  return std / Math.abs(mean);
}

export interface StabilityResult {
  /** Mean CV over queries (0 for no queries). */
  cv: number;
  /** CV per query, in input order. */
  perQuery: number[];
}

/** Stability over queries: `runs[q]` holds the ES of each repeated run of query q. */
export function stability(runs: ReadonlyArray<readonly number[]>): StabilityResult {
  const perQuery = runs.map((r) => coefficientOfVariation(r));
  const cv = perQuery.length ? perQuery.reduce((a, b) => a + b, 0) / perQuery.length : 0;
  return { cv, perQuery };
}
