import type { Workflow } from '../graph/schema.js';
import type { ObservedRun } from './observed-runs.js';
import {
  measureRuns,
  variantHash,
  workflowTrees,
  type Baseline,
  type ConformanceProfile,
  type RunMeasures,
} from './profile.js';

/**
 * The thresholds of `drift`, in one place (docs/guides/conformance.md, "Thresholds"). With a profile
 * (`meta.conformance`), new runs are compared with a baseline of it (the runs the workflow was
 * learned from, or for runs the workflow made itself its own runs in the search); without one, with
 * fixed floors and ceilings.
 */
export interface DriftThresholds {
  /** Fewer runs than this say nothing yet: no verdict of drift. */
  minRuns: number;
  /** With a profile: drift when averageFitness falls by more than this below the baseline's. */
  maxFitnessDrop: number;
  /** With a profile: drift when the share of runs outside every route rises by more than this. */
  maxOutsideRoutesRise: number;
  /** With a profile: drift when the share of runs with a tool sequence the baseline never saw exceeds its own rate of one-off sequences by more than this. */
  maxUnseenVariantsRise: number;
  /** With a profile: drift when failed calls per call rise by more than this. */
  maxFailedCallRise: number;
  /** Without a profile: drift when averageFitness is below this. */
  minFitness: number;
  /** Without a profile: drift when more than this share of runs fits no route. */
  maxOutsideRoutes: number;
  /** Without a profile: drift when more than this share of calls fails. */
  maxFailedCallRate: number;
  /** Drift when the share of calls withheld (an argument from nowhere, or awaiting approval) rises by more than this over the baseline's (without a profile: exceeds it). */
  maxWithheldCallRate: number;
}

export const DRIFT_THRESHOLDS: DriftThresholds = {
  minRuns: 5,
  maxFitnessDrop: 0.15,
  maxOutsideRoutesRise: 0.5,
  maxUnseenVariantsRise: 0.4,
  maxFailedCallRise: 0.15,
  minFitness: 0.6,
  maxOutsideRoutes: 0.9,
  maxFailedCallRate: 0.25,
  maxWithheldCallRate: 0.2,
};

export interface DriftMeasures extends RunMeasures {
  /** Share of runs whose tool sequence the profile has not seen; null without a profile. */
  unseenVariants: number | null;
}

export interface DriftReport {
  drift: boolean;
  /** Why it drifted (each names the measure, its value and the threshold), or why it cannot say. */
  reasons: string[];
  /** What to run next. */
  next: string;
  /** What the new runs measure. */
  measures: DriftMeasures;
  /** Which runs of the profile the measures were compared with; null when the workflow has no profile. */
  comparedWith: 'learning' | 'workflowRuns' | null;
  /** Their measures. */
  baseline: Baseline | null;
  thresholds: DriftThresholds;
}

export interface DriftOptions {
  thresholds?: Partial<DriftThresholds>;
  /** How to name the runs in `next` (a file or store path). */
  runsLabel?: string;
  /** What the runs are: records can be searched on as they are, agent logs once imported. */
  runsKind?: 'records' | 'agent-logs' | 'other';
  /**
   * Compare with the workflow's own runs (`workflowRuns`, when the profile has them) rather than
   * with the runs it was learned from: for runs the workflow made (served runs, traces).
   */
  madeByWorkflow?: boolean;
}

/** Compares new runs of a workflow with what it was learned from, and says whether it drifted. */
export function detectDrift(
  workflow: Workflow,
  profile: ConformanceProfile | undefined,
  runs: readonly ObservedRun[],
  opts: DriftOptions = {},
): DriftReport {
  const t: DriftThresholds = { ...DRIFT_THRESHOLDS, ...opts.thresholds };
  const comparedWith = !profile ? null : opts.madeByWorkflow && profile.workflowRuns ? 'workflowRuns' : 'learning';
  const base = comparedWith ? profile![comparedWith]! : undefined;
  const anyTool = [...new Set(runs.flatMap((r) => r.tools))];
  const m = measureRuns(workflowTrees(workflow, anyTool), runs);
  const known = base ? new Set(base.variants) : undefined;
  const unseen =
    known && runs.length > 0 ? runs.filter((r) => !known.has(variantHash(r.tools))).length / runs.length : null;
  const measures: DriftMeasures = { ...m, unseenVariants: unseen };
  const reasons: string[] = [];
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const f = (x: number) => x.toFixed(3);
  if (runs.length < t.minRuns) {
    return {
      drift: false,
      reasons: [
        `only ${runs.length} run${runs.length === 1 ? '' : 's'}: at least ${t.minRuns} (minRuns) are needed to judge`,
      ],
      next: `Collect at least ${t.minRuns} runs, then run drift again.`,
      measures,
      comparedWith,
      baseline: base ?? null,
      thresholds: t,
    };
  }
  const shape: string[] = [];
  const calls: string[] = [];
  if (base) {
    const drop = base.averageFitness - m.averageFitness;
    if (drop > t.maxFitnessDrop)
      shape.push(
        `averageFitness ${f(m.averageFitness)} is ${f(drop)} below the baseline's ${f(base.averageFitness)} (maxFitnessDrop ${t.maxFitnessDrop})`,
      );
    if (m.outsideRoutes !== null && base.outsideRoutes !== null) {
      const rise = m.outsideRoutes - base.outsideRoutes;
      if (rise > t.maxOutsideRoutesRise)
        shape.push(
          `${pct(m.outsideRoutes)} of runs fit no route, ${pct(base.outsideRoutes)} of the baseline's runs did (maxOutsideRoutesRise ${t.maxOutsideRoutesRise})`,
        );
    }
    if (unseen !== null && unseen - base.unseenVariantRate > t.maxUnseenVariantsRise)
      shape.push(
        `${pct(unseen)} of runs made a tool sequence never seen; ${pct(base.unseenVariantRate)} were expected from the baseline (maxUnseenVariantsRise ${t.maxUnseenVariantsRise})`,
      );
    const rise = m.failedCallRate - base.failedCallRate;
    if (rise > t.maxFailedCallRise)
      calls.push(
        `${pct(m.failedCallRate)} of calls failed, ${pct(base.failedCallRate)} in the baseline (maxFailedCallRise ${t.maxFailedCallRise})`,
      );
  } else {
    if (m.averageFitness < t.minFitness)
      shape.push(
        `averageFitness ${f(m.averageFitness)} is below ${t.minFitness} (minFitness; the workflow has no profile)`,
      );
    if (m.outsideRoutes !== null && m.outsideRoutes > t.maxOutsideRoutes)
      shape.push(`${pct(m.outsideRoutes)} of runs fit no route (maxOutsideRoutes ${t.maxOutsideRoutes})`);
    if (m.failedCallRate > t.maxFailedCallRate)
      calls.push(`${pct(m.failedCallRate)} of calls failed (maxFailedCallRate ${t.maxFailedCallRate})`);
  }
  if (
    base
      ? m.withheldCallRate - base.withheldCallRate > t.maxWithheldCallRate
      : m.withheldCallRate > t.maxWithheldCallRate
  )
    calls.push(`${pct(m.withheldCallRate)} of calls were withheld (maxWithheldCallRate ${t.maxWithheldCallRate})`);
  reasons.push(...shape, ...calls);
  return {
    drift: reasons.length > 0,
    reasons,
    next: nextStep(shape.length > 0, calls.length > 0, opts),
    measures,
    comparedWith,
    baseline: base ?? null,
    thresholds: t,
  };
}

function nextStep(shape: boolean, calls: boolean, opts: DriftOptions): string {
  const runs = opts.runsLabel ?? '<the new runs>';
  const search =
    opts.runsKind === 'records'
      ? `flowscout search --records ${runs} --tools <tool config>`
      : opts.runsKind === 'agent-logs'
        ? `flowscout import auto ${runs} --out new, then flowscout search --records new/records.jsonl --tools <tool config>`
        : "import your agent's logs of these requests (flowscout import auto <logs> --out new), then flowscout search --records new/records.jsonl --tools <tool config>";
  if (shape) return `The runs no longer follow what the workflow was learned from: search again on them: ${search}.`;
  if (calls) {
    return `The runs follow the workflow but more of their calls fail or are withheld: check the tools (flowscout tools <tool config>); if the tools changed, search again on recent runs: ${search}.`;
  }
  return 'Nothing to do: the runs follow what the workflow was learned from. Check again as new runs come in.';
}
