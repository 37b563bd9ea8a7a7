import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, type ChildCli } from '../support/child-cli.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';

/**
 * A worker whose Redis has gone away still stops on SIGTERM (before, it retried forever, printing
 * `connect ECONNREFUSED` every second, and only SIGKILL ended it), and says once that Redis is
 * unreachable instead of once a second.
 */

const FIX = join(import.meta.dirname, '../fixtures/records/eval');
const started: ChildCli[] = [];
let redis: TestRedis | undefined;

afterAll(async () => {
  for (const c of started) if (c.child.exitCode === null && c.child.signalCode === null) await c.stop('SIGKILL');
  await redis?.stop().catch(() => undefined);
});

describe('a worker whose Redis has gone away', () => {
  it('stops on SIGTERM', async () => {
    redis = await startTestRedis();
    const worker = spawnCli([
      'worker',
      '--redis',
      redis.url,
      '--tools',
      join(FIX, 'tools.config.json'),
      '--queue',
      'gone',
    ]);
    started.push(worker);
    await worker.waitFor(/connected to redis/, 60_000);
    await redis.stop();
    redis = undefined;
    await worker.waitFor(/Redis is unreachable; retrying/, 60_000);
    // A few more seconds of a dead Redis: the line is not repeated every second.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(worker.output().match(/ECONNREFUSED/g)?.length ?? 0).toBeLessThanOrEqual(2);
    worker.child.kill('SIGTERM');
    // The test's own time limit is the measure: before, it never ended.
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain('stopped after 0 job(s)');
  }, 90_000);
});
