/** Serving a workflow: the shared service, the MCP tool (stdio and Streamable HTTP) and the HTTP endpoint. */
export {
  createWorkflowService,
  failureText,
  servedResult,
  servedStatus,
  MAX_QUERY_CHARS,
  type ServedResult,
  type ServedRun,
  type ServeRunRequest,
  type WorkflowService,
  type WorkflowServiceOptions,
} from './workflow-service.js';
export {
  createWorkflowMcpServer,
  toolNameFor,
  checkToolName,
  type WorkflowMcpOptions,
  type WorkflowToolInfo,
} from './mcp-server.js';
export {
  startHttpServer,
  DEFAULT_MAX_BODY_BYTES,
  type HttpServeOptions,
  type RunningHttpServer,
} from './http-server.js';
export { customerAnswer, namesInternals, type CustomerAnswer } from './customer-answer.js';
export {
  createServeMetrics,
  type DriftFigures,
  type RunFigures,
  type ServeMetrics,
  type ServeMetricsOptions,
} from './serve-metrics.js';
export { DEFAULT_REQUEST_TIMEOUT_MS, runWithinTimeout, requestTimedOut, type BoundedRun } from './request-timeout.js';
