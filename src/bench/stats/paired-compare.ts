import { bootstrapMeanCi, type BootstrapInterval } from './bootstrap.js';
import { mean } from './describe.js';
import { cohensDPaired } from './effect-size.js';
import { holmAdjust } from './holm.js';
import { wilcoxonSignedRank, type WilcoxonResult } from './wilcoxon.js';

/**
 * FlowScout against each baseline on the same test queries (significance as the
 * paper reports it): per pair of approaches and metric, the mean difference (FlowScout − baseline), its
 * seeded 95% percentile-bootstrap interval, paired Cohen's d and the two-sided Wilcoxon signed-rank
 * p-value; then Holm's correction across the baselines of one metric and domain.
 */

export interface PairedComparison {
  baseline: string;
  /** Queries compared (pairs). */
  n: number;
  meanFlowScout: number;
  meanBaseline: number;
  /** mean(FlowScout − baseline). */
  meanDiff: number;
  ci?: BootstrapInterval;
  cohensD: number;
  wilcoxon: WilcoxonResult;
  /** Holm-adjusted p over the baselines compared together. */
  pHolm: number;
}

/** One comparison (no Holm adjustment yet: `pHolm` is the raw p). */
export function comparePaired(
  baseline: string,
  flowscout: readonly number[],
  other: readonly number[],
  seed: number | string,
): PairedComparison {
  if (flowscout.length !== other.length)
    throw new RangeError(
      `'${baseline}': ${flowscout.length} FlowScout scores vs ${other.length} baseline scores; pairs need the same queries`,
    );
  const diffs = flowscout.map((v, i) => v - other[i]!);
  const wilcoxon = wilcoxonSignedRank(flowscout, other);
  const ci = bootstrapMeanCi(diffs, { seed: `${seed}:${baseline}` });
  return {
    baseline,
    n: diffs.length,
    meanFlowScout: mean(flowscout),
    meanBaseline: mean(other),
    meanDiff: mean(diffs),
    ...(ci ? { ci } : {}),
    cohensD: cohensDPaired(diffs),
    wilcoxon,
    pHolm: wilcoxon.p,
  };
}

/** FlowScout against every baseline, Holm-corrected together. Baselines without scores (e.g. TC of LLM-only) are left out. */
export function compareAgainstBaselines(
  flowscout: readonly number[],
  baselines: ReadonlyArray<{ name: string; scores: readonly number[] }>,
  seed: number | string,
): PairedComparison[] {
  const out = baselines.map((b) => comparePaired(b.name, flowscout, b.scores, seed));
  const adjusted = holmAdjust(out.map((c) => c.wilcoxon.p));
  out.forEach((c, i) => (c.pHolm = adjusted[i]!));
  return out;
}
