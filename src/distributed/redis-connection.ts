import { Redis, type RedisOptions } from 'ioredis';
import { FlowScoutError } from '../errors/index.js';
import { redactRedisUrl } from './redis-url.js';

export { parseRedisUrl, redactRedisUrl } from './redis-url.js';

/**
 * Connections to the Redis server behind distributed evaluation (docs/ARCHITECTURE.md,
 * "Distributed evaluation"). A URL is `redis://[:password@]host[:port][/db]`, or `rediss://…` for
 * TLS; a user name may precede the password (Redis ACLs). Passwords never appear in output:
 * `redactRedisUrl` replaces them with `***`.
 *
 * Before a coordinator or a worker starts, `checkRedis` connects once with a short timeout and no
 * retries, so an unreachable server is a clear QUEUE_ERROR naming the URL instead of a hang (the
 * client's default is to retry forever).
 */

/**
 * A connection for BullMQ queues, workers and our own keys. `maxRetriesPerRequest: null` is what
 * BullMQ asks of worker connections (a blocking command must wait through a reconnect).
 */
export function openRedis(url: string, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, ...options });
  // Connection errors are reported by the commands that fail; without a listener ioredis prints them.
  redis.on('error', () => {});
  return redis;
}

/** Connects once (no retries, `timeoutMs`), pings, disconnects; throws QUEUE_ERROR naming the URL. */
export async function checkRedis(url: string, timeoutMs = 5_000): Promise<void> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let last: unknown;
  probe.on('error', (e) => {
    last = e;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    const reason = describeRedisError(last ?? e);
    throw new FlowScoutError({
      code: 'QUEUE_ERROR',
      message: `cannot reach Redis at ${redactRedisUrl(url)}: ${reason}`,
      hint: 'Start redis-server there (Debian: apt-get install -y redis-server), or pass the right --redis URL (password and TLS: rediss://:password@host:port).',
      cause: e,
    });
  } finally {
    probe.disconnect();
  }
}

function describeRedisError(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: string }).code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND') return 'unknown host';
  if (code === 'ETIMEDOUT' || /timeout/i.test(e.message)) return 'no answer within the connect timeout';
  if (/NOAUTH|WRONGPASS|invalid password|invalid username/i.test(e.message))
    return 'authentication failed (check the password in the URL)';
  return e.message.split('\n')[0] ?? e.message;
}
