import { Job, Queue, QueueEvents } from 'bullmq';
import { FlowScoutError, isFlowScoutError } from '../errors/index.js';
import type { Budget } from '../llm/budget.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import type { Call } from '../records/schema.js';
import { addWriteCalls, type WriteCallCounts } from '../tools/write-guard.js';
import type { RecordRun, RecordRunner, RecordRunRequest } from '../evaluate/types.js';
import { countReuse } from '../metrics/judge-memo.js';
import type { RunnerProgress, RunnerSavings as MemoSavings } from '../evaluate/types.js';
import { abortableSleep } from '../llm/rate-limiter.js';
import { failure, isUnrecoverable, vanished } from './job-failure.js';
import { cancelledEvaluation } from '../evaluate/evaluate.js';
import { checkRedis, openRedis, redactRedisUrl } from './redis-connection.js';
import {
  createBlobStore,
  DEFAULT_QUEUE,
  hasFailedModelCalls,
  jobIdOf,
  KEEP_SECONDS,
  replayModelCalls,
  type EvalJobData,
  type EvalJobResult,
} from './jobs.js';

/**
 * The coordinator's side of distributed evaluation (docs/ARCHITECTURE.md, "Distributed
 * evaluation"): a `RecordRunner` that `evaluateWorkflow` hands its records to. It writes the
 * workflow and the records to Redis by content hash, adds one BullMQ job per chunk of records
 * (`chunkSize`, default 1), waits for the jobs' results and returns the records' runs in record
 * order; the evaluation is then added up, fed back and stored exactly as a local one.
 *
 * - **Ids**: a job's id is a hash of the run namespace and everything that determines its result,
 *   so a resumed coordinator adding the same jobs finds those already done (their results are kept
 *   for `KEEP_SECONDS`) or still running, and queues only what is missing. A job found failed is
 *   retried once more.
 * - **Waiting**: one `QueueEvents` stream for completions and failures, and a poll of the
 *   outstanding jobs' states every `pollMs` in case an event was missed, so a wait never hangs on a
 *   lost message. Cancellation (the signal: Ctrl-C, the wall-time budget) stops waiting; the jobs
 *   finish anyway and a resumed run reuses them.
 * - **Failures**: a job that failed for good (a code that is not `RETRYABLE`, or out of attempts)
 *   rejects the evaluation with the worker's error — code, hint and location, read back from the
 *   job's failure reason with `fromErrorShape` (an invalid workflow stays INVALID_WORKFLOW, so the
 *   search records an invalid candidate).
 * - **Budget**: the usage the workers report is charged to the coordinator's budget job by job
 *   (model requests reserved one by one), so the run's call, token and money limits hold across
 *   all workers; a limit reached stops the evaluation as a local refusal would. Jobs in flight when
 *   it is reached may overshoot it by their own requests.
 * - **Circuit breaker**: the model calls happen on the workers, so each job returns the log of its
 *   calls (`modelCalls`, jobs.ts) and the runner replays it into the run's breaker as the job's
 *   result arrives. Once the breaker trips the evaluation stops waiting and rejects with its
 *   MODEL_UNAVAILABLE error (the worker's error: the model string and the provider's message), as
 *   the same calls would in one process. A finished job whose calls failed is not reused by a
 *   later coordinator (a resumed run): one added before this runner started is run again once.
 *   Jobs of the stopped evaluation that no worker took yet are removed from the queue.
 * - **Write calls**: the recorded write calls the coordinator's write guard answers from (`writes`,
 *   its `recordedWrites()`) go to Redis once as a blob the jobs name, so a worker answers a write
 *   call to a live tool as the coordinator would; each job returns what its worker's guard did
 *   (answered from replay, refused, sent), summed by `writeCalls()` for the run's summary. The run's
 *   live-writes decision travels with its jobs (`liveWrites`): a worker started with
 *   `--allow-live-writes` sends a job's write calls only when the coordinator was given it too.
 */

export interface QueueRunnerOptions {
  url: string;
  queue?: string;
  /** Namespace of the jobs, the memo and the shared limits: the search's run id, or one per `eval`. */
  run: string;
  /** Extra job-id material (e.g. the repeat number of `eval --repeat`). */
  salt?: string;
  /** Model string of the policy. */
  policy: { model: string };
  /** The recorded write calls the workers answer write calls to live tools from: the coordinator's guard's `recordedWrites()`. */
  writes?: readonly Call[];
  /**
   * The run's `--allow-live-writes`: the jobs carry it, and a worker sends their write calls to live
   * tools only when it was started with `--allow-live-writes` too. Absent: no worker sends them.
   */
  allowLiveWrites?: boolean;
  /** Model string of the judge. */
  judge: string;
  /** How an LLM judge asks (default joint). */
  judgeMode?: 'per-dimension' | 'joint';
  memo: boolean;
  /** Records per job (default 1). */
  chunkSize?: number;
  nodeConcurrency?: number;
  /** The coordinator's tool config (absolute): a worker started with several `--tools` configs runs the job on this one, when it is among them. */
  toolsHint?: string;
  /** Model requests per minute over all workers. */
  requestsPerMinute?: number;
  budget?: Budget;
  /** The run's circuit breaker: the workers' model calls are replayed into it (see above). */
  breaker?: CircuitBreaker;
  /** Attempts per job for failures that may pass (default 3). */
  attempts?: number;
  /**
   * Redis unreachable this long during an evaluation ends it with QUEUE_ERROR (resumable) instead of
   * waiting for it forever (default 30 000 ms, or FLOWSCOUT_REDIS_LOST_MS).
   */
  redisLostMs?: number;
  pollMs?: number;
}

/** What the progress line shows: jobs of the whole queue waiting (incl. delayed) and running now, jobs of this coordinator finished and failed so far, workers connected to the queue. */
export type QueueProgress = RunnerProgress;

export interface QueueRunner extends RecordRunner {
  progress(): Promise<QueueProgress>;
  /** What the shared memo saved, counted from the cached nodes of the runs returned. */
  savings(): MemoSavings;
  /** What the workers' write guards did with the write calls of the jobs returned so far. */
  writeCalls(): WriteCallCounts;
  /** Runner for another namespace salt (same connections), e.g. the next `--repeat` run. */
  withSalt(salt: string): RecordRunner;
  close(): Promise<void>;
}

/** How long Redis may be unreachable during an evaluation before it ends with QUEUE_ERROR. */
export const DEFAULT_REDIS_LOST_MS = 30_000;

/** Connects (QUEUE_ERROR naming the URL when Redis cannot be reached) and returns the runner. */
export async function createQueueRunner(opts: QueueRunnerOptions): Promise<QueueRunner> {
  await checkRedis(opts.url);
  const queueName = opts.queue ?? DEFAULT_QUEUE;
  // BullMQ leaves connections it was given open, so this module closes the three it opens.
  const connections = [openRedis(opts.url), openRedis(opts.url), openRedis(opts.url)] as const;
  const [redis, queueConnection, eventsConnection] = connections;
  const queue = new Queue<EvalJobData, EvalJobResult>(queueName, { connection: queueConnection });
  const events = new QueueEvents(queueName, { connection: eventsConnection });
  queue.on('error', () => {});
  events.on('error', () => {});
  await events.waitUntilReady();
  const blobs = createBlobStore(redis);
  // A watchdog on our own connection: Redis gone for `lostMs` ends every evaluation waiting on it.
  const envLost = Number(process.env.FLOWSCOUT_REDIS_LOST_MS);
  const lostMs = opts.redisLostMs ?? (Number.isFinite(envLost) && envLost > 0 ? envLost : DEFAULT_REDIS_LOST_MS);
  let lostError: FlowScoutError | undefined;
  let rejectLost!: (e: FlowScoutError) => void;
  const lost = new Promise<never>((_resolve, reject) => (rejectLost = reject));
  lost.catch(() => undefined);
  let downSince: number | undefined;
  const watchdog = setInterval(
    () => {
      if (redis.status === 'ready') {
        downSince = undefined;
        return;
      }
      downSince ??= Date.now();
      if (lostError || Date.now() - downSince < lostMs) return;
      lostError = new FlowScoutError({
        code: 'QUEUE_ERROR',
        message: `lost Redis at ${redactRedisUrl(opts.url)}: unreachable for ${Math.round((Date.now() - downSince) / 1000)} s during the evaluation`,
        hint: 'Start Redis again and resume (a search: --resume <run> with --redis; finished jobs are kept in Redis), or resume without --redis to run in one process. FLOWSCOUT_REDIS_LOST_MS sets how long to wait.',
      });
      rejectLost(lostError);
    },
    Math.min(1_000, Math.max(50, Math.floor(lostMs / 4))),
  );
  watchdog.unref();
  /** `p`, or the lost-Redis error once Redis has been gone for `lostMs`. */
  const unlessLost = <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => undefined);
    return Promise.race([p, lost]);
  };
  const chunkSize = Math.max(1, opts.chunkSize ?? 1);
  const pollMs = opts.pollMs ?? 5_000;
  const counts = { done: 0, failed: 0 };
  const saved: Required<MemoSavings> = {
    nodeRunsSaved: 0,
    toolCallsSaved: 0,
    llmCallsSaved: 0,
    judgeScoresReused: 0,
    judgeCallsSaved: 0,
    judgeTokensSaved: 0,
  };
  const waiters = new Map<string, Set<() => void>>();
  // Jobs of an earlier coordinator (added before this moment) whose model calls failed are run again, once each.
  const startedAt = Date.now();
  const redone = new Set<string>();
  let last: QueueProgress | undefined;
  const writes = opts.writes && opts.writes.length > 0 ? await blobs.put(opts.writes) : undefined;
  let writeCalls: WriteCallCounts = { answeredFromReplay: 0, refused: 0, sentLive: 0 };

  const wake = (id: string) => {
    for (const settle of waiters.get(id) ?? []) settle();
  };
  events.on('completed', ({ jobId }) => wake(jobId));
  events.on('failed', ({ jobId }) => wake(jobId));

  /** Resolves with the job's result once it is completed; rejects once it failed for good. */
  const outcome = async (id: string, signal?: AbortSignal): Promise<EvalJobResult> => {
    let retried = false;
    for (;;) {
      if (signal?.aborted) throw cancelledEvaluation(signal);
      let settle!: () => void;
      const changed = new Promise<void>((r) => (settle = r));
      const mine = waiters.get(id) ?? new Set();
      mine.add(settle);
      waiters.set(id, mine);
      try {
        // The state first, then the job: a job read before its state could finish in between and show no result yet.
        const state = await queue.getJobState(id);
        if (state === 'completed' || state === 'failed') {
          const job = await Job.fromId<EvalJobData, EvalJobResult>(queue, id);
          if (!job) throw vanished(id);
          if (state === 'completed' && job.returnvalue) {
            if (hasFailedModelCalls(job.returnvalue) && job.timestamp < startedAt && !redone.has(id)) {
              redone.add(id);
              await job.retry('completed');
              continue;
            }
            return job.returnvalue;
          }
          if (state === 'failed') {
            // A job that ran out of attempts on failures that may pass (found by a resumed run, say) gets one more round.
            if (!retried && !isUnrecoverable(job)) {
              retried = true;
              await job.retry('failed');
              continue;
            }
            throw failure(job);
          }
        } else if (state === 'unknown') throw vanished(id);
        const tick = new AbortController();
        const wait = abortableSleep(pollMs, signal ? AbortSignal.any([signal, tick.signal]) : tick.signal).catch(
          () => {},
        );
        await Promise.race([changed, wait]);
        tick.abort();
      } finally {
        mine.delete(settle);
        if (mine.size === 0) waiters.delete(id);
      }
    }
  };

  const runRecordsWith =
    (salt: string) =>
    async (req: RecordRunRequest): Promise<RecordRun[]> => {
      if (lostError) throw lostError;
      const workflow = await unlessLost(blobs.put(req.workflow.workflow));
      const recordHashes = await unlessLost(Promise.all(req.records.map((r) => blobs.put(r))));
      const chunks: string[][] = [];
      for (let i = 0; i < recordHashes.length; i += chunkSize) chunks.push(recordHashes.slice(i, i + chunkSize));
      const jobs = chunks.map((records) => {
        const data: EvalJobData = {
          v: 1,
          run: opts.run,
          workflow,
          workflowHash: req.workflow.hash,
          records,
          policy: { model: opts.policy.model },
          judge: opts.judge,
          ...(opts.judgeMode === 'joint' ? { judgeMode: 'joint' as const } : {}),
          memo: opts.memo,
          ...(opts.nodeConcurrency !== undefined ? { nodeConcurrency: opts.nodeConcurrency } : {}),
          ...(opts.toolsHint ? { toolsHint: opts.toolsHint } : {}),
          ...(opts.requestsPerMinute !== undefined ? { limits: { requestsPerMinute: opts.requestsPerMinute } } : {}),
          ...(writes ? { writes } : {}),
          ...(opts.allowLiveWrites === true ? { liveWrites: true } : {}),
        };
        return { id: jobIdOf(data, salt), data };
      });
      await unlessLost(
        queue.addBulk(
          jobs.map((j) => ({
            name: 'evaluate',
            data: j.data,
            opts: {
              jobId: j.id,
              attempts: opts.attempts ?? 3,
              backoff: { type: 'exponential', delay: 1_000 },
              removeOnComplete: { age: KEEP_SECONDS },
              removeOnFail: { age: KEEP_SECONDS },
            },
          })),
        ),
      );
      let firstError: unknown;
      const breaker = opts.breaker;
      const signal = breaker
        ? req.signal
          ? AbortSignal.any([req.signal, breaker.signal])
          : breaker.signal
        : req.signal;
      const results = await unlessLost(
        Promise.all(
          jobs.map(async (j) => {
            let r: EvalJobResult;
            try {
              r = await outcome(j.id, signal);
            } catch (e) {
              if (!isFlowScoutError(e) || (e.code !== 'ABORTED' && e !== breaker?.tripped())) counts.failed++;
              firstError ??= e;
              return undefined;
            }
            counts.done++;
            writeCalls = addWriteCalls(writeCalls, r.writeCalls);
            // The job's model calls, in the order they ended, as if they had been made here.
            if (breaker) replayModelCalls(breaker, r.modelCalls);
            return r;
          }),
        ),
      );
      last = await unlessLost(progressNow()).catch(() => last);
      const trip = breaker?.tripped();
      if (trip) {
        // Nothing more of this evaluation is wanted: jobs no worker took yet are taken off the queue (running ones finish).
        await Promise.all(jobs.map((j, i) => (results[i] === undefined ? queue.remove(j.id).catch(() => 0) : 0)));
        throw trip;
      }
      if (firstError !== undefined) throw firstError;
      const runs = results.flatMap((r) => r!.runs);
      if (runs.length !== req.records.length) {
        throw new FlowScoutError({
          code: 'QUEUE_ERROR',
          message: `the workers returned ${runs.length} record runs for ${req.records.length} records`,
          hint: 'A worker of another FlowScout version may be on the queue; run workers of the same version as the coordinator.',
        });
      }
      for (const run of runs) {
        for (const o of run.trace.observations) {
          if (!o.cached) continue;
          saved.nodeRunsSaved++;
          saved.toolCallsSaved += o.calls?.length ?? 0;
          saved.llmCallsSaved += o.usage?.llmCalls ?? 0;
        }
        countReuse(saved, run.scored.score.reused);
      }
      if (opts.budget) chargeBudget(opts.budget, runs);
      return runs;
    };

  async function progressNow(): Promise<QueueProgress> {
    const c = await queue.getJobCounts('wait', 'waiting', 'delayed', 'prioritized', 'active');
    const workers = await queue.getWorkersCount();
    return {
      waiting: (c.wait ?? c.waiting ?? 0) + (c.delayed ?? 0) + (c.prioritized ?? 0),
      active: c.active ?? 0,
      done: counts.done,
      failed: counts.failed,
      workers,
    };
  }

  return {
    runRecords: runRecordsWith(opts.salt ?? ''),
    withSalt: (salt) => ({ runRecords: runRecordsWith(salt) }),
    async progress() {
      last = await unlessLost(progressNow());
      return last;
    },
    progressSnapshot: () => last,
    savings: () => ({ ...saved }),
    writeCalls: () => ({ ...writeCalls }),
    async close() {
      clearInterval(watchdog);
      for (const set of waiters.values()) for (const settle of set) settle();
      // With Redis gone, closing gracefully would wait for it: the connections are dropped instead.
      // The queue and the event stream are still told to close (not awaited), or their read loops
      // would go on retrying the dropped connections and keep the process alive.
      const closing = [events.close(), queue.close()].map((p) => p.catch(() => undefined));
      if (redis.status === 'ready') await Promise.all(closing);
      for (const c of connections) c.disconnect();
    },
  };
}

/** Charges the workers' usage (runs and judge) to the coordinator's budget; throws its refusal when a limit is reached. */
function chargeBudget(budget: Budget, runs: readonly RecordRun[]): void {
  for (const r of runs) {
    const calls = r.trace.totals.llmCalls + (r.scored.score.usage?.llmCalls ?? 0);
    const tokens =
      r.trace.totals.inputTokens +
      r.trace.totals.outputTokens +
      (r.scored.score.usage ? r.scored.score.usage.inputTokens + r.scored.score.usage.outputTokens : 0);
    const cost = r.trace.totals.costUsd + (r.scored.score.usage?.costUsd ?? 0);
    budget.charge(tokens, cost);
    for (let i = 0; i < calls; i++) budget.reserveCall();
  }
  budget.check();
}
