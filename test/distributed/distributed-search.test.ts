import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { spawnCli, type ChildCli } from '../support/child-cli.js';
import { captureIO } from '../support/cli-io.js';
import { openStore } from '../../src/store/open-store.js';
import { runSummary } from '../../src/ui/server/read-model.js';
import { testRedisUrl } from '../support/redis.js';
import { writeSearchFixture, type SearchFixture } from '../search/fixture.js';

/**
 * `search --redis` against a real redis-server with `flowscout worker`s as child processes: the
 * same candidates, scores and best workflow as the same seed in one process, also when the
 * coordinator is killed mid-run and the run is resumed.
 */

let url: string;
let fx: SearchFixture;
let workers: ChildCli[] = [];
const queue = `t-search-${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  url = testRedisUrl();
  fx = writeSearchFixture({ records: 16 });
  workers = [0, 1].map(() =>
    spawnCli(['worker', '--redis', url, '--queue', queue, '--tools', fx.tools, '--concurrency', '2']),
  );
  await Promise.all(workers.map((w) => w.waitFor(/connected to redis:\/\//)));
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

const base = () => [
  'search',
  '--records',
  fx.records,
  '--tools',
  fx.tools,
  '--seed',
  '3',
  '--iterations',
  '5',
  '--patience',
  '5',
  '--json',
];

/** search.json without the run id, and the best workflow without the run id in its meta. */
function resultOf(out: string) {
  const doc = JSON.parse(readFileSync(join(out, 'search.json'), 'utf8')) as Record<string, unknown>;
  const best = JSON.parse(readFileSync(join(out, 'best.workflow.json'), 'utf8')) as { meta?: Record<string, unknown> };
  const { run: _run, ...rest } = doc;
  return { doc: rest, best: JSON.stringify(best).replace(/run-\d{8}-\d{6}-[0-9a-f]{4}/g, '<run>') };
}

async function search(args: string[], stderr = '') {
  const io = captureIO();
  const status = await runCli(args, io);
  expect(io.errors()).toBe(stderr);
  expect(status).toBe(0);
  return JSON.parse(io.text()) as { run: string; best: string; savings?: { nodeRunsSaved: number } };
}

describe('search --redis with two workers', () => {
  it('gives the same search.json candidates, best workflow and test scores as one process, and the workers did the runs', async () => {
    const local = join(fx.dir, 'local');
    const remote = join(fx.dir, 'remote');
    await search([...base(), '--out', local, '--db', join(fx.dir, 'a.db')]);
    const before = workers.map((w) => (w.output().match(/ done \(/g) ?? []).length);
    const json = await search([
      ...base(),
      '--out',
      remote,
      '--db',
      join(fx.dir, 'a.db'),
      '--redis',
      url,
      '--queue',
      queue,
    ]);
    const a = resultOf(local);
    const b = resultOf(remote);
    expect((b.doc.candidates as unknown[]).length).toBe(6);
    expect(b.doc.candidates).toEqual(a.doc.candidates);
    expect(b.doc.best).toBe(a.doc.best);
    expect(b.doc.test).toEqual(a.doc.test);
    expect(b.best).toBe(a.best);
    // The shared memo in Redis saved as much as the in-process memo.
    expect(b.doc.savings).toEqual(a.doc.savings);
    expect(json.savings!.nodeRunsSaved).toBeGreaterThan(0);
    // Both workers took jobs.
    const after = workers.map((w) => (w.output().match(/ done \(/g) ?? []).length);
    expect(after[0]! - before[0]!).toBeGreaterThan(0);
    expect(after[1]! - before[1]!).toBeGreaterThan(0);
    // The stored run (and with it the web UI's run page) shows the workers' queue.
    const store = openStore(join(fx.dir, 'a.db'));
    try {
      const shown = runSummary(store, store.getRun(json.run), undefined);
      expect(shown.queue).toMatchObject({ failed: 0, workers: 2 });
      expect(shown.queue!.done).toBeGreaterThan(0);
      const localRun = store.listRuns().find((r) => r.id !== json.run)!;
      expect(runSummary(store, localRun, undefined).queue).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('a coordinator killed mid-run is resumed with --resume and ends with the same result', async () => {
    const db = join(fx.dir, 'k.db');
    const local = join(fx.dir, 'k-local');
    const remote = join(fx.dir, 'k-remote');
    await search([...base(), '--out', local, '--db', join(fx.dir, 'kl.db')]);
    const args = base().filter((a) => a !== '--json');
    const coordinator = spawnCli([...args, '--out', remote, '--db', db, '--redis', url, '--queue', queue]);
    const [, runId] = await coordinator.waitFor(/Starting search (run-\d{8}-\d{6}-[0-9a-f]{4})/);
    // Killed (no chance to clean up) once the first iteration is stored, before the search ends.
    await coordinator.waitFor(/^ +1 +c\d+ → c\d+ /m);
    coordinator.child.kill('SIGKILL');
    await coordinator.exited;
    expect(coordinator.output()).not.toMatch(/Best candidate|search ended/i);
    // The killed coordinator's run lock is taken over (it names the dead process).
    const resumed = await search(
      ['search', '--resume', runId!, '--db', db, '--json', '--redis', url, '--queue', queue, '--force'],
      `run ${runId} was held by pid ${coordinator.pid} on ${hostname()}, which is gone; this process takes it over`,
    );
    expect(resumed.run).toBe(runId);
    const a = resultOf(local);
    const b = resultOf(remote);
    expect(b.doc.candidates).toEqual(a.doc.candidates);
    expect(b.doc.best).toBe(a.doc.best);
    expect(b.doc.test).toEqual(a.doc.test);
    expect(b.best).toBe(a.best);
  });
});
