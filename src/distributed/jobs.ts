import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { FlowScoutError, type ErrorCode } from '../errors/index.js';
import type { CircuitBreaker } from '../llm/circuit-breaker.js';
import type { FailureKind } from '../llm/retry.js';
import { stableStringify } from '../contracts/canonical-args.js';
import type { RecordRun } from '../evaluate/types.js';
import type { WriteCallCounts } from '../tools/write-guard.js';
import { describeIssue } from '../records/issue-text.js';

/**
 * What travels between a coordinator and its workers (docs/ARCHITECTURE.md, "Distributed
 * evaluation"). A job names a workflow and a chunk of records by content hash; the contents sit in
 * Redis under `flowscout:blob:<sha256>` (written once by the coordinator, cached by every worker),
 * so a job is a few hundred bytes and a worker needs nothing but its tool config. The job also
 * names who decides and who judges by model string — never an API key: a worker reads keys from
 * its own environment.
 *
 * A job's id is a hash of everything that determines its result plus the run's namespace, so
 * adding the same job twice (a coordinator that was killed and resumed) finds the job that is
 * already there, finished or not, instead of running it again.
 */

/** The queue's default name. */
export const DEFAULT_QUEUE = 'flowscout-eval';

/** Key prefix of our own Redis keys (BullMQ keeps its keys under `bull:`). */
export const KEY_PREFIX = 'flowscout';

/** How long blobs, memo entries and finished jobs stay in Redis (7 days): long enough to resume a run. */
export const KEEP_SECONDS = 7 * 24 * 3600;

/** Who decides at the nodes: a model string (`offline` or a provider's). */
export interface PolicyRef {
  model: string;
}

/** One evaluation job: run and score `workflow` on the records of the chunk. */
export interface EvalJobData {
  v: 1;
  /** The run the job belongs to (memo entries and shared counters are kept per run). */
  run: string;
  /** Blob hash of the workflow (valid; its canonical hash is `workflowHash`). */
  workflow: string;
  workflowHash: string;
  /** Blob hashes of the records, in order. */
  records: string[];
  policy: PolicyRef;
  /** Model string of the judge (`offline`: the lexical judge). */
  judge: string;
  /** How an LLM judge asks (absent: joint). */
  judgeMode?: 'joint';
  /** Reuse node outputs across the run's candidates (a memo shared by every worker, in Redis). */
  memo: boolean;
  nodeConcurrency?: number;
  /** The coordinator's tool config (absolute path): selects among a worker's own `--tools` configs when it has several (never loaded otherwise). */
  toolsHint?: string;
  /** Shared limits of the run across all workers. */
  limits?: { requestsPerMinute?: number };
  /**
   * Blob hash of the recorded write calls (a JSON array of calls) the coordinator's write guard
   * answers write calls to live tools from; the worker's guard answers from them too. Absent when
   * there is none (no live write tool, or no recorded call of one) and from older coordinators: the
   * worker then refuses every write call it does not send.
   */
  writes?: string;
  /**
   * The run's live-writes decision (`--allow-live-writes` given to the coordinator). A worker sends a
   * job's write calls to live tools only when both this and its own `--allow-live-writes` say so: the
   * worker's flag is a ceiling, never a default. Absent (and from older coordinators): not sent.
   */
  liveWrites?: boolean;
}

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 key (64 hex digits) of content in Redis');
const named = z.string().min(1);

/**
 * The shape of `EvalJobData`, checked where a worker reads a job: a job is data anyone who can write
 * to the Redis can put there, so a malformed one fails as what is wrong with it (JSON path and the
 * expected shape), not as a bug. Fields it does not know are ignored (a newer coordinator's optional
 * fields), except `policy.learnFrom` (see `parseJobData`).
 */
export const EvalJobSchema = z.object({
  v: z.literal(1),
  run: named,
  workflow: sha256,
  workflowHash: named,
  records: z.array(sha256).min(1),
  policy: z.object({ model: named }),
  judge: named,
  judgeMode: z.literal('joint').optional(),
  memo: z.boolean(),
  nodeConcurrency: z.number().int().min(1).optional(),
  toolsHint: z.string().optional(),
  limits: z.object({ requestsPerMinute: z.number().positive().optional() }).optional(),
  writes: sha256.optional(),
  liveWrites: z.boolean().optional(),
}) satisfies z.ZodType<EvalJobData>;

/**
 * The job's data as an `EvalJobData`, or a QUEUE_ERROR naming every problem by JSON path (the
 * location is the first). A job of an older coordinator that asks the offline policy to learn from
 * records (`policy.learnFrom`, from the removed `--learn-from`) is refused rather than run without
 * them: its scores would not be the ones that coordinator's user asked for.
 */
export function parseJobData(data: unknown, id: string | undefined): EvalJobData {
  const job = `job ${id ?? '(no id)'}`;
  const policy = (data as { policy?: unknown } | null)?.policy;
  if (policy !== null && typeof policy === 'object' && 'learnFrom' in policy) {
    throw new FlowScoutError({
      code: 'QUEUE_ERROR',
      message: `${job} asks the offline policy to learn from records ($.policy.learnFrom), which this FlowScout no longer does: policies learn from no records`,
      hint: "The job comes from an older coordinator run with --learn-from: run it with the workers' FlowScout version and without --learn-from (a search writes what it learns into the workflow).",
      location: { path: '$.policy.learnFrom' },
    });
  }
  const parsed = EvalJobSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => describeIssue(issue, data));
  throw new FlowScoutError({
    code: 'QUEUE_ERROR',
    message: `${job} is not a valid FlowScout evaluation job: ${problems
      .slice(0, 5)
      .map((p) => `${p.path}: ${p.message}`)
      .join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
    hint: "Jobs on this queue are written by FlowScout coordinators (search, eval, bench --redis) of the workers' version; remove jobs written by anything else, and run coordinators and workers of the same version.",
    location: { path: problems[0]!.path },
  });
}

/** What a job returns: one run per record of the chunk, who ran it, and how its model calls went. */
export interface EvalJobResult {
  runs: RecordRun[];
  worker: string;
  /** The job's model calls in the order they ended (see `ModelCallLog`); absent from workers of an older version. */
  modelCalls?: ModelCallRun[];
  /** What the worker's write guard did with the job's write calls to live tools; absent from workers of an older version. */
  writeCalls?: WriteCallCounts;
}

/**
 * A stretch of a job's model calls that ended alike: `ok` calls in a row that got an answer, or
 * `failed` calls in a row that failed the same way (`key`, as the circuit breaker compares
 * failures) with `error`, the model's error as the worker saw it (model string and provider
 * message, keys already redacted).
 */
export type ModelCallRun =
  | { ok: number }
  | { failed: number; key: string; kind?: FailureKind; error: { code: ErrorCode; message: string; hint?: string } };

/**
 * The model calls of one job, recorded by the worker (it stands in as the breaker of the worker's
 * clients, so it sees every logical call after its retries) and replayed by the coordinator into
 * the run's circuit breaker: a model that is broken on the workers stops the run as it would in
 * one process. Consecutive alike outcomes are merged, so the log stays small.
 */
export interface ModelCallLog {
  success(): void;
  failure(key: string, error: FlowScoutError, kind?: FailureKind): void;
  runs(): ModelCallRun[];
}

export function createModelCallLog(): ModelCallLog {
  const runs: ModelCallRun[] = [];
  return {
    success() {
      const last = runs.at(-1);
      if (last && 'ok' in last) last.ok++;
      else runs.push({ ok: 1 });
    },
    failure(key, error, kind) {
      const last = runs.at(-1);
      if (last && 'failed' in last && last.key === key) last.failed++;
      else
        runs.push({
          failed: 1,
          key,
          ...(kind ? { kind } : {}),
          error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) },
        });
    },
    runs: () => runs.map((r) => ({ ...r })),
  };
}

/** Feeds a job's model calls to `breaker` in order; returns whether any of them failed. */
export function replayModelCalls(breaker: CircuitBreaker, runs: readonly ModelCallRun[] | undefined): boolean {
  let failed = false;
  for (const r of runs ?? []) {
    if ('ok' in r) {
      if (r.ok > 0) breaker.success();
      continue;
    }
    failed = true;
    const error = new FlowScoutError({
      code: r.error.code,
      message: r.error.message,
      ...(r.error.hint ? { hint: r.error.hint } : {}),
    });
    for (let i = 0; i < r.failed; i++) breaker.failure(r.key, error, r.kind);
  }
  return failed;
}

/** Whether a job's model calls include a failure (such a result is not reused by a later coordinator). */
export function hasFailedModelCalls(result: EvalJobResult): boolean {
  return (result.modelCalls ?? []).some((r) => 'failed' in r);
}

/** sha256 of the stable JSON of `value`. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex');
}

/** The job id: a hash of the run namespace and everything that determines the result (no ':' — BullMQ forbids it). */
export function jobIdOf(data: EvalJobData, salt = ''): string {
  const { toolsHint: _hint, ...determining } = data;
  return `fs-${contentHash({ ...determining, salt }).slice(0, 40)}`;
}

const blobKey = (hash: string) => `${KEY_PREFIX}:blob:${hash}`;

/** Writes blobs by content hash (each once per process) and reads them back (cached). */
export interface BlobStore {
  put(value: unknown): Promise<string>;
  get<T>(hash: string): Promise<T>;
}

/** A blob store on `redis`; `cacheSize` blobs read are kept in memory. */
export function createBlobStore(redis: Redis, cacheSize = 2_000): BlobStore {
  const written = new Set<string>();
  const cache = new Map<string, unknown>();
  return {
    async put(value) {
      const text = stableStringify(value);
      const hash = createHash('sha256').update(text).digest('hex');
      if (!written.has(hash)) {
        await redis.set(blobKey(hash), text, 'EX', KEEP_SECONDS);
        written.add(hash);
      }
      return hash;
    },
    async get<T>(hash: string): Promise<T> {
      if (cache.has(hash)) return structuredClone(cache.get(hash)) as T;
      const text = await redis.get(blobKey(hash));
      if (text === null) {
        throw new FlowScoutError({
          code: 'QUEUE_ERROR',
          message: `the job's content ${hash.slice(0, 12)}… is no longer in Redis (expired or flushed)`,
          hint: 'Run the evaluation again (or --resume the search): the coordinator writes it again.',
        });
      }
      // The key is the content's sha256: content that no longer matches it was changed in Redis after
      // the coordinator wrote it (anyone who can write to that Redis could), so it is refused.
      const actual = createHash('sha256').update(text).digest('hex');
      if (actual !== hash) {
        throw new FlowScoutError({
          code: 'QUEUE_ERROR',
          message: `the job's content ${hash.slice(0, 12)}… in Redis does not match its sha256 key (it hashes to ${actual.slice(0, 12)}…): it was changed after the coordinator wrote it`,
          hint: 'Something other than a FlowScout coordinator wrote to this Redis; check who can write to it, delete the key flowscout:blob:<hash>, and run the evaluation again (or --resume the search).',
        });
      }
      const value = JSON.parse(text) as T;
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value as string);
      cache.set(hash, value);
      return structuredClone(value);
    },
  };
}
