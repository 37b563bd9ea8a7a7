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
 * (`meta.conformance`), new runs are compared with a baseline of it (runs of the same process the
 * workflow was not learned from, or for runs the workflow made itself its own runs in the search);
 * without one, with fixed floors and ceilings.
 */
export interface DriftThresholds {
  /** Fewer runs than this say nothing yet: no verdict of drift. */
  minRuns: number;
  /** With a profile: the process changed when averageFitness falls by more than this below the baseline's. */
  maxFitnessDrop: number;
  /** With a profile: the process changed when the share of runs outside every route rises by more than this. */
  maxOutsideRoutesRise: number;
  /** With a profile: the process changed when the share of runs with a tool sequence the baseline never saw exceeds its own rate of unseen sequences by more than this. */
  maxUnseenVariantsRise: number;
  /** With a profile: runs fail more when failed calls per call rise by more than this. */
  maxFailedCallRise: number;
  /** With a profile that has health: runs fail more when the mean health of their calls (failed, withheld and repeated calls; the alignment left out) falls by more than this. */
  maxHealthDrop: number;
  /** Runs fail more when the share of runs whose own outcome says they failed rises by more than this over the baseline's. */
  maxFailedRunsRise: number;
  /** When the baseline's runs carry no outcome (or there is no profile): runs fail when more than this share of them failed by their own outcome. */
  maxFailedRuns: number;
  /** Without a profile: the process changed when averageFitness is below this. */
  minFitness: number;
  /** Without a profile: the process changed when more than this share of runs fits no route. */
  maxOutsideRoutes: number;
  /** Without a profile: runs fail when more than this share of calls fails. */
  maxFailedCallRate: number;
  /** Runs fail more when the share of calls withheld (an argument from nowhere, or awaiting approval) rises by more than this over the baseline's (without a profile: exceeds it). */
  maxWithheldCallRate: number;
}

export const DRIFT_THRESHOLDS: DriftThresholds = {
  minRuns: 5,
  maxFitnessDrop: 0.15,
  maxOutsideRoutesRise: 0.5,
  maxUnseenVariantsRise: 0.4,
  maxFailedCallRise: 0.15,
  maxHealthDrop: 0.15,
  maxFailedRunsRise: 0.15,
  maxFailedRuns: 0.25,
  minFitness: 0.6,
  maxOutsideRoutes: 0.9,
  maxFailedCallRate: 0.25,
  maxWithheldCallRate: 0.2,
};

export interface DriftMeasures extends RunMeasures {
  /** Share of runs whose tool sequence the profile has not seen; null without a profile. */
  unseenVariants: number | null;
}

/** Which baseline of the profile the runs were compared with. */
export type DriftBaseline = 'heldOut' | 'learning' | 'workflowRuns';

/** The drift verdict on new runs: whether the process changed or runs fail more, why, what to do next, and the measures behind it. */
export interface DriftReport {
  /** True when the process changed or runs fail more. */
  drift: boolean;
  /** The runs no longer follow the process the workflow was learned from: other tools, other orders. */
  processChanged: boolean;
  /** The runs follow it or not, but fail more: their health fell, more calls fail or are withheld. */
  runsFailMore: boolean;
  /** Why (each names the measure, its value and the threshold), or why it cannot say. */
  reasons: string[];
  /** What to run next; never learning from runs that failed. */
  next: string;
  /** What the new runs measure. */
  measures: DriftMeasures;
  /** Which runs of the profile the measures were compared with; null when the workflow has no profile. */
  comparedWith: DriftBaseline | null;
  /** Their measures. */
  baseline: Baseline | null;
  thresholds: DriftThresholds;
}

/** How `detectDrift` judges: its thresholds, what the runs are called and what they are, and which baseline they are compared with. */
export interface DriftOptions {
  thresholds?: Partial<DriftThresholds>;
  /** How to name the runs in `next` (a file or store path). */
  runsLabel?: string;
  /** What the runs are: records can be searched on as they are, agent logs once imported. */
  runsKind?: 'records' | 'agent-logs' | 'other';
  /**
   * Compare with the workflow's own runs (`workflowRuns`, when the profile has them) rather than
   * with runs of the process: for runs the workflow made (served runs, traces).
   */
  madeByWorkflow?: boolean;
}

/** The baseline runs are compared with: the workflow's own runs for runs it made, else held-out runs, else the learning runs. */
export function chooseBaseline(profile: ConformanceProfile | undefined, madeByWorkflow: boolean): DriftBaseline | null {
  if (!profile) return null;
  if (madeByWorkflow && profile.workflowRuns) return 'workflowRuns';
  return profile.heldOut ? 'heldOut' : 'learning';
}

/**
 * Compares new runs of a workflow with runs of the process it was not learned from, and says
 * whether the process changed, whether runs fail more, and what to do.
 */
export function detectDrift(
  workflow: Workflow,
  profile: ConformanceProfile | undefined,
  runs: readonly ObservedRun[],
  opts: DriftOptions = {},
): DriftReport {
  const t: DriftThresholds = { ...DRIFT_THRESHOLDS, ...opts.thresholds };
  const comparedWith = chooseBaseline(profile, Boolean(opts.madeByWorkflow));
  const base = comparedWith ? profile![comparedWith]! : undefined;
  const anyTool = [...new Set(runs.flatMap((r) => r.tools))];
  const m = measureRuns(workflowTrees(workflow, anyTool), runs);
  const known = base ? new Set(base.variants) : undefined;
  const unseen =
    known && runs.length > 0 ? runs.filter((r) => !known.has(variantHash(r.tools))).length / runs.length : null;
  const measures: DriftMeasures = { ...m, unseenVariants: unseen };
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const f = (x: number) => x.toFixed(3);
  if (runs.length < t.minRuns) {
    return {
      drift: false,
      processChanged: false,
      runsFailMore: false,
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
  const fails: string[] = [];
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
    // The health of the calls alone: a changed process lowers a run's full health by itself
    // (through the alignment), which is the process's verdict, not this one.
    if (base.averageCallHealth !== undefined) {
      const fell = base.averageCallHealth - m.averageCallHealth;
      if (fell > t.maxHealthDrop)
        fails.push(
          `the health of the runs' calls ${f(m.averageCallHealth)} is ${f(fell)} below the baseline's ${f(base.averageCallHealth)} (maxHealthDrop ${t.maxHealthDrop})`,
        );
    }
    const rise = m.failedCallRate - base.failedCallRate;
    if (rise > t.maxFailedCallRise)
      fails.push(
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
      fails.push(`${pct(m.failedCallRate)} of calls failed (maxFailedCallRate ${t.maxFailedCallRate})`);
  }
  if (m.failedRuns !== null) {
    const before = base?.failedRuns ?? null;
    if (before !== null && m.failedRuns - before > t.maxFailedRunsRise)
      fails.push(
        `${pct(m.failedRuns)} of runs failed by their own outcome, ${pct(before)} of the baseline's (maxFailedRunsRise ${t.maxFailedRunsRise})`,
      );
    else if (before === null && m.failedRuns > t.maxFailedRuns)
      fails.push(
        `${pct(m.failedRuns)} of runs failed by their own outcome (maxFailedRuns ${t.maxFailedRuns}; the baseline's runs carry no outcome)`,
      );
  }
  if (
    base
      ? m.withheldCallRate - base.withheldCallRate > t.maxWithheldCallRate
      : m.withheldCallRate > t.maxWithheldCallRate
  )
    fails.push(`${pct(m.withheldCallRate)} of calls were withheld (maxWithheldCallRate ${t.maxWithheldCallRate})`);
  return {
    drift: shape.length + fails.length > 0,
    processChanged: shape.length > 0,
    runsFailMore: fails.length > 0,
    reasons: [...shape, ...fails],
    next: nextStep(shape.length > 0, fails.length > 0, runs, opts),
    measures,
    comparedWith,
    baseline: base ?? null,
    thresholds: t,
  };
}

/**
 * What to do. A workflow is learned again only from runs that succeeded: with an outcome in the
 * runs, selected on it (`--where <field>=<value>`); without one, those with no failed call (what
 * import keeps unless `--keep-failed`). Runs none of which failed may be searched on as they are.
 * When runs only fail more, the tools come first and learning again is not proposed.
 */
function nextStep(shape: boolean, fails: boolean, runs: readonly ObservedRun[], opts: DriftOptions): string {
  const label = opts.runsLabel ?? '<the new runs>';
  const success = successCondition(runs);
  const failed = runs.filter((r) => (r.outcome ? !r.outcome.success : r.failedCalls > 0)).length;
  const select = success ? ` --where ${success}` : '';
  const by = success
    ? `their outcome (--where ${success})`
    : 'having no failed call (import leaves out runs with failed calls unless --keep-failed)';
  const learn =
    opts.runsKind === 'records' && failed === 0
      ? `flowscout search --records ${label} --tools <tool config>`
      : opts.runsKind === 'agent-logs'
        ? `flowscout import auto ${label}${select} --out new, then flowscout search --records new/records.jsonl --tools <tool config>`
        : `flowscout import auto <your agent's logs of these runs>${select} --out new, then flowscout search --records new/records.jsonl --tools <tool config>`;
  const only =
    failed > 0
      ? `only from the ${runs.length - failed} of ${runs.length} runs that succeeded, selected by ${by}: `
      : opts.runsKind === 'records'
        ? 'from them (none of them failed): '
        : `only from runs that succeeded, selected by ${by}: `;
  const check = `see which runs fail and why (flowscout conformance ${label} --against <workflow> lists each run's health) and check the tools (flowscout tools <tool config>)`;
  if (shape && fails) return `The process changed and runs fail more: ${check}; then learn again ${only}${learn}.`;
  if (shape)
    return `The process changed: the runs no longer follow what the workflow was learned from. Learn again ${only}${learn}.`;
  if (fails)
    return `The runs still follow the process, but fail more: ${check}. Learning again would not help: a workflow learned from failing runs repeats their mistakes.`;
  return 'Nothing to do: the runs follow the process the workflow was learned from. Check again as new runs come in.';
}

/** `field=value` that selects the successful runs, from the outcome the runs carry (the most common field). */
function successCondition(runs: readonly ObservedRun[]): string | undefined {
  const counts = new Map<string, number>();
  for (const r of runs) {
    if (!r.outcome?.success) continue;
    const key = `${r.outcome.field}=${String(r.outcome.value)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}
