import { AsyncLocalStorage } from 'node:async_hooks';
import { hostname } from 'node:os';
import { existsSync } from 'node:fs';
import { Queue, Worker, type Job } from 'bullmq';
import { FlowScoutError, fromErrorShape } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import { validateWorkflow } from '../graph/validate.js';
import type { Judge } from '../metrics/types.js';
import type { ExecutionPolicy } from '../policies/types.js';
import { runAndScoreRecord } from '../evaluate/evaluate.js';
import type { RecordRun } from '../evaluate/types.js';
import { prepareWorkflow } from '../graph/prepare.js';
import { createModelWiring } from '../wiring/wire-models.js';
import { loadToolConfig } from '../tools/load-tool-config.js';
import { createWriteAnswers, guardLiveWrites, type WriteAnswers } from '../tools/write-guard.js';
import type { ToolRegistry } from '../contracts/tools.js';
import { CallSchema, type TaskRecord } from '../records/schema.js';
import { checkRedis, openRedis, redactRedisUrl } from './redis-connection.js';
import {
  createBlobStore,
  createModelCallLog,
  DEFAULT_QUEUE,
  type EvalJobData,
  type EvalJobResult,
  type ModelCallLog,
  parseJobData,
} from './jobs.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import { redactModelSpec } from '../llm/secrets.js';
import { createSharedLimiter } from './redis-limiter.js';
import { createRedisJudgeMemo, createRedisMemo } from './redis-memo.js';
import { memoizeJudge } from '../metrics/judge-memo.js';
import { checkJob, jobFailure, tighter, workerAllowList } from './job-trust.js';
import { liveWritesWarning } from './live-writes-warning.js';

/**
 * `flowscout worker`: takes evaluation jobs from the BullMQ queue and runs them (docs/ARCHITECTURE.md,
 * "Distributed evaluation"). For each job it reads the workflow and the records by content hash,
 * resolves the policy and the judge from the job's model strings with API keys from its own
 * environment, runs every record with `runAndScoreRecord` — the step a local evaluation runs — over
 * its own tools, with the run's node memo in Redis, and returns the records' runs.
 *
 * Write calls to live tools go through a write guard per job, as in one process: answered from the
 * recorded write calls the job names (the coordinator's, a blob read once per run and indexed once:
 * `writes` in jobs.ts), refused when none answers, and sent only when the job's run allows live
 * writes (`liveWrites`: its coordinator was given `--allow-live-writes`) AND this worker was started
 * with `allowLiveWrites`: the worker's flag is a ceiling, never a default, so an `eval` whose user
 * did not allow live writes makes none on any worker. What the guard did returns with the job
 * (`writeCalls`).
 *
 * Trust: a job only selects among what the worker was started with, never names new things. The
 * model strings (policy and judge) must be `offline` or among `models` (`--model`, or
 * `FLOWSCOUT_WORKER_MODELS` / `FLOWSCOUT_MODEL` in its environment); the tool config is one of
 * `tools` (`--tools`, repeatable, or `FLOWSCOUT_WORKER_TOOLS`): with one, every job uses it; with
 * several, the job's `toolsHint` must be one of them. Limits a job asks for may only be tighter than
 * the worker's own. A job naming anything else fails once (`UnrecoverableError`) before a model
 * request is sent or a file is read: anyone who can write to the Redis could otherwise make the
 * worker send its API key to any host, or read and import any file.
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
  /**
   * The tool configs this worker may load (one path, or several: a job's `toolsHint` selects one).
   * Default: `FLOWSCOUT_WORKER_TOOLS` of `env` (paths separated by the platform's path delimiter).
   */
  tools?: string | readonly string[];
  /** Model strings a job may name for its policy or judge, besides `offline` (see the module comment). */
  models?: readonly string[];
  /** Model requests per minute this worker makes at most (a job's `--rpm` may only lower it). */
  requestsPerMinute?: number;
  env?: Record<string, string | undefined>;
  /** A job whose worker stopped renewing its lock is handed to another worker after this long (default 30 000 ms). */
  lockMs?: number;
  /** How often this worker looks for stalled jobs (default: lockMs). */
  stalledIntervalMs?: number;
  name?: string;
  log?: (line: string) => void;
  /** Where warnings go (default: `log`): with `allowLiveWrites`, one at start-up naming what it allows and to whom. */
  warn?: (line: string) => void;
  /**
   * Send write and destructive calls to live tools (`--allow-live-writes`) for the jobs whose run
   * allows them (the coordinator's `--allow-live-writes`); the jobs of any other run are guarded as
   * without it. By default this worker answers them from the recorded write calls the job names (the
   * coordinator's records) and refuses the rest (an observation "not run: write tool during
   * evaluation"): it evaluates, it does not act.
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
  const env = opts.env ?? process.env;
  const allowed = workerAllowList(opts, env);
  await checkRedis(opts.url);
  const log = opts.log ?? (() => {});
  const name = opts.name ?? `${hostname()}-${process.pid}`;
  const queueName = opts.queue ?? DEFAULT_QUEUE;
  const lockMs = opts.lockMs ?? 30_000;
  const concurrency = Math.max(1, opts.concurrency ?? 4);

  // BullMQ leaves connections it was given open, so this module closes the three it opens.
  const connections = [openRedis(opts.url), openRedis(opts.url), openRedis(opts.url)] as const;
  const [redis, queueConnection, workerConnection] = connections;
  /** Whether this worker has lost its Redis (its own connection, which stays open until the end, is not ready). */
  const redisDown = () => redis.status !== 'ready';
  const blobs = createBlobStore(redis);
  const queue = new Queue(queueName, { connection: queueConnection });
  queue.on('error', () => {});
  // The configs' tools as loaded; every job calls them through a write guard of its own (`runJob`).
  const registries = new Map<string, Promise<ToolRegistry>>();
  const allowLiveWrites = opts.allowLiveWrites === true;
  // Configs there now are loaded at start (a broken one stops the worker here); one written later
  // (bench writes its domains' configs when it starts) is loaded when a job selects it.
  for (const path of allowed.tools) {
    if (existsSync(path)) registries.set(path, loadToolConfig(path));
    else log(`tool config ${path} is not there yet: loaded when a job selects it`);
  }
  await Promise.all(registries.values());
  if (allowLiveWrites) (opts.warn ?? log)(liveWritesWarning(opts.url, await Promise.all(registries.values())));
  const deciders = new LruCache<Promise<{ policy: ExecutionPolicy; judge: Judge; tools: ToolRegistry }>>(16);
  // The recorded write calls of a run's jobs, read and indexed once per tool config and blob.
  const writeAnswers = new LruCache<Promise<WriteAnswers>>(16);
  let finished = 0;

  const toolsFor = (path: string): Promise<ToolRegistry> => {
    let reg = registries.get(path);
    if (!reg) {
      reg = loadToolConfig(path);
      registries.set(path, reg);
      reg.catch(() => registries.delete(path));
    }
    return reg;
  };

  const answersFor = (tools: ToolRegistry, toolsPath: string, hash: string): Promise<WriteAnswers> => {
    const key = `${toolsPath}\n${hash}`;
    let entry = writeAnswers.get(key);
    if (!entry) {
      entry = (async () => {
        const parsed = CallSchema.array().safeParse(await blobs.get<unknown>(hash));
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new FlowScoutError({
            code: 'QUEUE_ERROR',
            message: `the job's recorded write calls ${hash.slice(0, 12)}… are not a list of calls${issue ? ` (${issue.path.join('.') || '$'}: ${issue.message})` : ''}`,
            hint: 'Run workers of the same FlowScout version as the coordinator.',
          });
        }
        return createWriteAnswers(tools, { calls: parsed.data });
      })();
      entry.catch(() => writeAnswers.delete(key));
      writeAnswers.set(key, entry);
    }
    return entry;
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
  const decidersFor = (data: EvalJobData, toolsPath: string) => {
    const rpm = tighter(allowed.requestsPerMinute, data.limits?.requestsPerMinute);
    const key = JSON.stringify([data.policy, data.judge, data.judgeMode ?? '', toolsPath, rpm, data.records.length]);
    let entry = deciders.get(key);
    if (!entry) {
      entry = (async () => {
        const tools = await toolsFor(toolsPath);
        const limiter = createSharedLimiter(redis, {
          run: () => jobRun.getStore()?.run ?? data.run,
          // Every record of every job in flight may wait on a model (a run's jobs all hold the same number of records).
          concurrency: concurrency * Math.max(1, data.records.length),
          ...(rpm !== undefined ? { requestsPerMinute: rpm } : {}),
          onRateLimited: (ms) => void queue.rateLimit(ms).catch(() => {}),
        });
        // The one wiring every command uses, around the shared limiter; keys from this machine's environment.
        const models = createModelWiring({ limiter, env, breaker: relay });
        const policy = await models.policy(data.policy.model, { tools: tools.list() });
        const judge = await models.judge(data.judge, data.judgeMode);
        return { policy: policy.instance, judge: judge.instance, tools };
      })();
      entry.catch(() => deciders.delete(key));
      deciders.set(key, entry);
    }
    return entry;
  };

  const processor = async (
    job: Job<EvalJobData, EvalJobResult>,
    _token?: string,
    signal?: AbortSignal,
  ): Promise<EvalJobResult> => {
    // Before anything is sent or read: the job is an evaluation job of this version (what is wrong
    // with it is its failure, by JSON path), and it selects among what this worker was started with.
    let data: EvalJobData;
    try {
      data = parseJobData(job.data, job.id);
    } catch (e) {
      throw jobFailure(e);
    }
    const toolsPath = checkJob(data, allowed, name);
    const calls = createModelCallLog();
    return jobRun.run({ run: data.run, calls }, () => runJob(data, toolsPath, calls, signal));
  };

  const runJob = async (
    data: EvalJobData,
    toolsPath: string,
    calls: ModelCallLog,
    signal?: AbortSignal,
  ): Promise<EvalJobResult> => {
    try {
      const { policy, judge, tools: loaded } = await decidersFor(data, toolsPath);
      // This job's write calls to live tools: answered from the coordinator's recorded write calls,
      // else refused, unless both the job's run and this worker allow live writes (counted per job,
      // returned with it).
      const sendLive = allowLiveWrites && data.liveWrites === true;
      const answers =
        typeof data.writes === 'string' && !sendLive ? await answersFor(loaded, toolsPath, data.writes) : undefined;
      // Not closed after the job: it closes the config's tools, which the worker keeps.
      const tools = guardLiveWrites(loaded, { allowLiveWrites: sendLive, ...(answers ? { answers } : {}) });
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
            ...(data.nodeConcurrency !== undefined
              ? { nodeConcurrency: Math.max(1, Math.min(MAX_NODE_CONCURRENCY, Math.floor(data.nodeConcurrency) || 1)) }
              : {}),
          }),
        ),
      );
      const { answeredFromReplay, refused, sentLive } = tools.writeGuard();
      return { runs, worker: name, modelCalls: calls.runs(), writeCalls: { answeredFromReplay, refused, sentLive } };
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
  // A Redis that went away makes every command fail about once a second: say so once, then every 30 s with a count.
  let lastError = { text: '', at: 0, repeats: 0 };
  worker.on('error', (e) => {
    const now = Date.now();
    if (e.message === lastError.text && now - lastError.at < 30_000) {
      lastError.repeats++;
      return;
    }
    const again =
      e.message === lastError.text && lastError.repeats > 0
        ? ` (${lastError.repeats} more times since the last line)`
        : '';
    lastError = { text: e.message, at: now, repeats: 0 };
    log(
      `worker ${name}: ${e.message}${again}${redisDown() ? ' — Redis is unreachable; retrying (Ctrl-C or SIGTERM stops this worker)' : ''}`,
    );
  });
  // A job's data is checked when it runs: until then it may be anything (see `parseJobData`).
  worker.on('active', (job) => {
    const data = job.data as Partial<Record<keyof EvalJobData, unknown>> | undefined;
    const records = Array.isArray(data?.records) ? `${data.records.length} record(s)` : 'malformed job';
    log(`job ${short(job.id)} started: ${records} of run ${typeof data?.run === 'string' ? data.run : '?'}`);
  });
  worker.on('completed', (job) => {
    finished++;
    log(`job ${short(job.id)} done (${finished} by this worker)`);
  });
  worker.on('failed', (job, e) =>
    log(
      `job ${short(job?.id)} failed${job ? ` (attempt ${job.attemptsMade} of ${job.opts.attempts ?? 1})` : ''}: ${fromErrorShape(e.message).describe().split('\n')[0]}`,
    ),
  );
  worker.on('stalled', (id) =>
    log(`job ${short(id)} stalled (its worker stopped renewing the lock): back in the queue`),
  );
  await worker.waitUntilReady();
  log(
    `worker ${name} connected to ${redactRedisUrl(opts.url)}, queue ${queueName}, concurrency ${concurrency}, tools ${allowed.tools.join(', ')}, models ${['offline', ...allowed.models].map(redactModelSpec).join(', ')}`,
  );

  return {
    name,
    done: () => finished,
    async close() {
      // With Redis up, the running jobs finish and are acknowledged; with Redis gone (or going while
      // we wait) nothing can be acknowledged, so the worker stops at once: its jobs go back to the
      // queue after the lock timeout, as for a killed worker.
      const graceful = (async () => {
        await worker.close(redisDown());
        await queue.close();
      })().catch(() => undefined);
      let poll: ReturnType<typeof setInterval> | undefined;
      const gone = new Promise<void>((resolve) => {
        let downFor = 0;
        const check = () => {
          downFor = redisDown() ? downFor + 1 : 0;
          if (downFor >= 2) resolve();
        };
        check();
        poll = setInterval(check, 500);
      });
      await Promise.race([graceful, gone]);
      clearInterval(poll);
      for (const reg of registries.values()) await (await reg.catch(() => undefined))?.close().catch(() => undefined);
      for (const c of connections) c.disconnect();
    },
  };
}

/** Nodes of one record a job may ask to run at once. */
const MAX_NODE_CONCURRENCY = 64;

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
