import { inject } from 'vitest';

/** The URL of the tests' Redis (see redis-global-setup.ts); throws the reason there is none (e.g. redis-server is not installed). */
export function testRedisUrl(): string {
  const url = inject('redisUrl');
  if (!url) throw new Error(inject('redisError') || 'no Redis for the tests (redis-global-setup did not run)');
  return url;
}
