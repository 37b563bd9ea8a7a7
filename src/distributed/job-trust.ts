/**
 * What a worker trusts of a job: nothing but a choice among what the worker itself was started with.
 * Its allow-list (tool configs, model strings, a request rate) comes from its own options and
 * environment; `checkJob` refuses a job naming anything else before a request is sent or a file read.
 * And how a failed job is handed back: as its error shape, retried by the queue only when its code
 * is `RETRYABLE`.
 */
import { delimiter, resolve } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { FlowScoutError, RETRYABLE, toErrorShape } from '../errors/index.js';
import { redactModelSpec } from '../llm/secrets.js';
import type { EvalJobData } from './jobs.js';

/** What a worker may use: its own tool configs (absolute paths), model strings and limits. */
export interface WorkerAllowList {
  tools: string[];
  models: string[];
  requestsPerMinute?: number;
}

/** The worker's allow-list from its options and environment (see the module comment); INVALID_INPUT without a tool config. */
export function workerAllowList(
  opts: { tools?: string | readonly string[]; models?: readonly string[]; requestsPerMinute?: number },
  env: Record<string, string | undefined>,
): WorkerAllowList {
  const listed = opts.tools === undefined ? [] : typeof opts.tools === 'string' ? [opts.tools] : [...opts.tools];
  const fromEnv = (env.FLOWSCOUT_WORKER_TOOLS ?? '')
    .split(delimiter)
    .map((p) => p.trim())
    .filter(Boolean);
  const tools = [...new Set((listed.length > 0 ? listed : fromEnv).map((p) => resolve(p)))];
  if (tools.length === 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: 'a worker needs its own tool config: it never loads a path a job names',
      hint: 'Start it with --tools <config> (repeat --tools for several; a job then selects one by its path), or set FLOWSCOUT_WORKER_TOOLS.',
    });
  }
  const models = [...(opts.models ?? []), ...(env.FLOWSCOUT_WORKER_MODELS ?? '').split(','), env.FLOWSCOUT_MODEL ?? '']
    .map((m) => m.trim())
    .filter((m) => m !== '' && m !== 'offline');
  return {
    tools,
    models: [...new Set(models)],
    ...(opts.requestsPerMinute !== undefined ? { requestsPerMinute: opts.requestsPerMinute } : {}),
  };
}

/**
 * Checks a job against the allow-list and returns the tool config it runs on; throws a QUEUE_ERROR
 * as an `UnrecoverableError` (the job fails once) for a model string or tool config the worker was not
 * started with. Reads no file and sends nothing.
 */
export function checkJob(data: EvalJobData, allowed: WorkerAllowList, worker: string): string {
  for (const [what, spec] of [
    ['policy', data.policy?.model],
    ['judge', data.judge],
  ] as const) {
    if (typeof spec !== 'string' || (spec.trim() !== 'offline' && !allowed.models.includes(spec.trim()))) {
      throw jobFailure(
        new FlowScoutError({
          code: 'QUEUE_ERROR',
          message: `the job's ${what} model ${typeof spec === 'string' ? `'${redactModelSpec(spec)}'` : '(none)'} is not one worker ${worker} was started with (${['offline', ...allowed.models].map(redactModelSpec).join(', ')})`,
          hint: 'Start the workers with --model <that model> (repeat --model for several); a job never names a model of its own.',
        }),
      );
    }
  }
  if (allowed.tools.length === 1) return allowed.tools[0]!;
  const hint = typeof data.toolsHint === 'string' ? resolve(data.toolsHint) : undefined;
  if (hint !== undefined && allowed.tools.includes(hint)) return hint;
  throw jobFailure(
    new FlowScoutError({
      code: 'QUEUE_ERROR',
      message: `the job's tool config ${hint !== undefined ? `'${hint}'` : '(none)'} is not one worker ${worker} was started with (${allowed.tools.join(', ')})`,
      hint: 'Start the workers with --tools <that config> (repeat --tools for several); a job never names a config of its own.',
    }),
  );
}

/** The lower of two optional limits. */
export function tighter(own: number | undefined, asked: number | undefined): number | undefined {
  const ok = (n: number | undefined) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined);
  const a = ok(own);
  const b = ok(asked);
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/**
 * What a failed job throws: its error as data (`toErrorShape`, as JSON: BullMQ keeps the message as
 * the job's `failedReason`, which the queue runner reads back with `fromErrorShape`), retried by
 * BullMQ only when its code is `RETRYABLE`; any other failure is an `UnrecoverableError` and fails once.
 */
export function jobFailure(e: unknown): Error {
  const shape = toErrorShape(e);
  const text = JSON.stringify(shape);
  return RETRYABLE[shape.code] ? new Error(text) : new UnrecoverableError(text);
}
