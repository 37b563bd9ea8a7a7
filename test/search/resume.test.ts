import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { writeSearchFixture } from './fixture.js';

/**
 * Crash and resume (docs/DESIGN.md, "Search": a run resumes after a crash): a real `flowscout search` child process is killed with
 * SIGKILL right after a randomly chosen iteration was printed (so it dies in the middle of the next
 * one), then `--resume` continues the stored run. The final best candidate, every candidate's
 * scores and the test-set figures equal those of an uninterrupted run with the same seed.
 */

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'flowscout.js');
const J = 8;

/** Runs the CLI; with `signalAfter`, sends that signal once iteration `at`'s row is printed (once). */
function cli(
  args: string[],
  opts: { signalAfter?: { at: number; signal: NodeJS.Signals } } = {},
): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const when = opts.signalAfter;
      if (when && !sent && new RegExp(`^ +${when.at} +c\\d+ → c\\d+ `, 'm').test(out)) {
        sent = true;
        child.kill(when.signal);
      }
    });
    child.stderr.on('data', (d: Buffer) => void (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out: out + err }));
  });
}

const scores = (file: string) => {
  const doc = JSON.parse(readFileSync(file, 'utf8'));
  return {
    best: doc.best,
    test: doc.test,
    candidates: doc.candidates.map((c: Record<string, unknown>) => ({
      id: c.id,
      parent: c.parent,
      summary: c.summary,
      optReward: c.optReward,
      valScore: c.valScore,
      visits: c.visits,
      meanReward: c.meanReward,
      hash: c.hash,
    })),
  };
};

const fx = writeSearchFixture({ records: 14 });
const args = [
  'search',
  '--records',
  fx.records,
  '--tools',
  fx.tools,
  '--seed',
  '11',
  '--iterations',
  String(J),
  '--patience',
  String(J),
];

beforeAll(async () => {
  const full = await cli([...args, '--db', join(fx.dir, 'full.db'), '--out', join(fx.dir, 'full')]);
  expect(full.code, full.out).toBe(0);
});

describe('search resume after SIGKILL', () => {
  it('reaches the same best candidate and scores as an uninterrupted run', async () => {
    const killAt = 1 + Math.floor(Math.random() * (J - 3));
    const db = join(fx.dir, 'crash.db');

    const killed = await cli([...args, '--db', db, '--out', join(fx.dir, 'crash')], {
      signalAfter: { at: killAt, signal: 'SIGKILL' },
    });
    expect(killed.signal, `killed after iteration ${killAt}: ${killed.out}`).toBe('SIGKILL');
    const runId = /Starting search (run-[\w-]+)/.exec(killed.out)![1]!;
    const store = openStore(db);
    const stored = store.getRun(runId);
    store.close();
    expect(stored.status).toBe('running');
    expect(stored.iterationsDone).toBeGreaterThanOrEqual(killAt);
    expect(stored.iterationsDone).toBeLessThan(J);

    const resumed = await cli(['search', '--resume', runId, '--db', db]);
    expect(resumed.code, resumed.out).toBe(0);
    expect(resumed.out).toContain(`Resuming search ${runId}`);
    expect(scores(join(fx.dir, 'crash', 'search.json')), `killed after iteration ${killAt}`).toEqual(
      scores(join(fx.dir, 'full', 'search.json')),
    );
  });
});

describe('search interrupted with Ctrl-C (SIGINT)', () => {
  it('stops before the next iteration with exit 130, writes the best so far, says how to resume, and resumes to the same result', async () => {
    const db = join(fx.dir, 'interrupt.db');
    const out = join(fx.dir, 'interrupt');
    const at = 2;
    const stopped = await cli([...args, '--db', db, '--out', out], { signalAfter: { at, signal: 'SIGINT' } });
    expect(stopped.code, stopped.out).toBe(130);
    const runId = /Starting search (run-[\w-]+)/.exec(stopped.out)![1]!;
    expect(stopped.out).toContain('Stopping after the current iteration (Ctrl-C again to quit now)');
    const done = Number(
      /Interrupted: the search stopped after iteration (\d+); the best candidate so far was saved\. Continue with: flowscout search --resume (run-[\w-]+) --db /.exec(
        stopped.out,
      )?.[1],
    );
    expect(done).toBeGreaterThanOrEqual(at);
    expect(done).toBeLessThan(J);
    const partial = JSON.parse(readFileSync(join(out, 'search.json'), 'utf8'));
    expect(partial.candidates).toHaveLength(done + 1);
    expect(partial.stopReason).toBe(`interrupted after iteration ${done}`);
    const store = openStore(db);
    expect(store.getRun(runId)).toMatchObject({ status: 'stopped', iterationsDone: done });
    store.close();
    const shown = await cli(['runs', 'show', runId, '--db', db]);
    expect(shown.out).toContain(`Run ${runId} (stopped: interrupted after iteration ${done})`);
    expect(shown.out).toContain(`continue it with: flowscout search --resume ${runId} --db ${db}`);

    const resumed = await cli(['search', '--resume', runId, '--db', db]);
    expect(resumed.code, resumed.out).toBe(0);
    expect(scores(join(out, 'search.json'))).toEqual(scores(join(fx.dir, 'full', 'search.json')));
  });
});
