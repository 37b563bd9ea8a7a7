import { existsSync } from 'node:fs';
import { FlowScoutError } from '../errors/index.js';

/** What every reader says when the path it was given is not there. */
const DEFAULT_HINT = 'Check the path; relative paths are resolved from the current directory.';

/**
 * The check every reader makes before it opens a file the user named: FILE_NOT_FOUND with
 * "<what> not found: <file>", the file as the location and a hint saying what to check (by default:
 * the path, resolved from the current directory).
 */
export function requireFile(file: string, opts: { what?: string; hint?: string } = {}): void {
  if (existsSync(file)) return;
  throw new FlowScoutError({
    code: 'FILE_NOT_FOUND',
    message: `${opts.what ?? 'file'} not found: ${file}`,
    hint: opts.hint ?? DEFAULT_HINT,
    location: { file },
  });
}
