import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createQueueRunner } from '../../src/distributed/queue-runner.js';
import { isFlowScoutError } from '../../src/errors/index.js';
import { prepareWorkflow } from '../../src/graph/prepare.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import { readJsonFile } from '../../src/util/json-file.js';
import { startTestRedis } from '../support/redis-server.js';

/**
 * A coordinator whose Redis dies during an evaluation and stays down ends it with a named error
 * (QUEUE_ERROR naming the URL, with how to resume) after `redisLostMs`, instead of hanging
 * silently: before, `runRecords` never settled.
 */

const FIX = join(import.meta.dirname, '../fixtures/records/eval');

describe('Redis lost during an evaluation', () => {
  it('ends the evaluation with QUEUE_ERROR after redisLostMs, naming the URL and how to resume', async () => {
    const redis = await startTestRedis();
    const { records } = await readRecordsFile(join(FIX, 'records.jsonl'));
    // No worker: the jobs wait in the queue, as they would while the workers are busy.
    const runner = await createQueueRunner({
      url: redis.url,
      queue: `t-lost-${randomBytes(3).toString('hex')}`,
      run: 'lost',
      policy: { model: 'offline' },
      judge: 'offline',
      memo: false,
      pollMs: 200,
      redisLostMs: 1_500,
    });
    try {
      const evaluation = runner
        .runRecords({
          workflow: prepareWorkflow(readJsonFile(join(FIX, 'workflow.json'))),
          records: records.slice(0, 2),
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      // Wait until the jobs are queued, then take Redis away for good.
      for (let i = 0; i < 600 && (await runner.progress()).waiting < 2; i++)
        await new Promise((r) => setTimeout(r, 50));
      await redis.stop();
      const e = await evaluation;
      expect(isFlowScoutError(e) && e.code).toBe('QUEUE_ERROR');
      expect((e as Error).message).toMatch(
        new RegExp(
          `^lost Redis at redis://127\\.0\\.0\\.1:${redis.port}: unreachable for \\d+ s during the evaluation$`,
        ),
      );
      expect((e as { hint?: string }).hint).toContain('--resume');
      // A later evaluation on this runner fails at once, the same way.
      await expect(
        runner.runRecords({
          workflow: prepareWorkflow(readJsonFile(join(FIX, 'workflow.json'))),
          records: records.slice(0, 1),
        }),
      ).rejects.toMatchObject({ code: 'QUEUE_ERROR' });
    } finally {
      await runner.close();
      await redis.stop().catch(() => undefined);
    }
  }, 60_000);
});
