import type { Redis } from 'ioredis';
import type { JudgeMemo } from '../metrics/judge-memo.js';
import type { JudgeScore } from '../metrics/types.js';
import type { NodeMemo } from '../runtime/memo.js';
import type { NodeObservation } from '../runtime/trace.js';
import { KEEP_SECONDS, KEY_PREFIX } from './jobs.js';

/**
 * The node memo of one run, shared by every worker through Redis: the same keys as the in-process
 * memo (the runtime's `nodeMemoKey`: record, the node and everything upstream, the policy), so a
 * node one worker ran for a record is reused by any other worker that meets it in a later
 * candidate, and the run pays for it once. Entries are written once (`SET NX`) and expire with the
 * run's other keys. Only `ok` observations reach the memo (the runtime's rule).
 */
export function createRedisMemo(redis: Redis, run: string): NodeMemo {
  const key = (k: string) => `${KEY_PREFIX}:memo:${run}:${k}`;
  return {
    async get(k) {
      const text = await redis.get(key(k));
      return text === null ? undefined : (JSON.parse(text) as NodeObservation);
    },
    async set(k, observation) {
      await redis.set(key(k), JSON.stringify(observation), 'EX', KEEP_SECONDS, 'NX');
    },
  };
}

/**
 * The judge memo of one run in Redis (`metrics/judge-memo.ts`): a score one worker's judge gave an
 * answer is reused by every worker that meets the same record with the same answer, in any later
 * candidate. Written once (`SET NX`), expiring with the run's other keys.
 */
export function createRedisJudgeMemo(redis: Redis, run: string): JudgeMemo {
  const key = (k: string) => `${KEY_PREFIX}:memo:${run}:${k}`;
  return {
    async getScore(k) {
      const text = await redis.get(key(k));
      return text === null ? undefined : (JSON.parse(text) as JudgeScore);
    },
    async setScore(k, score) {
      await redis.set(key(k), JSON.stringify(score), 'EX', KEEP_SECONDS, 'NX');
    },
  };
}
