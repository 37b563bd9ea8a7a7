import { AsyncLocalStorage } from 'node:async_hooks';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import { FlowScoutError, fromErrorShape, RETRYABLE, toErrorShape } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import { validateWorkflow } from '../graph/validate.js';
import type { Judge } from '../metrics/types.js';
import type { ExecutionPolicy } from '../policies/types.js';
import type { TaskRecord } from '../records/schema.js';
import { runAndScoreRecord } from '../evaluate/evaluate.js';
import type { RecordRun } from '../evaluate/types.js';
import { prepareWorkflow } from '../graph/prepare.js';
import { createModelWiring } from '../wiring/wire-models.js';
import { loadToolConfig } from '../tools/load-tool-config.js';
import type { ToolRegistry } from '../contracts/tools.js';
import { checkRedis, openRedis, redactRedisUrl } from './redis-connection.js';
import { createBlobStore, createModelCallLog, DEFAULT_QUEUE, type EvalJobData, type EvalJobResult, type ModelCallLog } from './jobs.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import { createSharedLimiter } from './redis-limiter.js';
import { createRedisJudgeMemo, createRedisMemo } from './redis-memo.js';
import { memoizeJudge } from '../metrics/judge-memo.js';

/**
 * `flowscout worker`: takes evaluation jobs from the BullMQ queue and runs them (docs/ARCHITECTURE.md,
 * "Distributed evaluation"). For each job it reads the workflow and the records by content hash,
 * resolves the policy and the judge from the job's model strings with API keys from its own
 * environment, runs every record with `runAndScoreRecord` — the step a local evaluation runs — over
 * its own tools, with the run's node memo in Redis, and returns the records' runs.
 *
 * Failures (each travels to the coordinator as an error shape — code, message, hint, location —
 * in the job's failure reason, errors/error-shape.ts):
 * - a job whose error code is not `RETRYABLE` (errors/codes.ts: a workflow this worker's tools make
 *   invalid, an unknown tool, a model string without its key here, content gone from Redis, a bug)
 *   fails with BullMQ's `UnrecoverableError`: no retries, the coordinator reports the error;
 * - a model that fails (a key this worker's environment gives that the provider rejects, a host it
 *   cannot reach, 429/5xx until the retries ran out) does not fail the job: as in one process each
 *   failed call is an error observation of its node, and the job returns, with its runs, the log of
 *   its model calls (`modelCalls`), which the coordinator replays into the run's circuit breaker.
 *   The worker has no breaker of its own (the threshold is the coordinator's `--breaker`), and a
 *   model that is down never makes BullMQ retry a job;
 * - a retryable failure (a model error, a file or store that failed, a cancelled job) is retried by
 *   BullMQ with backoff, up to the job's attempts;
 * - a worker that dies mid-job stops renewing the job's lock; after `lockMs` another worker's
 *   stalled-job check puts it back in the queue and it runs again from the start. Its half-done
 *   work is never returned, so nothing is counted twice.
 */

export interface EvaluationWorkerOptions {
  url: string;
  queue?: string;
  /** Jobs run at once by this worker (default 4). */
  concurrency?: number;
  /** The tool config; without it a job's `toolsHint` (the coordinator's config path) is used. */
  tools?: string;
  env?: Record<string, string | undefined>;
  /** A job whose worker stopped renewing its lock is handed to another worker after this long (default 30 000 ms). */
  lockMs?: number;
  /** How often this worker looks for stalled jobs (default: lockMs). */
  stalledIntervalMs?: number;
  name?: string;
  log?: (line: string) => void;
  /**
   * Send write and destructive calls to live tools (`--allow-live-writes`). By default this worker
   * refuses them (an observation "not run: write tool during evaluation"): it evaluates, it does not act.
   */
  allowLiveWrites?: boolean;
}

export interface EvaluationWorker {
  readonly name: string;
  /** Jobs finished by this worker. */
  done(): number;
  /** Stops taking jobs, waits for the running ones, closes tools and connections. */
  close(): Promise<void>;
}

/** Starts a worker (see the module comment); rejects with QUEUE_ERROR when Redis cannot be reached. */
export async function startEvaluationWorker(opts: EvaluationWorkerOptions): Promise<EvaluationWorker> {
  await checkRedis(opts.url);
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const name = opts.name ?? `${hostname()}-${process.pid}`;
  const queueName = opts.queue ?? DEFAULT_QUEUE;
  const lockMs = opts.lockMs ?? 30_000;
  const concurrency = Math.max(1, opts.concurrency ?? 4);

  // BullMQ leaves connections it was given open, so this module closes the three it opens.
  const connections = [openRedis(opts.url), openRedis(opts.url), openRedis(opts.url)] as const;
  const [redis, queueConnection, workerConnection] = connections;
  const blobs = createBlobStore(redis);
  const queue = new Queue(queueName, { connection: queueConnection });
  queue.on('error', () => {});
  const registries = new Map<string, Promise<ToolRegistry>>();
  const fixedTools = opts.tools ? resolve(opts.tools) : undefined;
  const guardWrites = { guardWrites: { allowLiveWrites: opts.allowLiveWrites === true } };
  if (fixedTools) registries.set(fixedTools, loadToolConfig(fixedTools, guardWrites));
  if (fixedTools) await registries.get(fixedTools);
  const deciders = new LruCache<Promise<{ policy: ExecutionPolicy; judge: Judge; tools: ToolRegistry }>>(16);
  let finished = 0;

  const toolsFor = (data: EvalJobData): Promise<ToolRegistry> => {
    const path = fixedTools ?? data.toolsHint;
    if (!path) throw new FlowScoutError({ code: 'QUEUE_ERROR', message: 'this worker was started without --tools and the job names no tool config', hint: 'Start the worker with --tools <config> (the same tools the coordinator uses).' });
    let reg = registries.get(path);
    if (!reg) {
      reg = loadToolConfig(path, guardWrites);
      registries.set(path, reg);
      reg.catch(() => registries.delete(path));
    }
    return reg;
  };

  // The run of the job a model request is made for: one policy serves the jobs of every run that
  // names the same models, tools and limits (building one costs a worker CPU it would otherwise pay
  // at the start of every `eval`), while the shared rate limit and 429 pauses stay per run.
  const jobRun = new AsyncLocalStorage<{ run: string; calls: ModelCallLog }>();
  // Stands in as the breaker of every client of this worker: it never stops a call, it writes the
  // outcome of each logical call (after its retries) to the log of the job the call is made for.
  const relay: CircuitBreaker = {
    threshold: 0,
    signal: new AbortController().signal,
    check() {},
    success: () => jobRun.getStore()?.calls.success(),
    failure: (key, error, kind) => jobRun.getStore()?.calls.failure(key, error, kind),
    tripped: () => undefined,
  };
  const decidersFor = (data: EvalJobData) => {
    const key = JSON.stringify([data.policy, data.judge, data.judgeMode ?? '', fixedTools ?? data.toolsHint, data.limits, data.records.length]);
    let entry = deciders.get(key);
    if (!entry) {
      entry = (async () => {
        const tools = await toolsFor(data);
        const limiter = createSharedLimiter(redis, {
          run: () => jobRun.getStore()?.run ?? data.run,
          // Every record of every job in flight may wait on a model (a run's jobs all hold the same number of records).
          concurrency: concurrency * Math.max(1, data.records.length),
          ...(data.limits?.requestsPerMinute !== undefined ? { requestsPerMinute: data.limits.requestsPerMinute } : {}),
          onRateLimited: (ms) => void queue.rateLimit(ms).catch(() => {}),
        });
        // The one wiring every command uses, around the shared limiter; keys from this machine's environment.
        const models = createModelWiring({ limiter, env, breaker: relay });
        const learn = data.policy.learnFrom ? await blobs.get<TaskRecord[]>(data.policy.learnFrom) : undefined;
        const policy = await models.policy(data.policy.model, { tools: tools.list(), ...(learn ? { records: learn } : {}) });
        const judge = await models.judge(data.judge, data.judgeMode);
        return { policy: policy.policy, judge: judge.judge, tools };
      })();
      entry.catch(() => deciders.delete(key));
      deciders.set(key, entry);
    }
    return entry;
  };

  const processor = async (job: Job<EvalJobData, EvalJobResult>, _token?: string, signal?: AbortSignal): Promise<EvalJobResult> => {
    const data = job.data;
    if (data?.v !== 1) throw jobFailure(new FlowScoutError({ code: 'QUEUE_ERROR', message: `job ${job.id} is not a FlowScout evaluation job of this version`, hint: 'Run workers of the same FlowScout version as the coordinator.' }));
    const calls = createModelCallLog();
    return jobRun.run({ run: data.run, calls }, () => runJob(job, data, calls, signal));
  };

  const runJob = async (job: Job<EvalJobData, EvalJobResult>, data: EvalJobData, calls: ModelCallLog, signal?: AbortSignal): Promise<EvalJobResult> => {
    try {
      const { policy, judge, tools } = await decidersFor(data);
      const raw = await blobs.get<Workflow>(data.workflow);
      const problems = validateWorkflow(raw, tools.list());
      if (problems.length > 0) {
        throw new FlowScoutError({
          code: 'INVALID_WORKFLOW',
          message: `the workflow is not valid with worker ${name}'s tools: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
          hint: "Check that every worker's --tools config gives the tools the coordinator's config gives.",
          ...(problems[0] ? { location: { path: problems[0].path } } : {}),
        });
      }
      const workflow = prepareWorkflow(raw);
      const records = await Promise.all(data.records.map((h) => blobs.get<TaskRecord>(h)));
      const memo = data.memo ? createRedisMemo(redis, data.run) : undefined;
      const runs: RecordRun[] = await Promise.all(
        records.map((record) =>
          runAndScoreRecord(workflow, record, {
            policy,
            tools,
            // With the run's memo, the judge's scores are shared by the workers too.
            judge: memo ? memoizeJudge(judge, createRedisJudgeMemo(redis, data.run)) : judge,
            ...(memo ? { memo } : {}),
            ...(signal ? { signal } : {}),
            ...(data.nodeConcurrency !== undefined ? { nodeConcurrency: data.nodeConcurrency } : {}),
          }),
        ),
      );
      return { runs, worker: name, modelCalls: calls.runs() };
    } catch (e) {
      throw jobFailure(e);
    }
  };

  const worker = new Worker<EvalJobData, EvalJobResult>(queueName, processor, {
    connection: workerConnection,
    concurrency,
    name,
    lockDuration: lockMs,
    stalledInterval: opts.stalledIntervalMs ?? lockMs,
    maxStalledCount: 3,
    // A limiter so high it never binds: BullMQ honours a manual `queue.rateLimit` (our answer to a 429) only on a limited queue.
    limiter: { max: 100_000, duration: 1_000 },
  });
  worker.on('error', (e) => log(`worker ${name}: ${e.message}`));
  worker.on('active', (job) => log(`job ${short(job.id)} started: ${job.data.records.length} record(s) of run ${job.data.run}`));
  worker.on('completed', (job) => {
    finished++;
    log(`job ${short(job.id)} done (${finished} by this worker)`);
  });
  worker.on('failed', (job, e) => log(`job ${short(job?.id)} failed${job ? ` (attempt ${job.attemptsMade} of ${job.opts.attempts ?? 1})` : ''}: ${fromErrorShape(e.message).describe().split('\n')[0]}`));
  worker.on('stalled', (id) => log(`job ${short(id)} stalled (its worker stopped renewing the lock): back in the queue`));
  await worker.waitUntilReady();
  log(`worker ${name} connected to ${redactRedisUrl(opts.url)}, queue ${queueName}, concurrency ${concurrency}${fixedTools ? `, tools ${opts.tools}` : ''}`);

  return {
    name,
    done: () => finished,
    async close() {
      await worker.close();
      await queue.close();
      for (const reg of registries.values()) await (await reg.catch(() => undefined))?.close();
      for (const c of connections) c.disconnect();
    },
  };
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

function short(id: string | undefined): string {
  return id ? id.slice(0, 11) : '?';
}

/** A small least-recently-used map. */
class LruCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, v: V): void {
    this.map.set(key, v);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
}

