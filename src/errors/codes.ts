/**
 * The closed set of error codes FlowScout raises. A caller can switch on `code` instead of parsing
 * messages; the CLI maps each code to an exit status, a server to an HTTP status. The last group is
 * what only a server answers (`flowscout serve`: the request, not a file or a model, is at fault, or
 * the run it asked for failed or ran out of time).
 */
export const ERROR_CODES = [
  'INVALID_INPUT', // a value from the user does not fit (bad flag, bad JSON shape)
  'PARSE_ERROR', // a file could not be parsed (JSON, JSONL, XES, CSV)
  'INPUT_TOO_LARGE', // a file goes past a reader's limit (unpacked size, comment, entity, line); the hint names the option that raises it
  'FILE_NOT_FOUND', // a named file or directory does not exist
  'FILE_EXISTS', // refusing to overwrite something the user already has
  'FILE_ACCESS', // a file or folder cannot be read or written (permission, read-only, disk full)
  'INVALID_WORKFLOW', // the workflow fails its schema or Valid(G, T)
  'INVALID_EDIT', // an edit plan cannot be applied
  'TOOL_NOT_FOUND', // a tool name that the registry does not have
  'TOOL_ERROR', // a tool source failed to start or list its tools
  'MODEL_CONFIG', // a model string or provider setting is wrong or a key is missing
  'MODEL_ERROR', // a model call failed after its retries
  'MODEL_UNAVAILABLE', // a model cannot work (its probe failed, or the same failure repeated): the command stops
  'BUDGET_EXHAUSTED', // a call, token, money or time budget ran out
  'ABORTED', // cancelled by an AbortSignal
  'STORE_ERROR', // the SQLite store could not be opened or written
  'RUN_LOCKED', // another process drives this search run
  'INPUT_CHANGED', // a resumed run's records, tools or settings differ from when it started
  'QUEUE_ERROR', // Redis (the job queue of distributed evaluation) cannot be reached, or a job failed for good
  'CONNECTION_LOST', // a network connection dropped or was refused mid-work (Redis, an MCP server over HTTP); running again may succeed
  'NOT_FOUND', // a run, candidate or record id that does not exist
  'INTERNAL', // a bug: anything else
  'FORBIDDEN_HOST', // a request whose Host header names no host the server answers for
  'UNAUTHORIZED', // a request without the bearer token the server was started with
  'BAD_JSON', // a request body that is not valid JSON
  'BAD_REQUEST', // a request the HTTP server cannot read (no or a malformed Host header, a bad target)
  'BODY_TOO_LARGE', // a request body over the server's limit (--max-body)
  'UNSUPPORTED_MEDIA_TYPE', // a request body that is not application/json
  'METHOD_NOT_ALLOWED', // a route asked with a method it does not answer (GET /run)
  'SHUTTING_DOWN', // the server stopped before the request was answered; send it again once it is back
  'TIMEOUT', // a run cancelled at the request timeout
  'RUN_FAILED', // a run whose every tool call failed, or that failed itself: its reason is the message
] as const;

/** One of `ERROR_CODES`: what `FlowScoutError.code` holds. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Exit status used by the CLI for each code (1 is reserved for "ran, but the answer is no").
 * 2: the input is wrong (fix it and run again); 3: something outside FlowScout failed (a model, a
 * tool, the store, the disk); 4: a budget you set ran out before there was anything to keep (not an
 * error: printed without the `error` prefix); 70: a bug in FlowScout; 130: interrupted.
 */
export const EXIT_STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 2,
  PARSE_ERROR: 2,
  INPUT_TOO_LARGE: 2,
  FILE_NOT_FOUND: 2,
  FILE_EXISTS: 2,
  FILE_ACCESS: 3,
  INVALID_WORKFLOW: 2,
  INVALID_EDIT: 2,
  TOOL_NOT_FOUND: 2,
  TOOL_ERROR: 3,
  MODEL_CONFIG: 2,
  MODEL_ERROR: 3,
  MODEL_UNAVAILABLE: 3,
  BUDGET_EXHAUSTED: 4,
  ABORTED: 130,
  STORE_ERROR: 3,
  RUN_LOCKED: 3,
  INPUT_CHANGED: 2,
  QUEUE_ERROR: 3,
  CONNECTION_LOST: 3,
  NOT_FOUND: 2,
  INTERNAL: 70,
  FORBIDDEN_HOST: 2,
  UNAUTHORIZED: 2,
  BAD_JSON: 2,
  BAD_REQUEST: 2,
  BODY_TOO_LARGE: 2,
  UNSUPPORTED_MEDIA_TYPE: 2,
  METHOD_NOT_ALLOWED: 2,
  SHUTTING_DOWN: 3,
  TIMEOUT: 3,
  RUN_FAILED: 3,
};

/**
 * HTTP status of each code, for every server that answers with an error (`flowscout serve`, the web
 * UI's API): 400 the request is wrong, 401 it lacks the token, 403 it names a host not served, 404
 * what it names does not exist, 405 the method is wrong, 409 it conflicts with what is there, 413 it
 * is too large, 415 it is not JSON, 429 a budget ran out, 499 the client went away, 502 something
 * behind the server failed, 503 it cannot work now, 504 the run ran out of time, 500 a bug.
 */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  PARSE_ERROR: 400,
  INPUT_TOO_LARGE: 413,
  FILE_NOT_FOUND: 404,
  FILE_EXISTS: 409,
  FILE_ACCESS: 500,
  INVALID_WORKFLOW: 400,
  INVALID_EDIT: 400,
  TOOL_NOT_FOUND: 400,
  TOOL_ERROR: 502,
  MODEL_CONFIG: 500,
  MODEL_ERROR: 502,
  MODEL_UNAVAILABLE: 503,
  BUDGET_EXHAUSTED: 429,
  ABORTED: 499,
  STORE_ERROR: 500,
  RUN_LOCKED: 409,
  INPUT_CHANGED: 409,
  QUEUE_ERROR: 503,
  CONNECTION_LOST: 503,
  NOT_FOUND: 404,
  INTERNAL: 500,
  FORBIDDEN_HOST: 403,
  UNAUTHORIZED: 401,
  BAD_JSON: 400,
  BAD_REQUEST: 400,
  BODY_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  METHOD_NOT_ALLOWED: 405,
  SHUTTING_DOWN: 503,
  TIMEOUT: 504,
  RUN_FAILED: 502,
};

/**
 * Whether work that failed with each code may succeed when it is simply run again (a distributed
 * evaluation job is retried by the queue only then; otherwise it fails once, for good). `false` for
 * anything the same input fails on again: wrong input or configuration, a budget spent, and a bug
 * (INTERNAL) — a rerun of a bug repeats it. Adding a permanent code is this one edit.
 */
export const RETRYABLE: Record<ErrorCode, boolean> = {
  INVALID_INPUT: false,
  PARSE_ERROR: false,
  INPUT_TOO_LARGE: false,
  FILE_NOT_FOUND: false,
  FILE_EXISTS: false,
  FILE_ACCESS: true,
  INVALID_WORKFLOW: false,
  INVALID_EDIT: false,
  TOOL_NOT_FOUND: false,
  TOOL_ERROR: false,
  MODEL_CONFIG: false,
  MODEL_ERROR: true,
  MODEL_UNAVAILABLE: false,
  BUDGET_EXHAUSTED: false,
  ABORTED: true,
  STORE_ERROR: true,
  RUN_LOCKED: true,
  INPUT_CHANGED: false,
  QUEUE_ERROR: false,
  CONNECTION_LOST: true,
  NOT_FOUND: false,
  INTERNAL: false,
  FORBIDDEN_HOST: false,
  UNAUTHORIZED: false,
  BAD_JSON: false,
  BAD_REQUEST: false,
  BODY_TOO_LARGE: false,
  UNSUPPORTED_MEDIA_TYPE: false,
  METHOD_NOT_ALLOWED: false,
  SHUTTING_DOWN: true,
  TIMEOUT: true,
  RUN_FAILED: true,
};

/** Is `code` one of `ERROR_CODES`? */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code);
}
