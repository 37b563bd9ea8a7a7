import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore, type EvalJobData } from '../../src/distributed/jobs.js';
import { openRedis } from '../../src/distributed/redis-connection.js';
import { startEvaluationWorker, type EvaluationWorker } from '../../src/distributed/worker.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import { readJsonFile } from '../../src/util/json-file.js';
import { testRedisUrl } from '../support/redis.js';

/**
 * A worker trusts no job: a job in Redis names a model string and a tool config, and before, the
 * worker used them — a job naming `openai-compatible:http://<any host>/v1#m` made it send its API key
 * there, and a job naming a tool config path made it read that file (and import the module the
 * config names). Now a job only selects among what the worker was started with; anything else
 * fails once, with nothing sent and nothing read: a capturing HTTP server on loopback sees no
 * request, and a sentinel tool config's module is never imported.
 */

const FIX = join(import.meta.dirname, '../fixtures/records/eval');
const KEY = `sk-worker-own-key-${randomBytes(6).toString('hex')}`;
const queueName = `t-trust-${randomBytes(3).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'flowscout-trust-'));
const marker = join(dir, 'imported.marker');
const sentinel = join(dir, 'sentinel.config.json');
const otherConfig = join(dir, 'other.config.json');
let url: string;
let capture: Server;
let captured: Array<{ url: string; authorization: string | undefined }> = [];
let worker: EvaluationWorker;
let queue: Queue;
let events: QueueEvents;
const redis = () => openRedis(url);

beforeAll(async () => {
  url = testRedisUrl();
  capture = createServer((req, res) => {
    captured.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
  // A tool config that imports a module writing a marker file: loading it at all would leave the marker.
  writeFileSync(
    join(dir, 'sentinel.mjs'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'imported');\nexport const tools = [];\n`,
  );
  writeFileSync(
    sentinel,
    JSON.stringify({
      version: 1,
      sources: [{ type: 'functions', module: './sentinel.mjs' }],
      note: 'SENTINEL-CONTENT',
    }),
  );
  writeFileSync(
    otherConfig,
    JSON.stringify({
      version: 1,
      sources: [{ type: 'replay', records: join(FIX, 'records.jsonl'), tools: join(FIX, 'tools.json') }],
    }),
  );
  worker = await startEvaluationWorker({
    url,
    queue: queueName,
    concurrency: 1,
    tools: [join(FIX, 'tools.config.json'), otherConfig],
    env: { OPENAI_COMPATIBLE_API_KEY: KEY },
    name: 'trust',
  });
  queue = new Queue(queueName, { connection: redis() });
  events = new QueueEvents(queueName, { connection: redis() });
  await events.waitUntilReady();
});

afterAll(async () => {
  await worker?.close();
  await events?.close();
  await queue?.close();
  await new Promise((r) => capture?.close(r));
});

/** A well-formed job on the eval fixture, with `change` applied; resolves with the finished (or failed) job. */
async function runJob(change: Partial<EvalJobData>): Promise<Job> {
  const conn = redis();
  const blobs = createBlobStore(conn);
  const { records } = await readRecordsFile(join(FIX, 'records.jsonl'));
  const data: EvalJobData = {
    v: 1,
    run: `trust-${randomBytes(3).toString('hex')}`,
    workflow: await blobs.put(readJsonFile(join(FIX, 'workflow.json'))),
    workflowHash: 'x',
    records: [await blobs.put(records[0])],
    policy: { model: 'offline' },
    judge: 'offline',
    memo: false,
    ...change,
  };
  conn.disconnect();
  const job = await queue.add('eval', data, { attempts: 3, backoff: { type: 'fixed', delay: 50 } });
  await job.waitUntilFinished(events).catch(() => undefined);
  return (await Job.fromId(queue, job.id!))!;
}

describe('a worker trusts no job', () => {
  it('a job naming a model URL the worker was not started with fails once and sends nothing there', async () => {
    const port = (capture.address() as AddressInfo).port;
    captured = [];
    const job = await runJob({
      policy: { model: `openai-compatible:http://127.0.0.1:${port}/v1#m` },
      judge: `openai-compatible:http://127.0.0.1:${port}/v1#m`,
    });
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    const reason = JSON.parse(job.failedReason) as { code: string; message: string; hint: string };
    expect(reason.code).toBe('QUEUE_ERROR');
    expect(reason.message).toMatch(
      /^the job's policy model 'openai-compatible:http:\/\/127\.0\.0\.1:\d+\/v1#m' is not one worker trust was started with \(offline\)$/,
    );
    expect(reason.hint).toContain('--model');
    expect(captured).toEqual([]);
  });

  it('a job naming a tool config the worker was not started with fails once and reads nothing', async () => {
    const job = await runJob({ toolsHint: sentinel });
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain(`the job's tool config '${sentinel}' is not one worker trust was started with`);
    expect(job.failedReason).not.toContain('SENTINEL-CONTENT');
    expect(existsSync(marker)).toBe(false);
    // Nor a system file: its content never comes back in the failure.
    const passwd = await runJob({ toolsHint: '/etc/passwd' });
    expect(passwd.attemptsMade).toBe(1);
    expect(passwd.failedReason).not.toMatch(/root:/);
  });

  it('a job selecting one of its own tool configs runs', async () => {
    const job = await runJob({ toolsHint: otherConfig });
    expect(await job.getState()).toBe('completed');
    expect((job.returnvalue as { runs: unknown[] }).runs).toHaveLength(1);
  });
});
