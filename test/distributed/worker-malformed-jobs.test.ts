import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../../src/distributed/jobs.js';
import { openRedis } from '../../src/distributed/redis-connection.js';
import { startEvaluationWorker, type EvaluationWorker } from '../../src/distributed/worker.js';
import { fromErrorShape } from '../../src/errors/index.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import { readJsonFile } from '../../src/util/json-file.js';
import { testRedisUrl } from '../support/redis.js';

/**
 * A job whose data is not an evaluation job of this version (anything can write to the queue) fails
 * once with QUEUE_ERROR saying what is wrong with it: the JSON path and the shape expected there.
 * Before, the worker ran it until something broke — `hash.slice is not a function` — and reported
 * that as INTERNAL, "a bug in FlowScout". A job from a coordinator that predates the removal of
 * `--learn-from` (it names records for the offline policy to learn from) is refused with what to
 * do, instead of being run without them.
 */

const FIX = join(import.meta.dirname, '../fixtures/records/eval');
const queueName = `t-malformed-${randomBytes(3).toString('hex')}`;
const logs: string[] = [];
let url: string;
let worker: EvaluationWorker;
let queue: Queue;
let events: QueueEvents;
let good: Record<string, unknown>;

beforeAll(async () => {
  url = testRedisUrl();
  worker = await startEvaluationWorker({
    url,
    queue: queueName,
    concurrency: 1,
    tools: join(FIX, 'tools.config.json'),
    env: {},
    name: 'malformed',
    log: (l) => logs.push(l),
  });
  queue = new Queue(queueName, { connection: openRedis(url) });
  events = new QueueEvents(queueName, { connection: openRedis(url) });
  await events.waitUntilReady();
  const conn = openRedis(url);
  const blobs = createBlobStore(conn);
  const { records } = await readRecordsFile(join(FIX, 'records.jsonl'));
  good = {
    v: 1,
    run: `malformed-${randomBytes(3).toString('hex')}`,
    workflow: await blobs.put(readJsonFile(join(FIX, 'workflow.json'))),
    workflowHash: 'x',
    records: [await blobs.put(records[0])],
    policy: { model: 'offline' },
    judge: 'offline',
    memo: false,
  };
  conn.disconnect();
});

afterAll(async () => {
  await worker?.close();
  await events?.close();
  await queue?.close();
});

/** Adds `data` as a job (3 attempts allowed) and returns it once it finished or failed. */
async function run(data: unknown): Promise<Job> {
  const job = await queue.add('evaluate', data, { attempts: 3, backoff: { type: 'fixed', delay: 50 } });
  await job.waitUntilFinished(events).catch(() => undefined);
  return (await Job.fromId(queue, job.id!))!;
}

describe('a worker given a malformed job', () => {
  it('fails it once with what is wrong, by JSON path, not as a bug', async () => {
    const job = await run({ ...good, records: [5] });
    expect(await job.getState()).toBe('failed');
    expect(job.attemptsMade).toBe(1);
    const e = fromErrorShape(job.failedReason);
    expect(e.code).toBe('QUEUE_ERROR');
    expect(e.message).toBe(
      `job ${job.id} is not a valid FlowScout evaluation job: $.records[0]: must be a string, found number 5`,
    );
    expect(e.location).toEqual({ path: '$.records[0]' });
    expect(e.hint).toContain('same version');
    // The worker's own log says the same, and it goes on taking jobs.
    expect(logs.join('\n')).toContain(
      `job ${job.id!.slice(0, 11)} failed (attempt 1 of 3): $.records[0]: job ${job.id} is not a valid FlowScout evaluation job`,
    );
    expect(await (await run(good)).getState()).toBe('completed');
  });

  it('names every field that breaks the shape a job must have', async () => {
    const several = await run({ ...good, memo: 'yes', policy: {} });
    expect(several.attemptsMade).toBe(1);
    expect(fromErrorShape(several.failedReason).message).toBe(
      `job ${several.id} is not a valid FlowScout evaluation job: $.policy.model: is required (a string); $.memo: must be a boolean, found string "yes"`,
    );
    const notSha = await run({ ...good, workflow: 'not-a-hash' });
    expect(notSha.attemptsMade).toBe(1);
    expect(fromErrorShape(notSha.failedReason).message).toMatch(
      /: \$\.workflow: must be a sha256 key \(64 hex digits\) of content in Redis$/,
    );
    const none = await run(null);
    expect(fromErrorShape(none.failedReason)).toMatchObject({
      code: 'QUEUE_ERROR',
      message: `job ${none.id} is not a valid FlowScout evaluation job: $: must be an object, found null`,
    });
  });

  it('refuses a job that asks the offline policy to learn from records, with what to do', async () => {
    const job = await run({ ...good, policy: { model: 'offline', learnFrom: (good.records as string[])[0] } });
    expect(job.attemptsMade).toBe(1);
    const e = fromErrorShape(job.failedReason);
    expect(e.code).toBe('QUEUE_ERROR');
    expect(e.message).toBe(
      `job ${job.id} asks the offline policy to learn from records ($.policy.learnFrom), which this FlowScout no longer does: policies learn from no records`,
    );
    expect(e.hint).toContain('without --learn-from');
    expect(e.location).toEqual({ path: '$.policy.learnFrom' });
  });
});
