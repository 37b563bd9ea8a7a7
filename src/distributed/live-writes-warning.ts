import type { ToolRegistry } from '../contracts/tools.js';
import { changesState } from '../tools/effects.js';
import { redactRedisUrl } from './redis-url.js';

/**
 * What `flowscout worker --allow-live-writes` says when it starts: which calls it will now make
 * (the write and destructive calls of its live tools, by name), for which jobs (those whose run
 * allows live writes: the flag is a ceiling, a run's own decision travels with its jobs) and for
 * whom (any job in the queue, that is anyone who can write to that Redis, since a job is data and
 * not a signed request).
 */
export function liveWritesWarning(url: string, registries: readonly ToolRegistry[]): string {
  const tools = [
    ...new Set(
      registries.flatMap((r) =>
        r
          .list()
          .map((d) => d.name)
          .filter((name) => {
            const e = r.effectOf(name);
            return e !== undefined && e.live && changesState(e);
          }),
      ),
    ),
  ].sort();
  const named =
    tools.length > 0
      ? `its live write and destructive tools (${tools.slice(0, 8).join(', ')}${tools.length > 8 ? `, … ${tools.length} in all` : ''})`
      : 'the live write and destructive tools of any tool config it loads later (none loaded now has one)';
  return `warning: --allow-live-writes: this worker makes the write and destructive calls of every job it takes whose run allows live writes (a coordinator given --allow-live-writes) on ${named}, not only those a record answers; anyone who can write to the Redis at ${redactRedisUrl(url)} can queue such a job. Use it only with a Redis nobody else can write to.`;
}
