import { FlowScoutError, isFlowScoutError } from './flowscout-error.js';

/**
 * Converts anything thrown into a FlowScoutError, so callers (the CLI above all) handle one type.
 * Problems of the user's files and disk get a code, the file's name and what to do: a missing file
 * (FILE_NOT_FOUND), a folder where a file was expected, permission / read-only / disk-full errors
 * (FILE_ACCESS), a cut-off gzip stream (PARSE_ERROR), a damaged SQLite file (STORE_ERROR), a dropped or
 * refused network connection (CONNECTION_LOST, which a queue retries). Aborts
 * become ABORTED. Only what is left is INTERNAL, "a bug" (exit 70).
 */
export function toFlowScoutError(thrown: unknown): FlowScoutError {
  if (isFlowScoutError(thrown)) return thrown;
  if (thrown instanceof Error) {
    const known = fileSystemError(thrown) ?? gzipError(thrown) ?? sqliteError(thrown) ?? connectionError(thrown);
    if (known) return known;
    const errno = thrown as NodeJS.ErrnoException;
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

/**
 * True for a write that failed because the disk (or the quota) is full: Node's ENOSPC / EDQUOT, or
 * SQLite's SQLITE_FULL, also when wrapped as the `cause` of a FlowScoutError.
 */
export function isDiskFull(thrown: unknown): boolean {
  for (let e = thrown, depth = 0; e !== null && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Node's errno errors of the file system, with the path they name (or `file` when given). */
export function fileSystemError(thrown: Error, file?: string): FlowScoutError | undefined {
  const errno = thrown as NodeJS.ErrnoException;
  const path = errno.path ?? file;
  const location = path ? { file: path } : undefined;
  const named = path ?? '(unknown path)';
  const base = { cause: thrown, ...(location ? { location } : {}) };
  switch (errno.code) {
    case 'ENOENT':
      return new FlowScoutError({
        code: 'FILE_NOT_FOUND',
        message: location ? 'no such file or directory' : `no such file or directory: ${named}`,
        hint: 'Check the path; relative paths are resolved from the current directory.',
        ...base,
      });
    case 'EISDIR':
      return new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `expected a file but found a directory: ${named}`,
        hint: 'Pass the path of a file inside that directory.',
        ...base,
      });
    case 'EEXIST':
      if (errno.syscall !== 'mkdir') return undefined;
      return new FlowScoutError({
        code: 'FILE_ACCESS',
        message: 'cannot create this folder: a file of that name is in the way',
        hint: 'Move the file away, or choose another output path.',
        ...base,
      });
    case 'ENOTDIR':
      return new FlowScoutError({
        code: 'INVALID_INPUT',
        message: 'a part of this path is a file, not a folder',
        hint: 'Check the path; a folder was expected where a file is.',
        ...base,
      });
    case 'EACCES':
    case 'EPERM':
      return new FlowScoutError({
        code: 'FILE_ACCESS',
        message: `permission denied (${errno.code}${errno.syscall ? ` on ${errno.syscall}` : ''})`,
        hint: 'Check the permissions of the file and its folder, or choose a path you can write to (e.g. another --out or --db).',
        ...base,
      });
    case 'EROFS':
      return new FlowScoutError({
        code: 'FILE_ACCESS',
        message: 'the file system is read-only',
        hint: 'Choose a path on a writable disk (e.g. another --out or --db).',
        ...base,
      });
    case 'ENOSPC':
    case 'EDQUOT':
      return new FlowScoutError({
        code: 'FILE_ACCESS',
        message: 'no space left on the disk (or the quota is full)',
        hint: 'Free some space or write elsewhere; files written before are kept whole.',
        ...base,
      });
    case 'EMFILE':
    case 'ENFILE':
      return new FlowScoutError({
        code: 'FILE_ACCESS',
        message: 'too many open files',
        hint: 'Lower --concurrency, or raise the limit of open files (ulimit -n).',
        ...base,
      });
    default:
      return undefined;
  }
}

/** zlib's errors of a damaged or cut-off `.gz` file. */
export function gzipError(thrown: Error, file?: string): FlowScoutError | undefined {
  const code = (thrown as NodeJS.ErrnoException).code;
  if (code !== 'Z_BUF_ERROR' && code !== 'Z_DATA_ERROR') return undefined;
  const truncated = code === 'Z_BUF_ERROR';
  return new FlowScoutError({
    code: 'PARSE_ERROR',
    message: truncated
      ? 'the gzip file ends early: it is truncated (an interrupted download or copy)'
      : `the gzip file is damaged (${thrown.message})`,
    hint: 'Copy or download the file again; `gzip -t <file>` checks a .gz file.',
    cause: thrown,
    ...(file ? { location: { file } } : {}),
  });
}

/** better-sqlite3's errors of a damaged database file (at open or on any later read or write). */
export function sqliteError(thrown: Error, file?: string): FlowScoutError | undefined {
  const code = (thrown as { code?: unknown }).code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  const where = file ? { location: { file } } : {};
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new FlowScoutError({
      code: 'STORE_ERROR',
      message:
        code === 'SQLITE_NOTADB' ? 'the store is not a SQLite database' : `the store is damaged (${thrown.message})`,
      hint:
        "Keep the file. Save what is still readable: `flowscout runs show <run> --db <this file> --write <dir>` writes a run's best workflow, " +
        'and `sqlite3 <this file> .recover > recovered.sql` exports every readable row. Then start again with a new store: --db <new file>.',
      cause: thrown,
      ...where,
    });
  }
  if (code === 'SQLITE_FULL') {
    return new FlowScoutError({
      code: 'FILE_ACCESS',
      message: 'the disk holding the store is full',
      hint: 'Free some space; every finished iteration is stored, and a search resumes with --resume.',
      cause: thrown,
      ...where,
    });
  }
  if (
    code === 'SQLITE_READONLY' ||
    code.startsWith('SQLITE_READONLY') ||
    code === 'SQLITE_CANTOPEN' ||
    code.startsWith('SQLITE_IOERR')
  ) {
    return new FlowScoutError({
      code: 'FILE_ACCESS',
      message: `the store cannot be written (${code})`,
      hint: 'Check the permissions of the store and its folder, or pass another file with --db.',
      cause: thrown,
      ...where,
    });
  }
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY') || code === 'SQLITE_LOCKED') {
    return new FlowScoutError({
      code: 'STORE_ERROR',
      message: 'the store is busy: another process holds it',
      hint: 'Wait for the other FlowScout process to finish, or pass another file with --db.',
      cause: thrown,
      ...where,
    });
  }
  return new FlowScoutError({
    code: 'STORE_ERROR',
    message: `the store failed (${code}: ${thrown.message})`,
    hint: 'Run again with --debug for details; pass another file with --db to start a new store.',
    cause: thrown,
    ...where,
  });
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * A network connection that dropped or was refused mid-work: Node's socket errors, and the Redis
 * client's "Connection is closed" and out-of-retries errors. Transient, so a queued job is retried.
 */
export function connectionError(thrown: Error): FlowScoutError | undefined {
  const code = (thrown as NodeJS.ErrnoException).code;
  const redisClosed = thrown.message === 'Connection is closed.' || thrown.name === 'MaxRetriesPerRequestError';
  if (!(typeof code === 'string' && CONNECTION_CODES.has(code)) && !redisClosed) return undefined;
  return new FlowScoutError({
    code: 'CONNECTION_LOST',
    message: `a network connection failed: ${thrown.message}`,
    hint: 'Check that the service (Redis, an MCP server) is up and reachable, then run again; a queued job is retried by itself.',
    cause: thrown,
  });
}
