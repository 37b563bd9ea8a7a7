/**
 * The closed set of error codes FlowScout raises. A caller can switch on `code` instead of parsing
 * messages; the CLI maps each code to an exit status.
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
  'NOT_FOUND', // a run, candidate or record id that does not exist
  'INTERNAL', // a bug: anything else
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
  NOT_FOUND: 2,
  INTERNAL: 70,
};
