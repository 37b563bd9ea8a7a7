import { spawnSync } from 'node:child_process';

/**
 * The packages (under node_modules) a Node process resolves while it runs `args`, named by a resolve
 * hook registered before anything loads: how tests check that an entry point or command does not
 * load what it must not (a model provider, BullMQ, ioredis, SQLite).
 */
const HOOK = `data:text/javascript,${encodeURIComponent(
  "import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(\"export async function resolve(s, c, n) { const r = await n(s, c); const m = /node_modules\\\\/((?:@[^/]+\\\\/)?[^/]+)/.exec(r.url); if (m) process.stderr.write('LOADED ' + m[1] + '\\\\n'); return r; }\"));",
)}`;

export function packagesLoadedBy(
  args: readonly string[],
  cwd: string,
): { status: number | null; stdout: string; stderr: string; loaded: Set<string> } {
  const r = spawnSync(process.execPath, ['--import', HOOK, ...args], { cwd, encoding: 'utf8' });
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    loaded: new Set([...r.stderr.matchAll(/^LOADED (\S+)$/gm)].map((m) => m[1]!)),
  };
}
