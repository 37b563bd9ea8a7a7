import { FlowScoutError, isFlowScoutError } from './flowscout-error.js';

/**
 * Converts anything thrown into a FlowScoutError, so callers (the CLI above all) handle one type.
 * Node's file-system errors become FILE_NOT_FOUND with the path; aborts become ABORTED; the rest INTERNAL.
 */
export function toFlowScoutError(thrown: unknown): FlowScoutError {
  if (isFlowScoutError(thrown)) return thrown;
  if (thrown instanceof Error) {
    const errno = thrown as NodeJS.ErrnoException;
    if (errno.code === 'ENOENT') {
      return new FlowScoutError({
        code: 'FILE_NOT_FOUND',
        message: `No such file or directory: ${errno.path ?? '(unknown path)'}`,
        hint: 'Check the path; relative paths are resolved from the current directory.',
        location: errno.path ? { file: errno.path } : undefined,
        cause: thrown,
      });
    }
    if (errno.code === 'EISDIR') {
      return new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `Expected a file but found a directory: ${errno.path ?? ''}`,
        hint: 'Pass the path of a file inside that directory.',
        cause: thrown,
      });
    }
    if (errno.code === 'EACCES') {
      return new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `Permission denied: ${errno.path ?? ''}`,
        hint: 'Check the file permissions.',
        cause: thrown,
      });
    }
    if (thrown.name === 'AbortError' || errno.code === 'ABORT_ERR') {
      return new FlowScoutError({ code: 'ABORTED', message: 'The operation was cancelled.', cause: thrown });
    }
    return new FlowScoutError({
      code: 'INTERNAL',
      message: `Unexpected error: ${thrown.message}`,
      hint: 'This is a bug in FlowScout; run again with --debug for the stack trace and report it.',
      cause: thrown,
    });
  }
  return new FlowScoutError({
    code: 'INTERNAL',
    message: `Unexpected error: ${String(thrown)}`,
    hint: 'This is a bug in FlowScout; run again with --debug and report it.',
  });
}
