import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecordsFile } from '../../src/records/read-records.js';
import type { TaskRecord } from '../../src/records/schema.js';
import { spawnCli, type ChildCli } from '../support/child-cli.js';
import { cli } from '../support/cli-io.js';
import { freePort } from '../support/redis-server.js';
import { testRedisUrl } from '../support/redis.js';
import { startTestLlmServer, type TestLlmServer } from '../support/llm-server.js';

/**
 * `eval --redis` against a real redis-server with `flowscout worker`s as child processes: a worker
 * killed in the middle of a job does not change the result (the job goes back to the queue after
 * the lock timeout and another worker runs it), a job that cannot succeed is not retried, and an
 * unreachable Redis is a clear error naming the URL.
 */

const FIX = join(import.meta.dirname, '../fixtures/records/eval');
const evalArgs = (tools = join(FIX, 'tools.config.json'), workflow = join(FIX, 'workflow.json')) => [
  'eval',
  workflow,
  '--records',
  join(FIX, 'records.jsonl'),
  '--tools',
  tools,
  '--json',
];
let url: string;
let records: TaskRecord[];
let server: TestLlmServer;
const started: ChildCli[] = [];
const spawnWorker = (queue: string, extra: string[] = []) => {
  const w = spawnCli(['worker', '--redis', url, '--queue', queue, ...extra]);
  started.push(w);
  return w;
};

beforeAll(async () => {
  url = testRedisUrl();
  records = (await readRecordsFile(join(FIX, 'records.jsonl'))).records;
  const recordIn = (body: unknown): TaskRecord => records.find((r) => JSON.stringify(body).includes(r.query))!;
  // A model that plans each record's reference calls and answers with its reference, 300 ms per request.
  server = await startTestLlmServer({
    script: async (req) => {
      await new Promise((r) => setTimeout(r, 300));
      const rec = recordIn(req.body);
      if (req.body.response_format) return { json: { calls: rec.calls.map(({ tool, args }) => ({ tool, args })) } };
      return { text: rec.reference };
    },
  });
});

afterAll(async () => {
  await Promise.all(started.map((w) => w.stop('SIGKILL')));
  await server?.close();
});

describe('eval --redis', () => {
  it('a worker killed mid-job does not change the result: another worker runs the job again after the lock timeout', async () => {
    const queue = `t-kill-${randomBytes(3).toString('hex')}`;
    const model = server.spec('planner');
    const local = await cli([...evalArgs(), '--model', model]);
    expect(local.status).toBe(0);

    const victim = spawnWorker(queue, [
      '--tools',
      join(FIX, 'tools.config.json'),
      '--model',
      model,
      '--concurrency',
      '1',
      '--lock-ms',
      '1500',
    ]);
    await victim.waitFor(/connected to redis/);
    const remote = cli([...evalArgs(), '--model', model, '--redis', url, '--queue', queue]);
    const [, jobId] = await victim.waitFor(/job (fs-[0-9a-f]+) started/);
    victim.child.kill('SIGKILL');
    await victim.exited;
    expect(victim.output()).not.toContain(`job ${jobId} done`);
    // The survivor starts after the kill, so every job it finishes — the killed one included — it ran itself.
    // A long lock of its own, so a busy machine cannot make the survivor's own jobs look stalled.
    const survivor = spawnWorker(queue, [
      '--tools',
      join(FIX, 'tools.config.json'),
      '--model',
      model,
      '--concurrency',
      '2',
      '--lock-ms',
      '5000',
    ]);
    const res = await remote;
    expect(res.err).toBe('');
    expect(res.status).toBe(0);
    // Its log line may trail the result the coordinator already has.
    await survivor.waitFor(new RegExp(`job ${jobId} done`));
    expect(survivor.output()).toMatch(
      new RegExp(`job ${jobId} stalled[\\s\\S]*job ${jobId} started[\\s\\S]*job ${jobId} done`),
    );
    const a = JSON.parse(local.out);
    const b = JSON.parse(res.out);
    expect(b.records).toEqual(a.records);
    expect(b.tc).toBe(a.tc);
    expect(b.es).toBe(a.es);
    expect(b.tc).toBe(1);
    // Each record counted once: three jobs done, none failed.
    expect(b.distributed).toMatchObject({ jobsDone: 3, jobsFailed: 0 });
    expect(b.toolStats).toMatchObject({ calls: a.toolStats.calls, replayHits: a.toolStats.replayHits });
  });

  it('a job that fails for a reason that will not change (a tool the worker does not have) fails once, naming the reason', async () => {
    const queue = `t-perm-${randomBytes(3).toString('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'fs-dist-'));
    // The worker's tools lack hotel_details_for_booking, which the workflow's tool node asks for.
    const tools = JSON.parse(readFileSync(join(FIX, 'tools.json'), 'utf8')) as Array<{ name: string }>;
    writeFileSync(join(dir, 'tools.json'), JSON.stringify(tools.filter((t) => t.name !== 'hotel_details_for_booking')));
    copyFileSync(join(FIX, 'records.jsonl'), join(dir, 'records.jsonl'));
    writeFileSync(join(dir, 'tools.config.json'), readFileSync(join(FIX, 'tools.config.json')));
    const workflow = JSON.parse(readFileSync(join(FIX, 'workflow.json'), 'utf8')) as {
      nodes: Array<Record<string, unknown>>;
    };
    for (const n of workflow.nodes) if (n.kind === 'tool') n.tools = ['hotel_details_for_booking'];
    writeFileSync(join(dir, 'workflow.json'), JSON.stringify(workflow));

    const worker = spawnWorker(queue, ['--tools', join(dir, 'tools.config.json'), '--concurrency', '2']);
    await worker.waitFor(/connected to redis/);
    const res = await cli([
      ...evalArgs(join(FIX, 'tools.config.json'), join(dir, 'workflow.json')),
      '--redis',
      url,
      '--queue',
      queue,
    ]);
    expect(res.status).toBe(2);
    expect(res.err).toContain('error [INVALID_WORKFLOW]');
    expect(res.err).toMatch(
      /evaluation job fs-[0-9a-f]+ failed after 1 attempt: the workflow is not valid with worker .+'s tools/,
    );
    expect(res.err).toContain('hotel_details_for_booking');
    expect(res.err).toContain("every worker's --tools config");
    expect(worker.output()).toMatch(/failed \(attempt 1 of 3\)/);
    expect(worker.output()).not.toMatch(/attempt 2 of 3/);
  });

  it('an unreachable Redis is a clear error naming the URL (password hidden), not a hang — for eval and for a worker', async () => {
    const port = await freePort();
    const dead = `redis://:s3cret@127.0.0.1:${port}`;
    const res = await cli([...evalArgs(), '--redis', dead]);
    expect(res.status).toBe(3);
    expect(res.err).toContain(
      `error [QUEUE_ERROR]: cannot reach Redis at redis://:***@127.0.0.1:${port}: connection refused`,
    );
    expect(res.err).toContain('apt-get install -y redis-server');
    expect(res.err).not.toContain('s3cret');
    const worker = spawnCli(['worker', '--redis', dead, '--tools', join(FIX, 'tools.config.json')]);
    started.push(worker);
    expect(await worker.exited).toBe(3);
    expect(worker.output()).toContain(`cannot reach Redis at redis://:***@127.0.0.1:${port}`);
    const bad = await cli([...evalArgs(), '--redis', 'http://127.0.0.1:6379']);
    expect(bad.status).toBe(2);
    expect(bad.err).toContain('--redis must start with redis:// or rediss://');
  });
});
