import { TreeAligner } from '../../conformance/aligner.js';
import { detectDrift, DRIFT_THRESHOLDS } from '../../conformance/drift.js';
import { observedRunOfTrace, type ObservedRun } from '../../conformance/observed-runs.js';
import { readConformanceProfile } from '../../conformance/profile.js';
import { scoreRuns } from '../../conformance/run-health.js';
import { workflowProcessTree } from '../../conformance/workflow-tree.js';
import type { Workflow } from '../../graph/schema.js';
import type { Trace } from '../../runtime/trace.js';
import type { DriftFigures, RunFigures } from '../../serve/serve-metrics.js';

/** Served runs the drift verdict of `/metrics` judges: the most recent ones. */
export const DRIFT_WINDOW = 200;

/**
 * What `serve` knows of its runs' conformance (it does not align runs itself): each finished run
 * scored against the workflow's process tree (fitness, health: conformance/run-health.ts), and the
 * drift verdict over the last `DRIFT_WINDOW` runs against the workflow's profile — its own runs in
 * the search when it has them, as `flowscout drift --runs <store>` does. Tool nodes that name no
 * tools accept any of `tools`.
 */
export function servedRunMonitor(workflow: Workflow, tools: readonly string[]) {
  const aligner = new TreeAligner(workflowProcessTree(workflow, { anyTool: tools }));
  const profile = readConformanceProfile(workflow);
  const recent: ObservedRun[] = [];
  let seen = 0;
  let verdict: { at: number; figures: DriftFigures | undefined } | undefined;
  return {
    /** Scores a finished run and keeps it for the drift verdict. */
    score(trace: Trace): RunFigures | undefined {
      const run = observedRunOfTrace(trace, `run-${++seen}`);
      if (!run) return undefined;
      const [s] = scoreRuns([run], aligner);
      recent.push(run);
      if (recent.length > DRIFT_WINDOW) recent.shift();
      return { fitness: s!.fitness, health: s!.health };
    },
    /** The drift verdict over the recent runs (computed again only when runs came in); undefined before `minRuns`. */
    drift(): DriftFigures | undefined {
      if (verdict?.at === seen) return verdict.figures;
      let figures: DriftFigures | undefined;
      if (recent.length >= DRIFT_THRESHOLDS.minRuns) {
        const r = detectDrift(workflow, profile, recent, { madeByWorkflow: true });
        figures = {
          drift: r.drift,
          processChanged: r.processChanged,
          runsFailMore: r.runsFailMore,
          runs: r.measures.runs,
          averageFitness: r.measures.averageFitness,
          averageHealth: r.measures.averageHealth,
        };
      }
      verdict = { at: seen, figures };
      return figures;
    },
  };
}
