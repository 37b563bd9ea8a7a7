import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { openStore } from '../../src/store/open-store.js';
import { spawnCli, type ChildCli } from '../support/child-cli.js';
import { captureIO } from '../support/cli-io.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { writeSearchFixture } from '../search/fixture.js';

/**
 * `search --redis` whose Redis dies mid-run stops as `eval --redis` does: the run is stored as
 * `failed` with the lost-Redis error, the message says how to resume, the exit status is not 0,
 * and `--resume` (once Redis is back) redoes the iteration that was lost and ends with the
 * uninterrupted run's search.json. Before, every remaining iteration was stored as an `invalid`
 * candidate carrying the queue's error, so a resumed run had nothing left to do and the lost
 * candidates were gone for good.
 */

const started: ChildCli[] = [];
const servers: TestRedis[] = [];

afterAll(async () => {
  for (const c of started) if (c.child.exitCode === null && c.child.signalCode === null) await c.stop('SIGKILL');
  for (const r of servers) await r.stop().catch(() => undefined);
});

/** search.json without the run id and the memo's savings (the memo in Redis went with it). */
function searchJson(out: string) {
  const {
    run: _run,
    savings: _savings,
    ...rest
  } = JSON.parse(readFileSync(join(out, 'search.json'), 'utf8')) as Record<string, unknown>;
  return rest;
}

describe('search --redis that loses Redis', () => {
  it('stops with the run stored as failed, and --resume redoes what was lost', async () => {
    const fx = writeSearchFixture({ records: 16 });
    const queue = `t-lost-search-${randomBytes(3).toString('hex')}`;
    const base = ['search', '--records', fx.records, '--tools', fx.tools, '--seed', '3', '--iterations', '5'];
    const args = [...base, '--patience', '5'];

    // The uninterrupted run, in one process.
    const local = join(fx.dir, 'local');
    const io = captureIO();
    expect(await runCli([...args, '--json', '--out', local, '--db', join(fx.dir, 'local.db')], io)).toBe(0);

    const redis = await startTestRedis();
    servers.push(redis);
    const worker = () => {
      const w = spawnCli(['worker', '--redis', redis.url, '--queue', queue, '--tools', fx.tools]);
      started.push(w);
      return w;
    };
    const first = worker();
    await first.waitFor(/connected to redis:\/\//);
    const db = join(fx.dir, 'remote.db');
    const remote = join(fx.dir, 'remote');
    const coordinator = spawnCli([...args, '--out', remote, '--db', db, '--redis', redis.url, '--queue', queue], {
      FLOWSCOUT_REDIS_LOST_MS: '2000',
    });
    started.push(coordinator);
    const [, runId] = await coordinator.waitFor(/Starting search (run-\d{8}-\d{6}-[0-9a-f]{4})/);
    await coordinator.waitFor(/^ +1 +c\d+ → c\d+ /m);
    // No worker takes the next iteration's jobs, and then Redis goes away for good.
    expect(await first.stop()).toBe(0);
    await redis.stop();

    // The test's own time limit is the measure: before, the coordinator went on storing invalid candidates.
    const status = await coordinator.exited;
    const out = coordinator.output();
    expect(status).toBe(3);
    expect(out).toContain(`error [QUEUE_ERROR]: lost Redis at ${redis.url}: unreachable for`);
    expect(out).toContain(`the run is stored as failed and resumes with: flowscout search --resume ${runId}`);
    expect(out).not.toMatch(/^ +2 +c\d+ → c\d+ /m);
    let store = openStore(db, { readOnly: true });
    try {
      const run = store.getRun(runId!);
      expect(run.status).toBe('failed');
      expect(run.stopReason).toMatch(/^lost Redis at /);
      expect(run.iterationsDone).toBe(1);
      expect(store.loadCandidates(runId!).map((c) => c.error ?? '')).not.toContainEqual(
        expect.stringContaining('Redis'),
      );
    } finally {
      store.close();
    }

    // Redis comes back where it was; a worker takes the jobs again.
    servers.push(await startTestRedis({ port: redis.port }));
    await worker().waitFor(/connected to redis:\/\//);
    const resumed = captureIO();
    const code = await runCli(
      ['search', '--resume', runId!, '--db', db, '--json', '--redis', redis.url, '--queue', queue, '--force'],
      resumed,
    );
    expect(resumed.errors()).toBe('');
    expect(code).toBe(0);
    expect(searchJson(remote)).toEqual(searchJson(local));
    store = openStore(db, { readOnly: true });
    try {
      expect(store.getRun(runId!)).toMatchObject({ status: 'done', iterationsDone: 5 });
    } finally {
      store.close();
    }
  }, 300_000);
});
