import type { Workflow } from '../graph/schema.js';
import { asText } from './context.js';
import { PENDING_PREFIX, UNGROUNDED_CALL_PREFIX, UNGROUNDED_PREFIX } from './grounding.js';
import type { NodeObservation, Trace, TraceCall, TraceTotals, WithheldCall } from './trace.js';

/**
 * Assembles a Trace from the observations of a finished run (pure). π̂ is every call the run
 * issued — all attempts of every executed tool node, failed calls included — flattened in
 * deterministic topological order (ties by node id), each node's calls in issue order. A retry loop
 * therefore pays for its failed attempts in TC, exactly as an agent that re-tries a call does.
 * r̂ is the exit node's output as text.
 *
 * Failure semantics of the run as a whole: the trace is `error` when the run was cancelled
 * (`cancelled`), or the exit node failed or was skipped; a failing inner node is recorded on its
 * observation and does not fail the trace. Totals count the work this run did: cached nodes add
 * neither calls nor tokens (their observations still carry what they cost originally).
 */
export interface BuildTraceInput {
  workflow: Workflow;
  input: { query: string; recordId?: string };
  policyLabel: string;
  /** In topological order. */
  observations: NodeObservation[];
  exitId: string;
  cancelled: boolean;
  durationMs: number;
  workflowHash?: string;
}

/** The trace of a finished run (see the semantics above). */
export function buildTrace(t: BuildTraceInput): Trace {
  const calls: TraceCall[] = [];
  const withheld: WithheldCall[] = [];
  const totals: TraceTotals = {
    nodes: 0,
    skipped: 0,
    llmCalls: 0,
    toolCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    durationMs: t.durationMs,
    cachedNodes: 0,
  };
  for (const obs of t.observations) {
    if (obs.status === 'skipped') {
      totals.skipped++;
      continue;
    }
    totals.nodes++;
    if (obs.kind === 'tool') {
      for (const c of obs.calls ?? []) {
        const call: TraceCall = { tool: c.tool, args: c.args, status: c.status };
        if (c.output !== undefined) call.output = c.output;
        calls.push(call);
        if (c.error === undefined) continue;
        const reason =
          c.error.startsWith(UNGROUNDED_PREFIX) || c.error.startsWith(UNGROUNDED_CALL_PREFIX)
            ? 'ungrounded'
            : c.error.startsWith(PENDING_PREFIX)
              ? 'approval'
              : undefined;
        if (reason) withheld.push({ nodeId: obs.nodeId, tool: c.tool, args: c.args, reason, why: c.error });
      }
    }
    if (obs.cached) {
      totals.cachedNodes++;
      continue;
    }
    totals.toolCalls += obs.calls?.length ?? 0;
    if (obs.usage) {
      totals.llmCalls += obs.usage.llmCalls;
      totals.inputTokens += obs.usage.inputTokens;
      totals.outputTokens += obs.usage.outputTokens;
      totals.costUsd += obs.usage.costUsd;
    }
  }
  const exit = t.observations.find((o) => o.nodeId === t.exitId);
  let status: Trace['status'] = 'ok';
  let error: string | undefined;
  if (t.cancelled) {
    status = 'error';
    error = 'cancelled';
  } else if (!exit || exit.status === 'skipped') {
    status = 'error';
    error = `exit node '${t.exitId}' was skipped: none of its in-edges was live`;
  } else if (exit.status === 'error') {
    status = 'error';
    error = `exit node '${t.exitId}' failed: ${exit.error ?? 'no message'}`;
  }
  return {
    ...(t.input.recordId !== undefined ? { recordId: t.input.recordId } : {}),
    query: t.input.query,
    workflow: t.workflow.name,
    ...(t.workflowHash ? { workflowHash: t.workflowHash } : {}),
    policy: t.policyLabel,
    observations: t.observations,
    calls,
    answer: exit && exit.status === 'ok' ? asText(exit.output) : '',
    status,
    ...(error !== undefined ? { error } : {}),
    ...(withheld.length > 0 ? { withheld } : {}),
    totals,
  };
}
