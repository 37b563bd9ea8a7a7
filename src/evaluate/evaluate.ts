import { FlowScoutError } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import { prepareWorkflow, type PreparedWorkflow } from '../graph/prepare.js';
import { addSources, argumentSources, emptySources } from '../dataflow/argument-sources.js';
import { reportFromRuns, schemasFromTools, scoreRun } from '../metrics/score.js';
import type { TaskRecord } from '../records/schema.js';
import { addUsage, type Usage } from '../llm/usage.js';
import { executeWorkflow } from '../runtime/execute.js';
import type { Trace } from '../runtime/trace.js';
import { buildFeedback } from './feedback.js';
import type { EvaluateOptions, RecordEvaluation, RecordRun, RecordRunOptions, WorkflowEvaluation } from './types.js';

export type {
  EvaluateOptions,
  RecordEvaluation,
  RecordRun,
  RecordRunner,
  RecordRunOptions,
  RecordRunRequest,
  WorkflowEvaluation,
} from './types.js';
import { mapLimit } from '../util/map-limit.js';

/**
 * Evaluating a workflow on a record set (docs/DESIGN.md, "Metrics" and "Search", simulate): every record
 * is run with `executeWorkflow` (records in parallel, bounded; results collected in record order so
 * everything downstream is deterministic), the traces are scored with `scorePredictions` (TC per
 * record with its detail, ES from the judge), and R = (TC + ES) / 2. This is the one evaluation the
 * search, `eval`-style scoring of a workflow, and the benchmarks use.
 *
 * A record whose run throws (a bug, not a node failure — those are recorded in the trace) is scored
 * as an empty trace and its error is kept. An invalid workflow throws INVALID_WORKFLOW before any
 * record runs. Cancellation (the signal) throws ABORTED.
 *
 * Each record's run and score is one step (`runAndScoreRecord`), and the evaluation is added up
 * from those steps (`evaluationFromRuns`); a `RecordRunner` (the Redis queue of
 * `src/distributed/`) may run the steps on other machines, and the result is the same.
 */

/**
 * Runs the prepared workflow on one record and scores the trace (TC with detail, ES from the
 * judge). A run that throws is scored as an empty trace and keeps its error; cancellation throws
 * ABORTED. The local evaluation runs every record through this, and so does a queue worker
 * (`src/distributed/worker.ts`), so both score the same.
 */
export async function runAndScoreRecord(
  workflow: Workflow | PreparedWorkflow,
  record: TaskRecord,
  opts: RecordRunOptions,
): Promise<RecordRun> {
  const prepared = prepareWorkflow(workflow);
  checkAborted(opts.signal);
  let trace: Trace;
  let error: string | undefined;
  try {
    trace = await executeWorkflow(
      prepared,
      { query: record.query, recordId: record.id },
      {
        policy: opts.policy,
        tools: opts.tools,
        workflowHash: prepared.hash,
        ...(opts.memo ? { memo: opts.memo } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.nodeConcurrency !== undefined ? { concurrency: opts.nodeConcurrency } : {}),
      },
    );
  } catch (e) {
    checkAborted(opts.signal);
    error = e instanceof Error ? e.message : String(e);
    trace = emptyTrace(prepared.workflow, record, opts.policy.label, error);
  }
  const schemas = opts.schemas ?? schemasFromTools(opts.tools.list());
  const prediction = { calls: trace.calls.map((c) => ({ tool: c.tool, args: c.args })), answer: trace.answer };
  const scored = await scoreRun(record, prediction, {
    judge: opts.judge,
    schemas,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  checkAborted(opts.signal);
  return { trace, scored, ...(error !== undefined ? { error } : {}) };
}

/** Runs and scores `workflow` on every record (see the module comment). */
export async function evaluateWorkflow(
  workflow: Workflow | PreparedWorkflow,
  records: readonly TaskRecord[],
  opts: EvaluateOptions,
): Promise<WorkflowEvaluation> {
  // Validated and indexed once for every record (and for the feedback).
  const prepared = prepareWorkflow(workflow);
  const runs = await runRecords(prepared, records, opts);
  return evaluationFromRuns(prepared, records, runs, opts);
}

/**
 * Runs and scores `workflow` on every record without adding up the evaluation (`runs[i]` is record
 * i's): what `evaluateWorkflow` does before `evaluationFromRuns`, for a caller that evaluates a
 * record set in parts (the search's racing of candidates).
 */
export async function runRecords(
  workflow: Workflow | PreparedWorkflow,
  records: readonly TaskRecord[],
  opts: EvaluateOptions,
): Promise<RecordRun[]> {
  const prepared = prepareWorkflow(workflow);
  let runs: RecordRun[];
  checkAborted(opts.signal);
  if (opts.runner) {
    runs = await opts.runner.runRecords({
      workflow: prepared,
      records,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  } else {
    const one: RecordRunOptions = {
      policy: opts.policy,
      tools: opts.tools,
      judge: opts.judge,
      schemas: opts.schemas ?? schemasFromTools(opts.tools.list()),
      ...(opts.memo ? { memo: opts.memo } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.nodeConcurrency !== undefined ? { nodeConcurrency: opts.nodeConcurrency } : {}),
    };
    runs = await mapLimit(records, opts.concurrency ?? 4, (record) => runAndScoreRecord(prepared, record, one));
  }
  checkAborted(opts.signal);
  return runs;
}

/** The evaluation of a workflow from its records' runs (`runs[i]` is record i's): means, per-record detail, totals, feedback. */
export function evaluationFromRuns(
  prepared: PreparedWorkflow,
  records: readonly TaskRecord[],
  runs: readonly RecordRun[],
  opts: Pick<EvaluateOptions, 'judge' | 'policy' | 'tools' | 'feedback'>,
): WorkflowEvaluation {
  let judgeUsage: Usage | undefined;
  for (const r of runs) if (r.scored.score.usage) judgeUsage = addUsage(judgeUsage, r.scored.score.usage);
  const report = reportFromRuns(
    records,
    runs.map((r) => [r.scored]),
    { judge: opts.judge, ...(judgeUsage ? { usage: judgeUsage } : {}) },
  );
  const traces = runs.map((r) => r.trace);

  const schemas = schemasFromTools(opts.tools.list());
  const sources = emptySources();
  const perRecord: RecordEvaluation[] = report.records.map((s, i) => {
    const argSources = argumentSources(records[i]!, traces[i]!.calls, s.detail, schemas);
    addSources(sources, argSources);
    const r: RecordEvaluation = {
      id: s.id,
      tc: s.tc,
      es: s.es,
      dims: s.dims,
      detail: s.detail,
      trace: traces[i]!,
      argumentSources: argSources,
    };
    if (s.rationale) r.rationale = s.rationale;
    if (s.judgeError) r.judgeError = s.judgeError;
    if (s.noReference) r.noReference = true;
    const err = runs[i]!.error;
    if (err) r.error = err;
    const used = runs[i]!.scored.score.usage;
    if (used) r.judgeUsage = used;
    return r;
  });
  let usage: Usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const totals = { llmCalls: 0, toolCalls: 0, nodes: 0, cachedNodes: 0 };
  for (const t of traces) {
    totals.llmCalls += t.totals.llmCalls;
    totals.toolCalls += t.totals.toolCalls;
    totals.nodes += t.totals.nodes;
    totals.cachedNodes += t.totals.cachedNodes;
    usage = {
      llmCalls: usage.llmCalls + t.totals.llmCalls,
      inputTokens: usage.inputTokens + t.totals.inputTokens,
      outputTokens: usage.outputTokens + t.totals.outputTokens,
      costUsd: usage.costUsd + t.totals.costUsd,
    };
  }
  if (report.usage) {
    usage = {
      llmCalls: usage.llmCalls + report.usage.llmCalls,
      inputTokens: usage.inputTokens + report.usage.inputTokens,
      outputTokens: usage.outputTokens + report.usage.outputTokens,
      costUsd: usage.costUsd + report.usage.costUsd,
    };
  }
  const result: WorkflowEvaluation = {
    reward: report.esRecords > 0 ? (report.tc + report.es) / 2 : report.tc,
    tc: report.tc,
    es: report.es,
    esRecords: report.esRecords,
    dims: report.dims,
    perRecord,
    argumentSources: sources,
    totals,
    usage,
    judge: report.judge,
    policy: opts.policy.label,
  };
  if (opts.feedback !== false) {
    result.feedback = buildFeedback(prepared, records, perRecord, {
      tools: opts.tools.list(),
      ...(typeof opts.feedback === 'object' ? opts.feedback : {}),
    });
  }
  return result;
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelledEvaluation(signal);
}

/** What a cancelled evaluation fails with: the signal's own FlowScoutError, else ABORTED. */
export function cancelledEvaluation(signal: AbortSignal): FlowScoutError {
  const reason: unknown = signal.reason;
  if (reason instanceof FlowScoutError) return reason;
  return new FlowScoutError({
    code: 'ABORTED',
    message: 'the evaluation was cancelled',
    hint: 'Nothing to do: the run was stopped on purpose.',
  });
}

function emptyTrace(w: Workflow, record: TaskRecord, policy: string, error: string): Trace {
  return {
    recordId: record.id,
    query: record.query,
    workflow: w.name,
    policy,
    observations: [],
    calls: [],
    answer: '',
    status: 'error',
    error,
    totals: {
      nodes: 0,
      skipped: 0,
      llmCalls: 0,
      toolCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      durationMs: 0,
      cachedNodes: 0,
    },
  };
}
