/** Evaluation (docs/DESIGN.md, "Metrics" and "Search"): running a workflow over records, scoring, per-record detail, and the feedback the optimizers read. */
export { evaluateWorkflow, evaluationFromRuns, runAndScoreRecord } from './evaluate.js';
export type {
  EvaluateOptions,
  FeedbackOptions,
  RecordEvaluation,
  RecordRun,
  RecordRunner,
  RecordRunOptions,
  RecordRunRequest,
  RunnerSavings,
  WorkflowEvaluation,
} from './types.js';
export { buildFeedback } from './feedback.js';
export type * from './feedback-types.js';
export { alignCalls, predictedCallNodes, type CallAlignment } from './align-calls.js';
