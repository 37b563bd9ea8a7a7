import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { QueueProgress } from '../../distributed/queue-runner.js';
import { redactRedisUrl } from '../../distributed/redis-url.js';
import { FlowScoutError } from '../../errors/index.js';
import { assertValidWorkflow } from '../../graph/validate.js';
import { reportFromRuns, schemasFromTools, type EvalReport } from '../../metrics/score.js';
import type { Judge } from '../../metrics/types.js';
import { addUsage, type Usage } from '../../llm/usage.js';
import { readRecordsFile } from '../../records/read-records.js';
import type { Call, TaskRecord } from '../../records/schema.js';
import { evaluateWorkflow } from '../../evaluate/evaluate.js';
import type { WorkflowEvaluation } from '../../evaluate/types.js';
import { toolStatsFromTraces } from '../../evaluate/trace-tool-stats.js';
import { loadToolConfig } from '../../tools/load-tool-config.js';
import { addWriteCalls, type WriteGuardReport } from '../../tools/write-guard.js';
import type { ToolStats } from '../../contracts/tools.js';
import { readJsonFile } from '../../util/json-file.js';
import {
  addParameterCounts,
  addSources,
  emptySources,
  mostLost,
  type ArgumentSources,
  type ParameterCounts,
} from '../../dataflow/argument-sources.js';
import type { ModelWiring } from '../../wiring/wire-models.js';
import { learnedLine } from '../learned-note.js';

/**
 * The workflow mode of `flowscout eval`: runs a workflow on every record's query over the tools of a
 * tool config, with the policy a model string names (the offline policy when none is configured),
 * and scores it with `evaluateWorkflow` — the one evaluation the search and the benchmarks use
 * (records run concurrently; each trace's calls are π̂ and its answer r̂). `--repeat N` evaluates N
 * times, one run after another, and the report takes each record's means and the CV of its ES over
 * the N runs, exactly as `--predictions` does for repeated lines.
 */

export interface WorkflowEvalOptions {
  workflowFile: string;
  records: readonly TaskRecord[];
  toolsFile: string;
  model?: string;
  /** The command's model wiring (its one rate limiter bounds the policy's requests). */
  models: ModelWiring;
  judge: Judge;
  repeat: number;
  concurrency: number;
  /** Run the records on `flowscout worker`s through this Redis instead of in this process. */
  redis?: DistributedEvalOptions;
  /** `--allow-live-writes`: write calls go to live tools (by default answered from the records' replay or refused). */
  allowLiveWrites?: boolean;
  /** Where warnings about the tool config go (default: stderr). */
  warn?: (line: string) => void;
}

/** `--redis` and its companions: where the queue is and how jobs are cut. */
export interface DistributedEvalOptions {
  url: string;
  queue?: string;
  /** Records per job (default 1). */
  chunkSize?: number;
  /** Model string of the judge (the workers resolve it themselves). */
  judgeModel: string;
  requestsPerMinute?: number;
  /** Called every few seconds with the queue's state (the progress line). */
  onProgress?: (p: QueueProgress) => void;
}

export interface WorkflowEvalResult {
  report: EvalReport;
  /** The line about what the offline policy decides with (absent for an LLM policy). */
  learned?: string;
  workflow: string;
  policy: string;
  policyKind: string;
  repeat: number;
  /** Runs whose trace ended in error (still scored with what they produced). */
  failedRuns: Array<{ id: string; run: number; error: string }>;
  toolStats: ToolStats;
  /** With --redis: the queue, and the jobs this evaluation ran there. */
  distributed?: { redis: string; jobsDone: number; jobsFailed: number; workers: number };
  /** What happened to write calls to live tools (answered from replay, refused, or sent when allowed). */
  writeCalls: WriteGuardReport;
  /** Reference arguments by where their value stands: how many, how many called and passed right (every run summed). */
  argumentSources: ArgumentSources;
  /** The same per record (every run summed), in record order. */
  recordSources: Array<{ id: string; argumentSources: ArgumentSources }>;
  /** The same per parameter and source (every run summed), those that lost the most first (`mostLost`). */
  parameterSources: ParameterCounts[];
}

/** Runs and scores; closes the tools it opened. */
export async function evaluateWorkflowFile(opts: WorkflowEvalOptions): Promise<WorkflowEvalResult> {
  const raw = readJsonFile(opts.workflowFile);
  if (isToolDescriptorFile(opts.toolsFile)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${opts.toolsFile} lists tool descriptors; running a workflow needs a tool config that says how to call them`,
      hint: 'Pass a tool config, e.g. the tools.config.json that `flowscout import` wrote next to tools.json.',
      location: { file: opts.toolsFile },
    });
  }
  // Every record runs the workflow: write calls to live tools are answered from the records' recorded
  // responses or refused, unless the user allowed live writes.
  const registry = await loadToolConfig(opts.toolsFile, {
    guardWrites: { allowLiveWrites: opts.allowLiveWrites === true, records: opts.records },
    ...(opts.warn ? { warn: opts.warn } : {}),
  });
  try {
    const tools = registry.list();
    const workflow = assertValidWorkflow(raw, tools, opts.workflowFile);
    const resolved = await opts.models.policy(opts.model, { tools });
    const judge = meterJudge(opts.judge);
    const runs: WorkflowEvaluation[] = [];
    const queue = opts.redis
      ? await openEvalQueue(opts.redis, resolved.spec, registry.recordedWrites(), opts)
      : undefined;
    let finalProgress: QueueProgress | undefined;
    try {
      for (let run = 0; run < opts.repeat; run++) {
        const runner = queue ? { runner: queue.runner.withSalt(`repeat-${run}`) } : {};
        runs.push(
          await evaluateWorkflow(workflow, opts.records, {
            policy: resolved.instance,
            tools: registry,
            judge: judge.judge,
            concurrency: opts.concurrency,
            feedback: false,
            ...runner,
          }),
        );
      }
      finalProgress = await queue?.progress();
    } finally {
      await queue?.close();
    }
    // Remote judges' usage comes back with each record; the local meter saw none of it.
    const judgeUsage = queue
      ? runs
          .flatMap((ev) => ev.perRecord)
          .reduce<Usage | undefined>((u, r) => (r.judgeUsage ? addUsage(u, r.judgeUsage) : u), undefined)
      : judge.usage();
    const perRecord = opts.records.map((_, i) => runs.map((ev) => ev.perRecord[i]!));
    const report = reportFromRuns(
      opts.records,
      perRecord.map((evs) =>
        evs.map((r) => ({
          detail: r.detail,
          failed: r.trace.calls.filter((c) => c.status === 'error').length,
          score: { ...r.dims, es: r.es, ...(r.rationale ? { rationale: r.rationale } : {}) },
          ...(r.judgeError ? { error: r.judgeError } : {}),
        })),
      ),
      { judge: opts.judge, ...(judgeUsage ? { usage: judgeUsage } : {}) },
    );
    const failedRuns = perRecord.flatMap((evs) =>
      evs.flatMap((r, k) =>
        r.trace.status === 'error'
          ? [{ id: r.id, run: k + 1, error: r.error ?? r.trace.error ?? 'unknown error' }]
          : [],
      ),
    );
    const learned = learnedLine(resolved.instance.kind, workflow, raw);
    const sumOf = (list: ReadonlyArray<ArgumentSources | undefined>) =>
      list.reduce<ArgumentSources>((acc, x) => (x ? addSources(acc, x) : acc), emptySources());
    const schemas = schemasFromTools(tools);
    const byParameter = new Map<string, ParameterCounts>();
    perRecord.forEach((evs, i) => {
      for (const r of evs) addParameterCounts(byParameter, opts.records[i]!, r.trace.calls, r.detail, schemas);
    });
    return {
      report,
      argumentSources: sumOf(runs.map((ev) => ev.argumentSources)),
      recordSources: perRecord.map((evs) => ({
        id: evs[0]!.id,
        argumentSources: sumOf(evs.map((r) => r.argumentSources)),
      })),
      parameterSources: mostLost(byParameter.values()),
      ...(learned ? { learned } : {}),
      workflow: workflow.name,
      policy: resolved.label,
      policyKind: resolved.instance.kind,
      repeat: opts.repeat,
      failedRuns,
      toolStats: queue ? toolStatsFromTraces(runs) : registry.stats(),
      // With --redis the write calls were made on the workers: their guards' counts come back with the jobs.
      writeCalls: addWriteCalls(registry.writeGuard(), queue?.runner.writeCalls()),
      ...(queue && finalProgress
        ? {
            distributed: {
              redis: redactRedisUrl(opts.redis!.url),
              jobsDone: finalProgress.done,
              jobsFailed: finalProgress.failed,
              workers: finalProgress.workers,
            },
          }
        : {}),
    };
  } finally {
    await registry.close();
  }
}

/** The judge, with the model usage of its scores added up (the report's "judge usage"). */
function meterJudge(inner: Judge): { judge: Judge; usage(): Usage | undefined } {
  let usage: Usage | undefined;
  const judge: Judge = {
    id: inner.id,
    kind: inner.kind,
    label: inner.label,
    async score(req) {
      const score = await inner.score(req);
      if (score.usage) usage = addUsage(usage, score.usage);
      return score;
    },
  };
  return { judge, usage: () => usage };
}

function isToolDescriptorFile(file: string): boolean {
  const data = readJsonFile(file);
  return Array.isArray(data) || (data !== null && typeof data === 'object' && 'tools' in data && !('sources' in data));
}

/** Opens the queue runner of one `eval --redis` (its own namespace: repeated evals never share results). */
async function openEvalQueue(
  d: DistributedEvalOptions,
  policySpec: string,
  writes: readonly Call[],
  opts: WorkflowEvalOptions,
) {
  // The queue (BullMQ, the Redis client) is loaded only when --redis asks for it.
  const { createQueueRunner } = await import('../../distributed/queue-runner.js');
  const runner = await createQueueRunner({
    url: d.url,
    ...(d.queue ? { queue: d.queue } : {}),
    run: `eval-${randomBytes(6).toString('hex')}`,
    policy: { model: policySpec },
    // The workers answer write calls from the recorded ones this process's guard answers from.
    writes,
    // The run's live-writes decision goes with its jobs: a worker's own --allow-live-writes does not send them otherwise.
    ...(opts.allowLiveWrites ? { allowLiveWrites: true } : {}),
    judge: d.judgeModel,
    memo: false,
    ...(d.chunkSize !== undefined ? { chunkSize: d.chunkSize } : {}),
    toolsHint: resolve(opts.toolsFile),
    ...(d.requestsPerMinute !== undefined ? { requestsPerMinute: d.requestsPerMinute } : {}),
  });
  const timer = d.onProgress
    ? setInterval(() => void runner.progress().then(d.onProgress!, () => {}), 2_000)
    : undefined;
  timer?.unref();
  let last: QueueProgress | undefined;
  return {
    runner,
    async progress(): Promise<QueueProgress> {
      last = await runner.progress().catch(() => last ?? { waiting: 0, active: 0, done: 0, failed: 0, workers: 0 });
      return last;
    },
    async close() {
      if (timer) clearInterval(timer);
      await runner.close();
    },
  };
}
