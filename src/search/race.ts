/**
 * Racing candidates (docs/DESIGN.md, "Search", beyond the paper): a new candidate runs on D_opt in
 * rounds — first a stratified sample (the search orders D_opt by `records/stratify.ts`, so every
 * prefix holds the groups and tool-set families in proportion), then twice as many records each
 * round — and is compared, record by record, with the best candidate so far on the same records.
 * After each round it stops if even the optimistic end of a one-sided 95 % confidence interval of
 * its mean reward difference is not above zero (it cannot still beat the best); a candidate that
 * survives every round of D_opt runs on all of D_val.
 *
 * The interval is the paired mean d̄ ± z·s/√n with the finite-population correction √((N−n)/(N−1))
 * (the n records are drawn from D_opt's N without replacement, so after the last round the mean is
 * exact and the rule reads d̄ > 0). A stopped candidate keeps, as its D_opt reward for MCTS, the
 * paired estimate R_best + d̄, and no D_val score (it cannot become the best).
 */

/** One-sided 95 % normal quantile. */
export const RACE_Z = 1.645;
/** Records in the first round, at least (or all of D_opt when it is smaller). */
export const RACE_MIN_RECORDS = 8;
/** The first round's share of D_opt. */
export const RACE_FIRST_SHARE = 1 / 4;

/** The D_opt prefix lengths of the rounds: ⌈N/4⌉ (at least RACE_MIN_RECORDS), doubling, ending at N. */
export function raceRounds(n: number): number[] {
  if (n <= 0) return [0];
  const out: number[] = [];
  let k = Math.min(n, Math.max(RACE_MIN_RECORDS, Math.ceil(n * RACE_FIRST_SHARE)));
  while (k < n) {
    out.push(k);
    k *= 2;
  }
  out.push(n);
  return out;
}

/** The paired comparison after a round. */
export interface RaceCheck {
  /** Records compared. */
  n: number;
  /** Mean of candidate − best over them. */
  meanDiff: number;
  /** The optimistic end of the interval. */
  upper: number;
  /** False when the candidate cannot still beat the best (stop). */
  goOn: boolean;
}

/** Decides after a round from the per-record differences (candidate − best) on the first n of N records. */
export function raceCheck(diffs: readonly number[], total: number): RaceCheck {
  const n = diffs.length;
  const mean = n ? diffs.reduce((a, b) => a + b, 0) / n : 0;
  const variance = n > 1 ? diffs.reduce((a, d) => a + (d - mean) ** 2, 0) / (n - 1) : 0;
  const fpc = total > 1 ? Math.sqrt(Math.max(0, total - n) / (total - 1)) : 0;
  const upper = mean + RACE_Z * Math.sqrt(variance / Math.max(1, n)) * fpc;
  return { n, meanDiff: mean, upper, goOn: upper > 1e-9 };
}
