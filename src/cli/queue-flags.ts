import type { Command, OptionValues } from '@commander-js/extra-typings';
import { FlowScoutError } from '../errors/index.js';
import { parseRedisUrl } from '../distributed/redis-url.js';
import type { FlagsOf } from './commands/register.js';
import { wholeNumberArg } from './parse-number.js';

/**
 * The queue flags `search`, `eval` and `bench` share, declared once: `--redis` (checked to be a
 * redis:// or rediss:// URL), `--queue`, and `--chunk` and `--rpm` read as whole numbers as they are
 * parsed. `redisHelp` says what the command runs on the workers.
 */
export function addQueueFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
  redisHelp: string,
) {
  return cmd
    .option('--redis <url>', redisHelp, (url: string) => parseRedisUrl(url))
    .option('--queue <name>', 'with --redis: the queue name (default flowscout-eval)')
    .option('--chunk <n>', 'with --redis: records per job', wholeNumberArg('--chunk', 1, 4), 1)
    .option('--rpm <n>', 'with --redis: model requests per minute over all workers', wholeNumberArg('--rpm', 1, 60));
}

/** The queue flags as an action receives them, typed from `addQueueFlags`. */
export type QueueFlags = FlagsOf<typeof addQueueFlags<[], {}, {}>>;

/** The queue settings the flags give (undefined without --redis). */
export interface QueueSettings {
  url: string;
  chunkSize: number;
  queue?: string;
  requestsPerMinute?: number;
}

/**
 * The queue settings of `--redis`, `--queue`, `--chunk` and `--rpm`: undefined without `--redis` (and
 * then `--queue` or `--rpm` is refused, since it would be ignored). `work` names what the workers
 * would run, for the hint.
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
    url: flags.redis,
    chunkSize: flags.chunk,
    ...(flags.queue ? { queue: flags.queue } : {}),
    ...(flags.rpm !== undefined ? { requestsPerMinute: flags.rpm } : {}),
  };
}
