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
  type WorkflowToolInfo,
} from './mcp-server.js';
export {
  startHttpServer,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type HttpServeOptions,
  type RunningHttpServer,
} from './http-server.js';
