/** Metrics (docs/DESIGN.md, "Metrics"): TC, the offline lexical judge and the LLM judge, stability, scoring of predictions. */
export { ES_DIMENSIONS, type EsDimension, type Judge, type JudgeRequest, type JudgeScore } from './types.js';
export {
  PSEUDO_CALLS,
  meanTc,
  toolCallCorrectness,
  type TcOptions,
  type TcResult,
  type WrongArgs,
} from './tool-call-lcs.js';
export { clarity, createLexicalJudge, lexicalScore } from './lexical-judge.js';
export { createLlmJudge, JUDGE_MODES, type JudgeMode, type LlmJudgeOptions } from './llm-judge.js';
export { coefficientOfVariation, stability, type StabilityResult } from './stability.js';
export { PredictionSchema, readPredictionsFile, type Prediction, type ReadPredictionsResult } from './predictions.js';
export { formatEvalReport } from './format-report.js';
export {
  esCoverage,
  hasReference,
  schemasFromTools,
  scorePredictions,
  type EsDims,
  type EvalReport,
  type RecordScore,
  type ScoreOptions,
} from './score.js';
