import type { Command } from '@commander-js/extra-typings';
import { parseRedisUrl } from '../../distributed/redis-connection.js';
import { startEvaluationWorker } from '../../distributed/worker.js';
import type { CliIO } from '../output.js';
import { wholeNumberArg } from '../parse-number.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout worker`: one worker of distributed evaluation (docs/ARCHITECTURE.md, "Distributed
 * evaluation"). It connects to the Redis of a coordinator (`search`, `eval` or `bench` with the same
 * `--redis`), runs the evaluation jobs it takes — a workflow on a chunk of records, with the policy
 * and judge the job names among those this worker was started with (`--model`), over this
 * machine's tools (`--tools`), with API keys from this machine's environment — and prints one line
 * per job. A job naming a model or tool config the worker was not started with fails once. Ctrl-C (or SIGTERM) stops taking jobs and finishes the running ones;
 * a second Ctrl-C quits at once (the running jobs are then handed to other workers after the lock
 * timeout).
 */

const collect = (value: string, previous: string[]): string[] => [...previous, value];

export const registerWorker: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('worker')
    .description(
      'take evaluation jobs from a Redis queue and run them (start any number, on any machine, next to search/eval/bench --redis)',
    )
    .requiredOption(
      '--redis <url>',
      'the Redis of the coordinator: redis://host:6379, rediss://:password@host:6380 for TLS',
      (url: string) => parseRedisUrl(url),
    )
    .option(
      '--concurrency <n>',
      'jobs run at once by this worker (and model calls in flight)',
      wholeNumberArg('--concurrency', 1, 4),
      4,
    )
    .option(
      '--tools <config>',
      "this machine's tool config; repeat for several (a job selects one by its path); default FLOWSCOUT_WORKER_TOOLS. A job never names a config of its own",
      collect,
      [],
    )
    .option(
      '--model <spec>',
      'a model string jobs may name for their policy or judge (repeat for several; offline is always allowed); default FLOWSCOUT_WORKER_MODELS (comma-separated) and FLOWSCOUT_MODEL',
      collect,
      [],
    )
    .option(
      '--rpm <n>',
      "model requests per minute this worker makes at most (a job's --rpm may only lower it)",
      wholeNumberArg('--rpm', 1),
    )
    .option('--queue <name>', 'the queue name (default flowscout-eval; the coordinator must use the same)')
    .option(
      '--lock-ms <ms>',
      'a job whose worker stops answering goes back to the queue after this long',
      wholeNumberArg('--lock-ms', 1000, 30000),
      30000,
    )
    .option(
      '--allow-live-writes',
      "send write and destructive calls to live tools (functions, MCP) for the runs whose coordinator was given --allow-live-writes too (a ceiling, never a default); otherwise this worker answers them from the recorded write calls of the run (the coordinator's records) or refuses them",
    )
    .action(async (flags) => {
      const worker = await startEvaluationWorker({
        url: flags.redis,
        concurrency: flags.concurrency,
        lockMs: flags.lockMs,
        ...(flags.tools.length > 0 ? { tools: flags.tools } : {}),
        ...(flags.model.length > 0 ? { models: flags.model } : {}),
        ...(flags.rpm !== undefined ? { requestsPerMinute: flags.rpm } : {}),
        ...(flags.queue ? { queue: flags.queue } : {}),
        ...(flags.allowLiveWrites ? { allowLiveWrites: true } : {}),
        log: (line) => io.out(line),
        warn: (line) => io.err(line),
      });
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = () => {
          if (stopping) {
            io.err('Stopping now; running jobs go back to the queue after the lock timeout.');
            process.exit(130);
          }
          stopping = true;
          io.err(`Stopping worker ${worker.name}: finishing the running jobs (Ctrl-C again to quit now)…`);
          worker.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      io.out(`worker ${worker.name} stopped after ${worker.done()} job(s)`);
    });
};
