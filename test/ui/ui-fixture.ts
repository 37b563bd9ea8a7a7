import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { writeSearchFixture, type SearchFixture } from '../search/fixture.js';

/**
 * Stores for the UI tests, made by real `flowscout search` processes with the offline policy on
 * bundled TRAJECT-Bench records (see test/search/fixture.ts).
 */
export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'flowscout.js');

export function searchArgs(
  fx: SearchFixture,
  db: string,
  opts: { iterations: number; seed?: number; records?: string; out?: string },
): string[] {
  const j = String(opts.iterations);
  return [
    'search',
    '--records',
    opts.records ?? fx.records,
    '--tools',
    fx.tools,
    '--iterations',
    j,
    '--patience',
    j,
    '--seed',
    String(opts.seed ?? 3),
    '--db',
    db,
    '--out',
    opts.out ?? join(fx.dir, `out-${Math.random().toString(36).slice(2)}`),
  ];
}

/** Starts `flowscout search …`; `done` resolves with its exit code and output. */
export function startSearch(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: string | null; out: string }>;
} {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FLOWSCOUT_MODEL: '' },
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => void (out += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; out: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out }));
  });
  return { child, done };
}

export async function runSearch(args: string[]): Promise<string> {
  const r = await startSearch(args).done;
  if (r.code !== 0) throw new Error(`flowscout ${args.join(' ')} exited ${r.code}:\n${r.out}`);
  return r.out;
}

export { writeSearchFixture };
