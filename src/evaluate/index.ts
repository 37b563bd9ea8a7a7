/** Evaluation (docs/DESIGN.md, "Metrics" and "Search"): running a workflow over records, scoring, per-record detail, and the feedback the optimizers read. */
export { evaluateWorkflow } from './evaluate.js';
export type { EvaluateOptions, FeedbackOptions, RecordEvaluation, WorkflowEvaluation } from './types.js';
export { buildFeedback } from './feedback.js';
export type * from './feedback-types.js';
export { alignCalls, predictedCallNodes, type CallAlignment } from './align-calls.js';
