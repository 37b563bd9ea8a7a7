/**
 * Conformance and drift (docs/guides/conformance.md): optimal alignments of runs against a process
 * tree or a workflow's own tree with PM4Py's costs and figures, the conformance profile a workflow
 * carries in `meta.conformance`, and the drift verdict on new runs.
 */
export { checkConformance, type ConformanceResult } from './check.js';
export { TreeAligner, type AlignmentMove, type TraceAlignment } from './aligner.js';
export {
  alignEventLog,
  alignTraces,
  deviationsOf,
  traceFitness,
  type CountedTrace,
  type Deviation,
  type LogConformance,
  type VariantConformance,
} from './align-log.js';
export { workflowProcessTree, workflowRoutes, type WorkflowTreeOptions } from './workflow-tree.js';
export { observedRunOfRecord, observedRunOfTrace, variantsOfRuns, type ObservedRun } from './observed-runs.js';
export { scoreRuns, separation, type RunScore, type Separation } from './run-health.js';
export {
  ConformanceProfileSchema,
  conformanceProfile,
  measureRuns,
  readConformanceProfile,
  variantHash,
  withConformanceProfile,
  type Baseline,
  type ConformanceProfile,
  type RunMeasures,
} from './profile.js';
export {
  DRIFT_THRESHOLDS,
  detectDrift,
  type DriftMeasures,
  type DriftOptions,
  type DriftReport,
  type DriftThresholds,
} from './drift.js';
