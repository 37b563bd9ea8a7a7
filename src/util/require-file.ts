import { statSync } from 'node:fs';
import { FlowScoutError } from '../errors/index.js';

/** What every reader says when the path it was given is not there. */
const DEFAULT_HINT = 'Check the path; relative paths are resolved from the current directory.';

/**
 * The check every reader makes before it opens a file the user named: FILE_NOT_FOUND with
 * "<what> not found: <file>", the file as the location and a hint saying what to check (by default:
 * the path, resolved from the current directory); and, unless `folder: 'allowed'`, INVALID_INPUT
 * naming a folder given where a file is expected (reading a folder fails with an error that names
 * no path).
 */
export function requireFile(
  file: string,
  opts: { what?: string; hint?: string; folder?: 'allowed' | 'refused' } = {},
): void {
  const what = opts.what ?? 'file';
  let isFolder: boolean;
  try {
    isFolder = statSync(file).isDirectory();
  } catch {
    throw new FlowScoutError({
      code: 'FILE_NOT_FOUND',
      message: `${what} not found: ${file}`,
      hint: opts.hint ?? DEFAULT_HINT,
      location: { file },
    });
  }
  if (isFolder && opts.folder !== 'allowed')
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${file} is a directory; a ${what === 'file' ? '' : `${what} `}file is expected here`,
      hint: 'Pass the path of a file (inside that directory, if it holds the file).',
      location: { file },
    });
}
