/** Records (q, r, π): schema, canonical arguments, readers, importers, splits. */
export { CallSchema, RecordSchema, type Call, type CallKey, type TaskRecord } from './schema.js';
export { canonicalArgs, canonicalCallKey, stableStringify, type ParamSchema } from '../contracts/canonical-args.js';
export { readRecordsFile, writeRecordsFile, type ReadRecordsOptions, type ReadRecordsResult } from './read-records.js';
export { formatLineProblem, type LineProblem } from './issue-text.js';
export { readJsonlFile, type ReadJsonlOptions, type ReadJsonlResult } from './read-jsonl.js';
export {
  BUNDLED_DOMAINS,
  bundledTrajectPaths,
  packageRoot,
  type BundledDomain,
  type BundledTrajectPaths,
} from './bundled.js';
export {
  importTraject,
  DROP_FAILED_CALL,
  DROP_UNKNOWN_API,
  type ImportTrajectOptions,
  type ImportTrajectResult,
  type TrajectCounts,
} from './import/traject.js';
export {
  changeName,
  findNameCollisions,
  matchFunctionName,
  standardize,
  standardizeParamName,
  toolbenchFunctionName,
  type ApiRef,
  type NameCollision,
} from './import/toolbench-names.js';
export { toolbenchParamsToSchema, type ToolbenchParam } from './import/toolbench-params.js';
export { writeImportFolder } from './import/write-import.js';
export {
  DEFAULT_SPLIT_RATIO,
  parseSplitRatio,
  splitRecords,
  type RecordSplit,
  type SplitOptions,
  type SplitRatio,
} from './split.js';
export {
  importToolbench,
  queryIdOf,
  TOOLBENCH_DROP,
  type ImportToolbenchResult,
  type ToolbenchCounts,
} from './import/toolbench.js';
export {
  UNPARSED_ARGUMENTS_KEY,
  parseArguments,
  parseObservation,
  parseFinalAnswer,
} from './import/toolbench-observation.js';
export {
  AGENT_LOG_FORMATS,
  detectFormat,
  importAgentLogs,
  type AgentLogFormat,
  type AgentLogImport,
  type DetectedFormat,
} from './import/agent-logs.js';
export {
  DROP_FAILED,
  DROP_MISSING_TOOL,
  importConversations,
  type ConversationFormat,
  type ConversationImportOptions,
  type ConversationImportResult,
} from './import/conversation.js';
export { formatConversationCounts, type ConversationCounts } from './import/conversation-counts.js';
export { splitWarning, SMALL_SPLIT_PART } from './split.js';
export { stratifiedOrder, stratifiedSample, stratumOf } from './stratify.js';
