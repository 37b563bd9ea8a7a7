import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, type ChildCli } from '../support/child-cli.js';
import { cli } from '../support/cli-io.js';
import { freePort } from '../support/redis-server.js';
import { testRedisUrl } from '../support/redis.js';

/**
 * `bench --redis` against a real redis-server with two `flowscout worker`s as child processes
 * (started with --tools naming the bundled domain's tools the coordinator writes for them):
 * the same searches, measured approaches and scores as the same bench in one process, with the
 * workflow evaluations done by the workers.
 */

let url: string;
let workers: ChildCli[] = [];
const queue = `t-bench-${randomBytes(3).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'flowscout-dist-bench-'));
const args = (out: string) => [
  'bench',
  '--domains',
  'Travel',
  '--max-records',
  '24',
  '--iterations',
  '1',
  '--runs',
  '2',
  '--max-test',
  '5',
  '--seed',
  '3',
  '--out',
  out,
];

beforeAll(async () => {
  url = testRedisUrl();
  // The configs bench writes for its workers (a worker loads only configs it was started with; this one is written when bench starts).
  workers = [0, 1].map(() =>
    spawnCli([
      'worker',
      '--redis',
      url,
      '--queue',
      queue,
      '--concurrency',
      '2',
      '--tools',
      join(dir, 'remote', 'worker-tools', 'Travel', 'tools.config.json'),
    ]),
  );
  await Promise.all(workers.map((w) => w.waitFor(/connected to redis:\/\//)));
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
});

/** results.json without what wall time, the output folder and the start time change. */
function comparable(out: string) {
  const r = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as { domains: unknown[] };
  return JSON.parse(JSON.stringify(r.domains, (k, v) => (k === 'searchMs' || k === 'runtimeMs' ? 0 : v))) as Array<{
    approaches: Array<{ id: string; tc: number | null; es: number; toolStats: { calls: number } }>;
    searches: unknown[];
  }>;
}

describe('bench --redis with two workers', () => {
  it('gives the same searches, approaches and scores as one process, and the workers ran the workflow evaluations', async () => {
    const local = join(dir, 'local');
    const remote = join(dir, 'remote');
    const a = await cli(args(local));
    expect(a.status).toBe(0);
    const before = workers.map((w) => (w.output().match(/ done \(/g) ?? []).length);
    const b = await cli([...args(remote), '--redis', url, '--queue', queue]);
    expect(b.err).toBe('');
    expect(b.status).toBe(0);
    // The coordinator says where the queue is and how many jobs the workers finished.
    expect(b.out).toMatch(
      /\[Travel\] evaluations on workers via the queue; workers started with --tools .*worker-tools\/Travel\/tools\.config\.json/,
    );
    expect(b.out).toMatch(/\[Travel\] jobs \d+ waiting · \d+ active · [1-9]\d* done · 0 failed · 2 workers/);
    expect(existsSync(join(remote, 'worker-tools', 'Travel', 'records.jsonl'))).toBe(true);
    const x = comparable(local);
    const y = comparable(remote);
    expect(y[0]!.approaches.map((p) => p.id)).toEqual([
      'flowscout',
      'nomcts',
      'pm4py',
      'react',
      'llm-only',
      'nominer',
      'beam',
      'noroutes',
    ]);
    expect(y[0]!.approaches.find((p) => p.id === 'flowscout')!.toolStats.calls).toBeGreaterThan(0);
    expect(y).toEqual(x);
    const after = workers.map((w) => (w.output().match(/ done \(/g) ?? []).length);
    expect(after[0]! - before[0]!).toBeGreaterThan(0);
    expect(after[1]! - before[1]!).toBeGreaterThan(0);
  });

  it('an unreachable Redis is a clear error naming the URL before anything runs', async () => {
    const port = await freePort();
    const r = await cli([...args(join(dir, 'unreachable')), '--redis', `redis://:secret@127.0.0.1:${port}`]);
    expect(r.status).toBe(3);
    expect(r.err).toContain(`cannot reach Redis at redis://:***@127.0.0.1:${port}: connection refused`);
    expect(r.err).not.toContain('secret');
    expect(existsSync(join(dir, 'unreachable', 'results.json'))).toBe(false);
  });
});
