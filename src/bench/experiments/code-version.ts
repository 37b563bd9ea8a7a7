import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../records/bundled.js';

/**
 * Which code produced a benchmark run, printed under the command in the report: the package version
 * and, in a git checkout, the commit and whether `src/` or `data/` had uncommitted changes (then the
 * commit alone does not regenerate the numbers). Outside a checkout only the version is known.
 */
export interface CodeVersion {
  version: string;
  commit?: string;
  dirty?: boolean;
}

export function codeVersion(): CodeVersion {
  const root = packageRoot();
  const version =
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  const git = (args: string[]) =>
    execFileSync('git', args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
      encoding: 'utf8',
    }).trim();
  try {
    const commit = git(['rev-parse', 'HEAD']);
    const dirty = git(['status', '--porcelain', '--', 'src', 'data']) !== '';
    return { version, commit, dirty };
  } catch {
    return { version };
  }
}

/** "flowscout 0.1.0 at commit 1a2b3c4 (with uncommitted changes in src/ or data/)". */
export function describeCodeVersion(v: CodeVersion): string {
  if (!v.commit) return `flowscout ${v.version}`;
  return `flowscout ${v.version} at commit ${v.commit.slice(0, 12)}${v.dirty ? ' (with uncommitted changes in src/ or data/, so the commit alone may not regenerate these numbers)' : ''}`;
}
