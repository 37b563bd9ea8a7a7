/**
 * FlowScout: turn logs of past tool-using agent runs into reliable, reusable agent workflows.
 *
 * The root entry holds what a library user calls: load, validate and edit workflows; import records;
 * mine G0; run and compile workflows; evaluate and search; the policy, tool and model factories;
 * the error class and its codes. Subpath entries hold the rest (docs/ARCHITECTURE.md, "Public API"):
 * `flowscout/runtime` (what compiled modules import), `flowscout/testing` (the scripted policy and
 * edit-test fixtures), `flowscout/mining` (the whole inductive miner), `flowscout/bench` (the
 * experiments, baselines and statistics) and `flowscout/distributed` (workers and the queue runner on
 * Redis, so that this entry loads neither BullMQ nor ioredis). The CLI is a thin shell over the same modules.
 */

// Errors
export { FlowScoutError, isFlowScoutError, type ErrorLocation } from './errors/flowscout-error.js';
export { ERROR_CODES, type ErrorCode } from './errors/codes.js';
export { toFlowScoutError } from './errors/to-flowscout-error.js';

// Workflows: the IR, validation, preparation, edits, rendering
export {
  WorkflowSchema,
  type Workflow,
  type WorkflowNode,
  type LlmNode,
  type ToolNode,
  type Edge,
  type Guard,
} from './graph/schema.js';
export { parseWorkflow, validateWorkflow, assertValidWorkflow, type ParseResult } from './graph/validate.js';
export type { Problem } from './graph/problems.js';
export { prepareWorkflow, type PreparedWorkflow } from './graph/prepare.js';
export { workflowHash } from './graph/hash.js';
export { toMermaid } from './graph/to-mermaid.js';
export { EditPlanSchema, type EditPlan } from './graph/edits/edit-schema.js';
export { applyEditPlan, type ApplyEditPlanResult } from './graph/edits/apply-edit-plan.js';

// Records: reading, writing, splitting, importing
export { RecordSchema, type TaskRecord, type Call } from './records/schema.js';
export { readRecordsFile, writeRecordsFile } from './records/read-records.js';
export { splitRecords, type RecordSplit } from './records/split.js';
export { importTraject } from './records/import/traject.js';
export { importToolbench } from './records/import/toolbench.js';
export { writeImportFolder } from './records/import/write-import.js';
export { BUNDLED_DOMAINS, bundledTrajectPaths } from './records/bundled.js';

// Mining: event logs, the inductive miner, process trees, G0
export { readEventLog } from './mining/event-log/read-event-log.js';
export { eventLogFromRecords } from './mining/event-log/from-records.js';
export type { EventLog } from './mining/event-log/event-log.js';
export { discoverProcessTree, type DiscoverOptions } from './mining/inductive/discover.js';
export type { ProcessTree } from './mining/process-tree/schema.js';
export { formatProcessTree } from './mining/process-tree/format.js';
export { parseProcessTree } from './mining/process-tree/parse.js';
export { processTreeToWorkflow } from './mining/to-workflow.js';

// Tools
export type { ToolDescriptor, ToolSpec, ToolRegistry, ToolCallOutcome } from './contracts/tools.js';
export { defineTool } from './tools/define-tool.js';
export { createToolRegistry } from './tools/registry.js';
export { loadToolConfig } from './tools/load-tool-config.js';
export { loadFunctionTools } from './tools/function-tools.js';
export { connectMcpTools } from './tools/mcp-tools.js';
export { createReplayTools } from './tools/replay-tools.js';

// Policies: who decides at LLM and tool nodes
export type { ExecutionPolicy } from './policies/types.js';
export { createLlmPolicy } from './policies/llm-policy.js';
export { createOfflinePolicy } from './policies/offline/offline-policy.js';
export { createOraclePolicy } from './policies/oracle.js';

// Models
export { resolveModel } from './llm/resolve-model.js';
export { createLlmClient, type LlmClient } from './llm/client.js';
export { createBudget, type Budget } from './llm/budget.js';
export type { Usage } from './llm/usage.js';
export { wireModels, type ModelSettings, type WiredModels } from './wiring/wire-models.js';

// Running and compiling
export { executeWorkflow } from './runtime/execute.js';
export { compileWorkflow, type CompileOptions } from './runtime/compile.js';
export type { RunContext } from './runtime/run-state.js';
export type { Trace } from './runtime/trace.js';

// Scoring and evaluation
export { toolCallCorrectness } from './metrics/tool-call-lcs.js';
export { createLexicalJudge } from './metrics/lexical-judge.js';
export { createLlmJudge } from './metrics/llm-judge.js';
export type { Judge } from './metrics/types.js';
export { scorePredictions } from './metrics/score.js';
export { evaluateWorkflow } from './evaluate/evaluate.js';
export type { EvaluateOptions, WorkflowEvaluation, RecordEvaluation } from './evaluate/types.js';

// Search
export { runSearch, type RunSearchInput, type SearchResult } from './search/run-search.js';
export { DEFAULT_SETTINGS, type SearchSettings } from './search/search-context.js';
export { createRuleBasedOptimizer } from './search/optimizers/rule-based.js';
export { createLlmOptimizer } from './search/optimizers/llm-optimizer.js';
export type { Optimizer } from './search/optimizers/types.js';
export { writeSearchArtifacts } from './search/artifacts.js';
export { prepareSearch, type SearchConfig } from './wiring/prepare-search.js';
export { openStore, type Store } from './store/open-store.js';

// Distributed evaluation (workers and the coordinator's queue on Redis) is the `flowscout/distributed`
// subpath: importing 'flowscout' loads neither BullMQ nor ioredis.
