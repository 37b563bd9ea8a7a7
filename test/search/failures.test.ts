import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { writeSearchFixture } from './fixture.js';

/**
 * How a search fails when its inputs, its store, its output folder or its process go wrong, with
 * real `flowscout` child processes: a resume after the records changed is refused; two drivers of
 * one run are refused (the second names the first's pid and host) and a dead driver's lock is taken
 * over; SIGTERM stops like Ctrl-C; a killed run shows as interrupted; an output folder that cannot
 * be written fails before the search starts; `--resume` against a missing store creates nothing.
 */

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'flowscout.js');

interface Spawned {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: string | null; out: string; err: string }>;
}

/** Starts the CLI; `onOut` sees stdout so far after every chunk. `uid` runs it as another user (root only). */
function start(
  args: string[],
  opts: { onOut?: (out: string, child: ChildProcess) => void; uid?: number } = {},
): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
    opts.onOut?.(out, child);
  });
  child.stderr!.on('data', (d: Buffer) => void (err += d.toString()));
  const done = new Promise<{ code: number | null; signal: string | null; out: string; err: string }>(
    (resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, out, err }));
    },
  );
  return { child, done };
}

const run = (args: string[], opts: Parameters<typeof start>[1] = {}) => start(args, opts).done;
const rowPrinted = (out: string, at: number) => new RegExp(`^ +${at} +c\\d+ → c\\d+ `, 'm').test(out);

const fx = writeSearchFixture({ records: 14 });
const search = (db: string, extra: string[] = []) => [
  'search',
  '--records',
  fx.records,
  '--tools',
  fx.tools,
  '--seed',
  '5',
  '--iterations',
  '6',
  '--patience',
  '6',
  '--db',
  db,
  ...extra,
];

/** A search stopped with SIGINT after iteration 1 (status `stopped`, resumable); its run id. */
async function stoppedRun(db: string, out: string): Promise<string> {
  let sent = false;
  const res = await run(search(db, ['--out', out]), {
    onOut: (o, child) => {
      if (!sent && rowPrinted(o, 1)) {
        sent = true;
        child.kill('SIGINT');
      }
    },
  });
  expect(res.code, res.out + res.err).toBe(130);
  return /Starting search (run-[\w-]+)/.exec(res.out)![1]!;
}

describe('a run is bound to its inputs', () => {
  it('refuses --resume after the records file changed, saying what changed and how to start a new run', async () => {
    const f2 = writeSearchFixture({ records: 14 });
    const db = join(f2.dir, 'changed.db');
    let sent = false;
    const first = await run(
      [
        'search',
        '--records',
        f2.records,
        '--tools',
        f2.tools,
        '--seed',
        '5',
        '--iterations',
        '6',
        '--patience',
        '6',
        '--db',
        db,
        '--out',
        join(f2.dir, 'out'),
      ],
      {
        onOut: (o, child) => {
          if (!sent && rowPrinted(o, 1)) {
            sent = true;
            child.kill('SIGINT');
          }
        },
      },
    );
    expect(first.code, first.out + first.err).toBe(130);
    const runId = /Starting search (run-[\w-]+)/.exec(first.out)![1]!;
    const lines = readFileSync(f2.records, 'utf8').trimEnd().split('\n');
    appendFileSync(f2.records, `${lines[0]!.replace(/"id":"[^"]+"/, '"id":"an-added-record"')}\n`);

    const resumed = await run(['search', '--resume', runId, '--db', db]);
    expect(resumed.code).toBe(2);
    expect(resumed.err).toMatch(
      new RegExp(
        `error \\[INPUT_CHANGED\\]: cannot resume run '${runId}': the records file .*records\\.jsonl changed since the run started \\(\\d+ bytes, sha256 [0-9a-f]{12}… then; \\d+ bytes, sha256 [0-9a-f]{12}… now\\)`,
      ),
    );
    expect(resumed.err).toContain('Resuming would mix scores from two datasets');
    expect(resumed.err).toContain(
      `start a new run on the new input: flowscout search --records ${f2.records} --tools ${f2.tools}`,
    );
    const store = openStore(db);
    expect(store.getRun(runId).status).toBe('stopped');
    expect(store.getLock(runId)).toBeUndefined();
    store.close();
  });
});

describe('one driver per run', () => {
  it('refuses a second --resume while the first drives the run, names its pid and host, and lets the first finish', async () => {
    const db = join(fx.dir, 'double.db');
    const runId = await stoppedRun(db, join(fx.dir, 'double'));
    let paused: ChildProcess | undefined;
    let second: Promise<{ code: number | null; out: string; err: string }> | undefined;
    let release: () => void = () => {};
    const secondDone = new Promise<void>((r) => (release = r));
    const first = start(['search', '--resume', runId, '--db', db], {
      onOut: (o, child) => {
        if (paused || !o.includes(`Resuming search ${runId}`)) return;
        // The first driver holds the lock; freeze it (alive, mid-run) while the second one tries.
        paused = child;
        child.kill('SIGSTOP');
        second = run(['search', '--resume', runId, '--db', db]);
        void second.then(() => {
          child.kill('SIGCONT');
          release();
        });
      },
    });
    const res1 = await first.done;
    await secondDone;
    const res2 = await second!;
    expect(res2.code).toBe(3);
    expect(res2.err).toContain(
      `error [RUN_LOCKED]: run '${runId}' is being driven by another process (pid ${first.child.pid} on ${hostname()}`,
    );
    expect(res2.err).toContain('start a new run instead of --resume');
    expect(res2.out).not.toContain('Resuming search');
    expect(res1.code, res1.out + res1.err).toBe(0);
    const store = openStore(db);
    expect(store.getRun(runId).status).toBe('done');
    // Every iteration ran once: one row per iteration, no iteration driven twice.
    expect(store.loadIterations(runId).map((r) => r.iteration)).toEqual(
      [1, 2, 3, 4, 5, 6].slice(0, store.getRun(runId).iterationsDone),
    );
    expect(store.getLock(runId)).toBeUndefined();
    store.close();
  });

  it("shows a killed run as interrupted, and a resume takes over the dead driver's lock", async () => {
    const db = join(fx.dir, 'killed.db');
    let sent = false;
    const killed = await run(search(db, ['--out', join(fx.dir, 'killed')]), {
      onOut: (o, child) => {
        if (!sent && rowPrinted(o, 1)) {
          sent = true;
          child.kill('SIGKILL');
        }
      },
    });
    expect(killed.signal).toBe('SIGKILL');
    const runId = /Starting search (run-[\w-]+)/.exec(killed.out)![1]!;
    const list = await run(['runs', 'list', '--db', db]);
    expect(list.out).toMatch(new RegExp(` ${runId} +interrupted `));
    const shown = await run(['runs', 'show', runId, '--db', db]);
    expect(shown.out).toContain(`Run ${runId} (interrupted: its process is gone)`);
    expect(shown.out).toContain(`continue it with: flowscout search --resume ${runId}`);

    const resumed = await run(['search', '--resume', runId, '--db', db]);
    expect(resumed.code, resumed.out + resumed.err).toBe(0);
    expect(resumed.err).toMatch(/was held by pid \d+ on .*, which is gone; this process takes it over/);
  });
});

describe('signals and the store', () => {
  it('stops on SIGTERM like Ctrl-C: says so, writes the best so far, stores the run as stopped', async () => {
    const db = join(fx.dir, 'term.db');
    const out = join(fx.dir, 'term');
    let sent = false;
    const res = await run(search(db, ['--out', out]), {
      onOut: (o, child) => {
        if (!sent && rowPrinted(o, 1)) {
          sent = true;
          child.kill('SIGTERM');
        }
      },
    });
    expect(res.code, res.out + res.err).toBe(130);
    expect(res.err).toContain('Stopping after the current iteration (SIGTERM again to quit now)');
    expect(res.out).toMatch(/Interrupted: the search stopped after iteration \d+; the best candidate so far was saved/);
    expect(existsSync(join(out, 'best.workflow.json'))).toBe(true);
    const runId = /Starting search (run-[\w-]+)/.exec(res.out)![1]!;
    const store = openStore(db);
    expect(store.getRun(runId).status).toBe('stopped');
    store.close();
  });

  it('refuses --resume against a store that does not exist, and creates nothing', async () => {
    const dir = join(fx.dir, 'no-store-here');
    const res = await run(['search', '--resume', 'run-x', '--db', join(dir, 'flowscout.db')]);
    expect(res.code).toBe(2);
    expect(res.err).toContain('error [NOT_FOUND]: no FlowScout store at');
    expect(existsSync(dir)).toBe(false);
  });
});

describe('the output folder is checked before the search', () => {
  it('fails at once, naming the folder, when --out cannot be written; nothing is stored as done', async () => {
    // A folder the search's user cannot write: as root (CI), the CLI runs as `nobody` on a folder it does not own.
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot ? 65534 : undefined;
    const f3 = writeSearchFixture({ records: 14 });
    chmodSync(f3.dir, 0o755);
    chmodSync(join(f3.dir, 'data'), 0o755);
    const dbDir = join(f3.dir, 'db');
    mkdirSync(dbDir);
    chmodSync(dbDir, 0o777);
    const locked = join(f3.dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    const out = join(locked, 'out');
    const res = await run(
      [
        'search',
        '--records',
        f3.records,
        '--tools',
        f3.tools,
        '--iterations',
        '2',
        '--db',
        join(dbDir, 's.db'),
        '--out',
        out,
      ],
      uid !== undefined ? { uid } : {},
    );
    expect(res.code, res.out + res.err).toBe(3);
    expect(res.err).toMatch(
      /error \[FILE_ACCESS\]: the output folder .*locked\/out cannot be written: permission denied \(EACCES/,
    );
    expect(res.err).toContain('Nothing was run.');
    expect(res.out).not.toContain('Starting search');
    expect(readdirSync(locked)).toEqual([]);
  });
});
