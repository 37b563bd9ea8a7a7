import { FlowScoutError } from '../errors/index.js';

/**
 * Redis URLs of distributed evaluation (docs/ARCHITECTURE.md, "Distributed evaluation"):
 * `redis://[[user]:password@]host[:port][/db]`, or `rediss://…` for TLS. Kept apart from the
 * connections so a command can check its `--redis` flag without loading the Redis client.
 */

/** The URL with its password replaced by `***`. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** Refuses anything that is not a redis:// or rediss:// URL, naming the flag. */
export function parseRedisUrl(url: string, flag = '--redis'): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${flag} must be a Redis URL, got '${redactRedisUrl(url)}'`,
      hint: `For example ${flag} redis://127.0.0.1:6379, or rediss://:password@host:6380 for TLS.`,
    });
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${flag} must start with redis:// or rediss://, got '${redactRedisUrl(url)}'`,
      hint: `For example ${flag} redis://127.0.0.1:6379.`,
    });
  }
  return url;
}
