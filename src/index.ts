/**
 * FlowScout: turn logs of past tool-using agent runs into reliable, reusable agent workflows.
 *
 * The root entry holds the verbs a library user calls, one or a few values each, and their types:
 * import records, mine G0, validate, run, compile, evaluate, search, serve, export, conformance and
 * drift, with the tools and models they take and the error class. At most 30 values
 * (test/architecture/public-api.test.ts). Everything else is a subpath, one per job
 * (docs/ARCHITECTURE.md, "Public API"): `flowscout/workflow` (the IR, edits, hashing, drawing),
 * `flowscout/records`, `flowscout/mining`, `flowscout/tools`, `flowscout/models`,
 * `flowscout/policies`, `flowscout/metrics`, `flowscout/search`, `flowscout/wiring`,
 * `flowscout/store`, `flowscout/serve`, `flowscout/conformance`, `flowscout/errors`, and
 * `flowscout/runtime`, `flowscout/langgraph`, `flowscout/testing`, `flowscout/bench`,
 * `flowscout/distributed` (workers and the queue runner on Redis, so that this entry loads neither
 * BullMQ nor ioredis). The CLI is a thin shell over the same modules.
 */

// Errors
export { FlowScoutError, isFlowScoutError, type ErrorLocation } from './errors/flowscout-error.js';
export { ERROR_CODES, type ErrorCode } from './errors/codes.js';

// The workflow IR (its schema, edits and drawing: flowscout/workflow)
export type { Workflow, WorkflowNode, LlmNode, ToolNode, Edge, Guard } from './graph/schema.js';

// Validate
export { parseWorkflow, validateWorkflow, type ParseResult } from './graph/validate.js';
export type { Problem } from './graph/problems.js';

// Import: records and your agent's logs (the dataset importers: flowscout/records)
export type { TaskRecord, Call } from './records/schema.js';
export { readRecordsFile } from './records/read-records.js';
export { importAgentLogs, type AgentLogFormat, type AgentLogImport } from './records/import/agent-logs.js';
export { splitRecords, type RecordSplit } from './records/split.js';

// Mine: G0 from records (the whole miner: flowscout/mining)
export { minedG0 } from './search/variants.js';

// Tools (every tool source: flowscout/tools)
export type { ToolDescriptor, ToolSpec, ToolRegistry, ToolCallOutcome } from './contracts/tools.js';
export { defineTool } from './tools/define-tool.js';
export { createToolRegistry } from './tools/registry.js';
export { loadToolConfig } from './tools/load-tool-config.js';

// Models: the policy, judge and optimizer from model strings, offline without one (flowscout/models,
// flowscout/policies, flowscout/wiring)
export { wireModels, type ModelSettings, type WiredModels } from './wiring/wire-models.js';
export type { ExecutionPolicy } from './policies/types.js';
export { createOfflinePolicy } from './policies/offline/offline-policy.js';
export type { Usage } from './llm/usage.js';

// Run and compile
export { executeWorkflow } from './runtime/execute.js';
export { compileWorkflow, type CompileOptions } from './runtime/compile.js';
export type { RunContext } from './runtime/run-state.js';
export type { Trace } from './runtime/trace.js';

// Evaluate (TC, the judges, scoring of predictions: flowscout/metrics)
export { evaluateWorkflow } from './evaluate/evaluate.js';
export type { EvaluateOptions, WorkflowEvaluation, RecordEvaluation } from './evaluate/types.js';
export type { Judge } from './metrics/types.js';

// Search (the optimizers, artifacts and the store: flowscout/search, flowscout/store)
export { runSearch, type RunSearchInput, type SearchResult } from './search/run-search.js';
export { DEFAULT_SETTINGS, type SearchSettings } from './search/search-context.js';
export type { Optimizer } from './search/optimizers/types.js';

// Serve over HTTP and MCP (stdio MCP and the rest: flowscout/serve)
export { createWorkflowService, type WorkflowService, type WorkflowServiceOptions } from './serve/workflow-service.js';
export { startHttpServer, type HttpServeOptions, type RunningHttpServer } from './serve/http-server.js';

// Export to LangGraph.js (what its module imports: flowscout/langgraph)
export { exportLangGraph, type LangGraphExportOptions } from './export/to-langgraph.js';

// Conformance and drift (alignments, trees and profiles: flowscout/conformance)
export { checkConformance, type ConformanceResult } from './conformance/check.js';
export { observedRunOfRecord, type ObservedRun } from './conformance/observed-runs.js';
export type { RunScore } from './conformance/run-health.js';
export { detectDrift, type DriftOptions, type DriftReport } from './conformance/drift.js';
export { readConformanceProfile, type ConformanceProfile } from './conformance/profile.js';

// Distributed evaluation (workers and the coordinator's queue on Redis) is the `flowscout/distributed`
// subpath: importing 'flowscout' loads neither BullMQ nor ioredis.
