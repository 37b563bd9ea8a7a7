import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueueRunner } from '../../src/distributed/queue-runner.js';
import { jobFailure } from '../../src/distributed/job-trust.js';
import { startEvaluationWorker, type EvaluationWorker } from '../../src/distributed/worker.js';
import { ERROR_CODES, FlowScoutError, fromErrorShape, isFlowScoutError, RETRYABLE } from '../../src/errors/index.js';
import { prepareWorkflow } from '../../src/graph/prepare.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import type { TaskRecord } from '../../src/records/schema.js';
import { readJsonFile } from '../../src/util/json-file.js';
import { testRedisUrl } from '../support/redis.js';

/**
 * A worker's error crosses Redis as data: the coordinator gets the worker's code, hint and location
 * (not a "CODE: message" string parsed back), and whether a job is retried comes from the one
 * per-code table `RETRYABLE` (errors/codes.ts) on both sides — a bug (INTERNAL) fails once.
 */

const FIX = join(import.meta.dirname, '../fixtures/records/eval');
let url: string;
let records: TaskRecord[];
const logs: string[] = [];
let worker: EvaluationWorker;
const queue = `t-errors-${randomBytes(3).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'fs-dist-err-'));

beforeAll(async () => {
  url = testRedisUrl();
  records = (await readRecordsFile(join(FIX, 'records.jsonl'))).records;
  // Two tool configs (a job selects one by `toolsHint`); the broken one is written after the worker started, so it is loaded when a job selects it.
  worker = await startEvaluationWorker({
    url,
    queue,
    concurrency: 1,
    name: 'errors',
    tools: [join(FIX, 'tools.config.json'), join(dir, 'tools.config.json')],
    env: {},
    log: (l) => logs.push(l),
  });
});

afterAll(async () => {
  await worker?.close();
});

const workflow = () => prepareWorkflow(readJsonFile(join(FIX, 'workflow.json')));
const attemptsOf = (id: string) => logs.filter((l) => l.startsWith(`job ${id.slice(0, 11)} failed`)).length;

async function failureOf(run: Promise<unknown>): Promise<FlowScoutError> {
  const e = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!isFlowScoutError(e)) throw new Error(`expected a FlowScoutError, got ${String(e)}`);
  return e;
}

describe('worker errors as data (real Redis)', () => {
  it("reach the coordinator with the worker's code, hint and location, and a permanent one fails once", async () => {
    copyFileSync(join(FIX, 'records.jsonl'), join(dir, 'records.jsonl'));
    copyFileSync(join(FIX, 'tools.json'), join(dir, 'tools.json'));
    // A tool config the worker cannot parse: PARSE_ERROR at line 2 of that file, with a hint.
    const config = join(dir, 'tools.config.json');
    writeFileSync(config, '{ "version": 1,\n  "sources": [ { "type": "replay", } ] }\n');
    const runner = await createQueueRunner({
      url,
      queue,
      run: `e-${randomBytes(3).toString('hex')}`,
      policy: { model: 'offline' },
      judge: 'offline',
      memo: false,
      toolsHint: config,
      pollMs: 200,
    });
    try {
      const e = await failureOf(runner.runRecords({ workflow: workflow(), records: records.slice(0, 1) }));
      expect(e.code).toBe('PARSE_ERROR');
      expect(e.location?.file).toBe(config);
      expect(e.location?.line).toBe(2);
      expect(e.hint).toBeTruthy();
      expect(e.hint).not.toBe("See the worker's output for details.");
      expect(e.message).toMatch(/^evaluation job fs-[0-9a-f]+ failed after 1 attempt: /);
      expect(e.message).not.toMatch(/PARSE_ERROR:/);
      const id = /job (fs-[0-9a-f]+)/.exec(e.message)![1]!;
      expect(attemptsOf(id)).toBe(1);
    } finally {
      await runner.close();
    }
  });

  it('a well-formed job that fails with an internal error (a bug) is not retried as if transient', async () => {
    const runner = await createQueueRunner({
      url,
      queue,
      run: `e-${randomBytes(3).toString('hex')}`,
      policy: { model: 'offline' },
      judge: 'offline',
      memo: false,
      toolsHint: join(FIX, 'tools.config.json'),
      pollMs: 200,
    });
    try {
      // A record whose reference calls are not a list: scoring it throws a TypeError in the worker.
      const broken = { ...records[0]!, calls: 7 } as unknown as TaskRecord;
      const e = await failureOf(runner.runRecords({ workflow: workflow(), records: [broken] }));
      expect(e.code).toBe('INTERNAL');
      expect(e.message).toMatch(/failed after 1 attempt: Unexpected error: /);
      expect(e.hint).toContain('bug');
      expect(attemptsOf(/job (fs-[0-9a-f]+)/.exec(e.message)![1]!)).toBe(1);
    } finally {
      await runner.close();
    }
  });
});

describe('retry decisions come from one table', () => {
  it.each(ERROR_CODES)(
    '%s: the worker fails the job for good exactly when RETRYABLE says so, and the coordinator reads the same code back',
    (code) => {
      const thrown = jobFailure(
        new FlowScoutError({ code, message: 'm', hint: 'h', location: { file: 'f.json', line: 3 } }),
      );
      expect(thrown instanceof UnrecoverableError).toBe(!RETRYABLE[code]);
      const back = fromErrorShape(thrown.message);
      expect({ code: back.code, message: back.message, hint: back.hint, location: back.location }).toEqual({
        code,
        message: 'm',
        hint: 'h',
        location: { file: 'f.json', line: 3 },
      });
    },
  );
});

describe('a dropped connection inside a job', () => {
  it('is CONNECTION_LOST, retried by the queue (not a bug that fails once)', () => {
    for (const thrown of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new Error('Connection is closed.'),
    ]) {
      const failed = jobFailure(thrown);
      expect(failed instanceof UnrecoverableError).toBe(false);
      expect(fromErrorShape(failed.message)).toMatchObject({
        code: 'CONNECTION_LOST',
        message: expect.stringContaining(thrown.message),
      });
    }
    // Anything else unexpected is still a bug, failed once.
    expect(jobFailure(new TypeError('x is not a function')) instanceof UnrecoverableError).toBe(true);
  });
});
