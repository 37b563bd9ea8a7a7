import type { TestProject } from 'vitest/node';
import { startTestRedis, type TestRedis } from './redis-server.js';

/**
 * vitest globalSetup: the Redis the distributed-evaluation tests use. `FLOWSCOUT_TEST_REDIS_URL`
 * (set by .ci/run, which starts the server) wins; otherwise a redis-server of our own is started on
 * a free loopback port and stopped by its pid when the run ends. Without a redis-server binary the
 * reason is provided instead, and those tests fail with it (`testRedisUrl()`), naming the apt-get
 * command; the other tests are not affected.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    redisError: string;
  }
}

let server: TestRedis | undefined;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fromEnv = process.env.FLOWSCOUT_TEST_REDIS_URL;
  if (fromEnv) {
    project.provide('redisUrl', fromEnv);
    project.provide('redisError', '');
  } else {
    try {
      server = await startTestRedis();
      project.provide('redisUrl', server.url);
      project.provide('redisError', '');
    } catch (e) {
      project.provide('redisUrl', '');
      project.provide('redisError', e instanceof Error ? e.message : String(e));
    }
  }
  return async () => {
    await server?.stop();
    server = undefined;
  };
}
