import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore, KEY_PREFIX } from '../../src/distributed/jobs.js';
import { openRedis } from '../../src/distributed/redis-connection.js';
import { FlowScoutError } from '../../src/errors/index.js';
import { spawnCli } from '../support/child-cli.js';
import { testRedisUrl } from '../support/redis.js';
import { writeOrderFixture } from '../live-tools/order-fixture.js';

/**
 * What a worker trusts of its Redis. A job is data anyone who can write to that Redis can queue, so
 * `flowscout worker --allow-live-writes` says at start-up what it will do and for whom; and the
 * content a job names by its sha256 key (workflow, records, recorded write calls) is checked
 * against that key when it is read, so content changed in Redis after the coordinator wrote it is
 * refused with a clear error instead of being run.
 */

let url: string;
beforeAll(() => {
  url = testRedisUrl();
});

describe('flowscout worker --allow-live-writes', () => {
  const children: Array<ReturnType<typeof spawnCli>> = [];
  afterAll(async () => {
    for (const c of children) await c.stop();
  });

  it('warns at start-up, naming the live write tools it will call and who can make it (anyone who can write to that Redis)', async () => {
    const fx = writeOrderFixture();
    const queue = `t-exposure-${randomBytes(3).toString('hex')}`;
    const worker = spawnCli(['worker', '--redis', url, '--queue', queue, '--tools', fx.tools, '--allow-live-writes']);
    children.push(worker);
    await worker.waitFor(/worker \S+ connected to/);
    const out = worker.output();
    expect(out).toContain(
      'warning: --allow-live-writes: this worker makes the write and destructive calls of every job it takes whose run allows live writes (a coordinator given --allow-live-writes) on its live write and destructive tools (cancel_order, change_order_address, hold_orders)',
    );
    expect(out).toContain(`anyone who can write to the Redis at ${url} can queue such a job`);
  });

  it('says nothing of the kind without the flag', async () => {
    const fx = writeOrderFixture();
    const queue = `t-exposure-${randomBytes(3).toString('hex')}`;
    const worker = spawnCli(['worker', '--redis', url, '--queue', queue, '--tools', fx.tools]);
    children.push(worker);
    await worker.waitFor(/worker \S+ connected to/);
    expect(worker.output()).not.toContain('--allow-live-writes');
  });
});

describe('blobs are checked against their sha256 key', () => {
  it('content changed in Redis after it was written is refused with an error naming the mismatch; intact content reads back', async () => {
    const redis = openRedis(url);
    try {
      const workflow = { version: 1, name: `wf-${randomBytes(4).toString('hex')}`, nodes: [], edges: [] };
      const hash = await createBlobStore(redis).put(workflow);
      expect(await createBlobStore(redis).get(hash)).toEqual(workflow);

      await redis.set(`${KEY_PREFIX}:blob:${hash}`, JSON.stringify({ ...workflow, name: 'swapped' }));
      // A fresh store (a worker that has not cached it) reads what is in Redis now.
      const error = await createBlobStore(redis)
        .get(hash)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(FlowScoutError);
      expect((error as FlowScoutError).code).toBe('QUEUE_ERROR');
      expect((error as FlowScoutError).message).toMatch(
        new RegExp(
          `^the job's content ${hash.slice(0, 12)}… in Redis does not match its sha256 key \\(it hashes to [0-9a-f]{12}…\\): it was changed after the coordinator wrote it$`,
        ),
      );
      expect((error as FlowScoutError).hint).toContain('who can write to it');
    } finally {
      redis.disconnect();
    }
  });
});
