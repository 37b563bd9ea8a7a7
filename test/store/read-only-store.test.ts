import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { ensureSpa } from '../../src/ui/server/spa.js';

/**
 * The commands that only read (`runs list`, `runs show`, `ui`) work on a store nobody may write:
 * the store file and its folder are made read-only, and the commands run as a user the modes apply
 * to (root ignores them, so under root the child process runs as `nobody`).
 */
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'flowscout.js');
const asRoot = process.getuid?.() === 0;
const user = asRoot ? { uid: 65534, gid: 65534 } : {};

function run(
  args: string[],
  until?: RegExp,
): Promise<{ code: number | null; out: string; match?: RegExpMatchArray; stop?: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...user,
      env: { ...process.env, HOME: tmpdir() },
    });
    let out = '';
    let settled = false;
    const onData = (d: Buffer) => {
      out += String(d);
      const m = until && out.match(until);
      if (m && !settled) {
        settled = true;
        resolve({ code: null, out, match: m, stop: () => child.kill('SIGTERM') });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      if (!settled) resolve({ code, out });
    });
  });
}

let dir: string;
let db: string;
beforeAll(async () => {
  await ensureSpa();
  dir = mkdtempSync(join(tmpdir(), 'flowscout-ro-'));
  db = join(dir, 'store.db');
  const store = openStore(db);
  store.createRun({
    id: 'run-ro',
    status: 'done',
    seed: 1,
    strategy: 'mcts',
    config: {},
    policyLabel: 'offline policy (no LLM)',
    judgeLabel: 'offline lexical judge',
    optimizerLabel: 'rule-based optimizer (offline)',
    iterationsDone: 0,
    sinceImprovement: 0,
  });
  store.close();
  chmodSync(db, 0o444);
  chmodSync(dir, 0o555);
});
afterAll(() => {
  chmodSync(dir, 0o755);
});

describe('a read-only store', () => {
  it('is listed and shown, and nothing is written beside it', async () => {
    const before = readdirSync(dir);
    const mtime = statSync(db).mtimeMs;
    const list = await run(['runs', 'list', '--db', db]);
    expect(list.out).not.toMatch(/cannot be written|permission/);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/run-ro +done/);
    const show = await run(['runs', 'show', 'run-ro', '--db', db]);
    expect(show.code).toBe(0);
    expect(show.out).toContain('Run run-ro (done)');
    expect(readdirSync(dir)).toEqual(before);
    expect(statSync(db).mtimeMs).toBe(mtime);
  });

  it('is served by the UI', async () => {
    const ui = await run(['ui', '--db', db, '--port', '0'], /FlowScout UI on (http:\/\/\S+)|error \[/);
    try {
      expect(ui.out).not.toContain('error [');
      const res = await fetch(new URL('api/runs', ui.match![1]));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { runs: Array<{ id: string }> };
      expect(body.runs.map((r) => r.id)).toEqual(['run-ro']);
    } finally {
      ui.stop?.();
    }
  });
});
