import { FlowScoutError } from '../errors/index.js';
import { parseRedisUrl } from '../distributed/redis-url.js';
import { wholeNumber } from './parse-number.js';

/** The queue flags `search`, `eval` and `bench` share. */
export interface QueueFlags {
  redis?: string;
  queue?: string;
  chunk: string;
  rpm?: string;
}

/** The parsed queue flags (undefined without --redis). */
export interface QueueSettings {
  url: string;
  chunkSize: number;
  queue?: string;
  requestsPerMinute?: number;
}

/**
 * Parses `--redis`, `--queue`, `--chunk` and `--rpm`: undefined without `--redis` (and then `--queue`
 * or `--rpm` is refused, since it would be ignored). `work` names what the workers would run, for the hint.
 */
export function queueSettings(flags: QueueFlags, work: string): QueueSettings | undefined {
  if (flags.redis === undefined) {
    for (const [flag, value] of [
      ['--queue', flags.queue],
      ['--rpm', flags.rpm],
    ] as const) {
      if (value !== undefined)
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `${flag} only applies with --redis`,
          hint: `Add --redis <url> to run the ${work} on workers.`,
        });
    }
    return undefined;
  }
  return {
    url: parseRedisUrl(flags.redis),
    chunkSize: wholeNumber(flags.chunk, '--chunk', 1, 4),
    ...(flags.queue ? { queue: flags.queue } : {}),
    ...(flags.rpm !== undefined ? { requestsPerMinute: wholeNumber(flags.rpm, '--rpm', 1, 60) } : {}),
  };
}
