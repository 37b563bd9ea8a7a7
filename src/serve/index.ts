/** Serving a workflow: the shared service, the MCP tool (stdio and Streamable HTTP) and the HTTP endpoint. */
export {
  createWorkflowService,
  servedResult,
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
  failureText,
  type WorkflowMcpOptions,
  type WorkflowToolInfo,
} from './mcp-server.js';
export {
  startHttpServer,
  DEFAULT_MAX_BODY_BYTES,
  type HttpServeOptions,
  type RunningHttpServer,
} from './http-server.js';
export { DEFAULT_REQUEST_TIMEOUT_MS, runWithinTimeout, requestTimedOut, type BoundedRun } from './request-timeout.js';
