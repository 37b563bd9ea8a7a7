import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { writeSearchFixture } from './fixture.js';

/**
 * Crash and resume (issue #7, "Must show"): a real `flowscout search` child process is killed with
 * SIGKILL right after a randomly chosen iteration was printed (so it dies in the middle of the next
 * one), then `--resume` continues the stored run. The final best candidate, every candidate's
 * scores and the test-set figures equal those of an uninterrupted run with the same seed.
 */

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'flowscout.js');
const J = 8;

function cli(args: string[], opts: { killAfterIteration?: number } = {}): Promise<{ code: number | null; signal: string | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const k = opts.killAfterIteration;
      if (k !== undefined && new RegExp(`^ +${k} +c\\d+ → c\\d+ `, 'm').test(out)) child.kill('SIGKILL');
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
    candidates: doc.candidates.map((c: Record<string, unknown>) => ({ id: c.id, parent: c.parent, summary: c.summary, optReward: c.optReward, valScore: c.valScore, visits: c.visits, meanReward: c.meanReward, hash: c.hash })),
  };
};

describe('search resume after SIGKILL', () => {
  it('reaches the same best candidate and scores as an uninterrupted run', async () => {
    const fx = writeSearchFixture({ records: 14 });
    const args = ['search', '--records', fx.records, '--tools', fx.tools, '--seed', '11', '--iterations', String(J), '--patience', String(J)];
    const killAt = 1 + Math.floor(Math.random() * (J - 3));
    const db = join(fx.dir, 'crash.db');

    const full = await cli([...args, '--db', join(fx.dir, 'full.db'), '--out', join(fx.dir, 'full')]);
    expect(full.code, full.out).toBe(0);

    const killed = await cli([...args, '--db', db, '--out', join(fx.dir, 'crash')], { killAfterIteration: killAt });
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
    expect(scores(join(fx.dir, 'crash', 'search.json')), `killed after iteration ${killAt}`).toEqual(scores(join(fx.dir, 'full', 'search.json')));
  });
});
