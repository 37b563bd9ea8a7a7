import { FlowScoutError } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import { prepareWorkflow, type PreparedWorkflow } from '../graph/prepare.js';
import { schemasFromTools, scorePredictions } from '../metrics/score.js';
import type { TaskRecord } from '../records/schema.js';
import type { ExecutionPolicy } from '../policies/types.js';
import type { Usage } from '../llm/usage.js';
import { executeWorkflow } from '../runtime/execute.js';
import type { Trace } from '../runtime/trace.js';
import { buildFeedback } from './feedback.js';
import type { EvaluateOptions, RecordEvaluation, WorkflowEvaluation } from './types.js';

export type { EvaluateOptions, RecordEvaluation, WorkflowEvaluation } from './types.js';
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
 */

/** Runs and scores `workflow` on every record (see the module comment). */
export async function evaluateWorkflow(workflow: Workflow | PreparedWorkflow, records: readonly TaskRecord[], opts: EvaluateOptions): Promise<WorkflowEvaluation> {
  // Validated and indexed once for every record (and for the feedback).
  const prepared = prepareWorkflow(workflow);
  const w = prepared.workflow;
  const hash = prepared.hash;
  const schemas = opts.schemas ?? schemasFromTools(opts.tools.list());
  const errors = new Map<string, string>();
  const traces = await mapLimit(records, opts.concurrency ?? 4, async (record) => {
    checkAborted(opts.signal);
    try {
      return await executeWorkflow(prepared, { query: record.query, recordId: record.id }, {
        policy: opts.policy,
        tools: opts.tools,
        workflowHash: hash,
        ...(opts.memo ? { memo: opts.memo } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.nodeConcurrency !== undefined ? { concurrency: opts.nodeConcurrency } : {}),
      });
    } catch (e) {
      checkAborted(opts.signal);
      const message = e instanceof Error ? e.message : String(e);
      errors.set(record.id, message);
      return emptyTrace(w, record, opts.policy.label, message);
    }
  });
  checkAborted(opts.signal);
  const predictions = traces.map((t, i) => ({ id: records[i]!.id, calls: t.calls.map((c) => ({ tool: c.tool, args: c.args })), answer: t.answer }));
  const report = await scorePredictions(records, predictions, { judge: opts.judge, schemas, concurrency: opts.concurrency ?? 4, ...(opts.signal ? { signal: opts.signal } : {}) });
  checkAborted(opts.signal);

  const perRecord: RecordEvaluation[] = report.records.map((s, i) => {
    const r: RecordEvaluation = { id: s.id, tc: s.tc, es: s.es, dims: s.dims, detail: s.detail, trace: traces[i]! };
    if (s.rationale) r.rationale = s.rationale;
    if (s.judgeError) r.judgeError = s.judgeError;
    const err = errors.get(s.id);
    if (err) r.error = err;
    return r;
  });
  let usage: Usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const totals = { llmCalls: 0, toolCalls: 0, nodes: 0, cachedNodes: 0 };
  for (const t of traces) {
    totals.llmCalls += t.totals.llmCalls;
    totals.toolCalls += t.totals.toolCalls;
    totals.nodes += t.totals.nodes;
    totals.cachedNodes += t.totals.cachedNodes;
    usage = { llmCalls: usage.llmCalls + t.totals.llmCalls, inputTokens: usage.inputTokens + t.totals.inputTokens, outputTokens: usage.outputTokens + t.totals.outputTokens, costUsd: usage.costUsd + t.totals.costUsd };
  }
  if (report.usage) {
    usage = { llmCalls: usage.llmCalls + report.usage.llmCalls, inputTokens: usage.inputTokens + report.usage.inputTokens, outputTokens: usage.outputTokens + report.usage.outputTokens, costUsd: usage.costUsd + report.usage.costUsd };
  }
  const result: WorkflowEvaluation = {
    reward: (report.tc + report.es) / 2,
    tc: report.tc,
    es: report.es,
    dims: report.dims,
    perRecord,
    totals,
    usage,
    judge: report.judge,
    policy: opts.policy.label,
  };
  if (opts.feedback !== false) {
    result.feedback = buildFeedback(prepared, records, perRecord, { tools: opts.tools.list(), ...(typeof opts.feedback === 'object' ? opts.feedback : {}) });
  }
  return result;
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const reason = signal.reason;
  if (reason instanceof FlowScoutError) throw reason;
  throw new FlowScoutError({ code: 'ABORTED', message: 'the evaluation was cancelled', hint: 'Nothing to do: the run was stopped on purpose.' });
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
    totals: { nodes: 0, skipped: 0, llmCalls: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, durationMs: 0, cachedNodes: 0 },
  };
}
