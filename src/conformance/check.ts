import type { Workflow } from '../graph/schema.js';
import type { ProcessTree } from '../mining/process-tree/schema.js';
import { alignTraces, type LogConformance } from './align-log.js';
import { variantsOfRuns, type ObservedRun } from './observed-runs.js';
import { scoreRuns, type RunScore } from './run-health.js';
import { workflowProcessTree } from './workflow-tree.js';

/** What runs aligned with a model give: the tree they were aligned with, the log's figures and each run's scores. */
export interface ConformanceResult {
  /** The process tree the runs were aligned with (a workflow's own tree, or the tree given). */
  tree: ProcessTree;
  /** PM4Py's figures: each variant's cost, fitness and deviations, `percFitTraces` and `averageFitness`. */
  log: LogConformance;
  /** Each run's fitness, health and what counted against it, in the order of `runs`. */
  runs: RunScore[];
}

/**
 * Aligns runs with a workflow or a process tree (what `flowscout conformance` prints): optimal
 * alignments with PM4Py's costs for every variant, and each run's fitness and health
 * (run-health.ts). A workflow is aligned through its own tree, in which a tool node that may call
 * any tool stands for every tool the runs call.
 */
export function checkConformance(model: Workflow | ProcessTree, runs: readonly ObservedRun[]): ConformanceResult {
  const variants = variantsOfRuns(runs);
  const tree =
    'nodes' in model
      ? workflowProcessTree(model, { anyTool: [...new Set(variants.flatMap((v) => v.activities))] })
      : model;
  return { tree, log: alignTraces(variants, tree), runs: scoreRuns(runs, tree) };
}
