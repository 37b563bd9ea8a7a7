import { FlowScoutError, toFlowScoutError } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import type { ExecutionPolicy } from '../policies/types.js';
import { executeWorkflow } from '../runtime/execute.js';
import { createSemaphore } from '../runtime/semaphore.js';
import type { Trace } from '../runtime/trace.js';
import type { ToolRegistry } from '../contracts/tools.js';
import { indexFit, type PartFit } from '../retrieval/hand-off.js';
import { createToolIndex } from '../retrieval/tool-index.js';
import type { NodeObservation } from '../runtime/trace.js';
import { customerAnswer, unservedSentence, withoutNodeIds, type CustomerAnswer } from './customer-answer.js';
import { createServeMetrics, type DriftFigures, type RunFigures } from './serve-metrics.js';
import type { Meter } from '@opentelemetry/api';

/**
 * A workflow as a service: what `flowscout serve` puts behind MCP and HTTP. One policy (and so one
 * model client, rate limiter and budget) and one tool registry are shared by every request, so
 * concurrent requests run concurrently but never past the model's limits; `maxRuns` bounds the runs
 * in flight (the rest wait their turn). Each finished run goes to `onRun` (the store, a log).
 */

export interface WorkflowServiceOptions {
  workflow: Workflow;
  policy: ExecutionPolicy;
  tools: ToolRegistry;
  /** Runs in flight at once (default 8); more requests wait. */
  maxRuns?: number;
  /** Nodes of one run at once (default the runtime's, 4). */
  concurrency?: number;
  /** Per tool call timeout in milliseconds (default the registry's). */
  callTimeoutMs?: number;
  /**
   * Characters of one tool output a run keeps, answers and stores (default the runtime's
   * `DEFAULT_MAX_OUTPUT_CHARS`, 200 000; `serve --max-output-chars`): a longer output is cut with a
   * marker saying where and how much (runtime/output-bound.ts).
   */
  maxOutputChars?: number;
  /**
   * Destructive calls (cancel, delete, send): `withhold` (the default) does not make them and returns
   * them as pending with the answer; `allow` makes them (`serve --allow destructive`). Write calls
   * with an ungrounded argument, and any call with an ungrounded identifier, are withheld either
   * way (runtime/grounding.ts).
   */
  destructive?: 'allow' | 'withhold';
  /**
   * Scores a finished run against the workflow (fitness and health: the CLI aligns it with the
   * workflow's process tree, conformance/run-health.ts); the scores go to the metrics and to
   * `onRun`. What it throws is reported to `onError` and the run is left unscored.
   */
  score?: (trace: Trace) => RunFigures | undefined;
  /** The drift verdict over recent runs, for the metrics (`GET /metrics`, OpenTelemetry). */
  drift?: () => DriftFigures | undefined;
  /** Where the OpenTelemetry instruments come from (default: the global meter provider). */
  meter?: Meter;
  /** Called with every finished run (its trace) and how it was asked; errors thrown here are reported to `onError`, never to the caller. */
  onRun?: (run: ServedRun) => void | Promise<void>;
  /** Where failures of `onRun` go (default: stderr). */
  onError?: (message: string) => void;
}

/** One finished served run. */
export interface ServedRun {
  transport: 'mcp-stdio' | 'mcp-http' | 'http' | (string & {});
  trace: Trace;
  /** What the client was told (`servedStatus`): `error` also for a run that served nothing. */
  status: 'ok' | 'error';
  /** Its fitness and health, when the service scores runs. */
  figures?: RunFigures;
}

/** How a caller asks for one run. */
export interface ServeRunRequest {
  query: string;
  transport: ServedRun['transport'];
  signal?: AbortSignal;
  /** Told of every node as the run resolves it (MCP progress notifications). */
  onNode?: (observation: NodeObservation, resolved: number, total: number) => void;
}

/** One workflow served with its policy and tools: what the HTTP endpoint and the MCP tool both run queries through. */
export interface WorkflowService {
  readonly workflow: Workflow;
  readonly policyLabel: string;
  /**
   * Runs the workflow on one query. Resolves with the trace (whose status may be `error`: the exit
   * node failed, or the run was cancelled); rejects only with a FlowScoutError (bad query, budget).
   */
  run(request: ServeRunRequest): Promise<Trace>;
  /** What a finished run says to the person who asked: no node of the workflow named, the parts it could not serve in the request's words (customer-answer.ts). */
  answerOf(trace: Trace): CustomerAnswer;
  /** Runs waiting for a slot, and running. */
  load(): { waiting: number; running: number };
  /** The Prometheus text of what the service measured (serve-metrics.ts). */
  metricsText(): string;
}

/** The longest query accepted, in characters. */
export const MAX_QUERY_CHARS = 20_000;

/** Builds the service (see the file comment). */
export function createWorkflowService(options: WorkflowServiceOptions): WorkflowService {
  const slots = createSemaphore(options.maxRuns ?? 8);
  let waiting = 0;
  let running = 0;
  const onError = options.onError ?? ((m: string) => process.stderr.write(`${m}\n`));
  // Which parts of a request each tool step serves, as the policies decide it (retrieval/hand-off.ts).
  let fit: PartFit | undefined;
  const partFit = () => {
    const tools = options.tools.list();
    return (fit ??= indexFit(
      createToolIndex(tools),
      tools.map((t) => t.name),
    ));
  };
  const metrics = createServeMetrics({
    workflow: options.workflow.name,
    ...(options.drift ? { drift: options.drift } : {}),
    ...(options.meter ? { meter: options.meter } : {}),
  });
  const answerOf = (trace: Trace) => customerAnswer(trace, options.workflow, partFit());
  /** Scores, counts and hands on a finished run; never fails the request. */
  const finished = async (transport: ServedRun['transport'], trace: Trace) => {
    const status = servedStatus(trace, answerOf(trace), options.workflow).status;
    let figures: RunFigures | undefined;
    try {
      figures = options.score?.(trace);
    } catch (e) {
      onError(`could not score the served run: ${toFlowScoutError(e).describe()}`);
    }
    metrics.record(trace, status, figures);
    if (options.onRun) {
      const onRun = options.onRun;
      await (async () => onRun({ transport, trace, status, ...(figures ? { figures } : {}) }))().catch((e: unknown) =>
        onError(`could not record the served run: ${toFlowScoutError(e).describe()}`),
      );
    }
  };
  return {
    workflow: options.workflow,
    policyLabel: options.policy.label,
    load: () => ({ waiting, running }),
    metricsText: () => metrics.prometheus({ waiting, running }),
    answerOf,
    async run(request) {
      const query = checkQuery(request.query);
      waiting++;
      const release = await slots.acquire(0, request.signal).finally(() => waiting--);
      if (!release)
        throw new FlowScoutError({
          code: 'ABORTED',
          message: 'the request was cancelled before its run started',
          hint: 'Send it again.',
        });
      running++;
      try {
        const trace = await executeWorkflow(
          options.workflow,
          { query },
          {
            policy: options.policy,
            tools: options.tools,
            ...(request.signal ? { signal: request.signal } : {}),
            ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
            ...(options.callTimeoutMs !== undefined ? { callTimeoutMs: options.callTimeoutMs } : {}),
            ...(options.maxOutputChars !== undefined ? { maxOutputChars: options.maxOutputChars } : {}),
            ...(request.onNode ? { onNode: request.onNode } : {}),
            destructive: options.destructive ?? 'withhold',
          },
        );
        await finished(request.transport, trace);
        return trace;
      } finally {
        running--;
        release();
      }
    },
  };
}

function checkQuery(query: unknown): string {
  if (typeof query !== 'string' || query.trim() === '') {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: '`query` must be a non-empty string',
      hint: 'Send {"query": "your question"}.',
      location: { path: '$.query' },
    });
  }
  if (query.length > MAX_QUERY_CHARS) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `\`query\` is ${query.length} characters; at most ${MAX_QUERY_CHARS} are accepted`,
      hint: 'Send a shorter question.',
      location: { path: '$.query' },
    });
  }
  return query;
}

/** What a client gets back for a run: the answer, the calls made, per-node status and timings, usage. */
export interface ServedResult {
  answer: string;
  status: 'ok' | 'error';
  error?: string;
  /** The parts of the request the run could not serve, in the request's words (absent when none). */
  unserved?: string[];
  policy: string;
  workflow: string;
  calls: Array<{ tool: string; args: Record<string, unknown>; status: 'ok' | 'error' }>;
  nodes: Array<{
    id: string;
    kind: 'llm' | 'tool';
    status: 'ok' | 'error' | 'skipped';
    durationMs: number;
    attempts: number;
    error?: string;
  }>;
  usage: {
    llmCalls: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: number;
    toolCalls: number;
    durationMs: number;
  };
  /** Destructive calls not made, awaiting approval: the tool, its arguments and why (absent when none). */
  pending?: Array<{ tool: string; args: Record<string, unknown>; why: string }>;
  /** Write calls not made because an argument is ungrounded; `why` names the argument (absent when none). */
  withheld?: Array<{ tool: string; args: Record<string, unknown>; why: string }>;
}

/**
 * The state a client reads for a run: `error` when the trace failed (its exit node failed or was
 * skipped, or the run was cancelled), and also when the run served nothing of the request (no call
 * it made returned, none awaits approval or was withheld: customer-answer.ts), so its answer rests
 * on no tool result and is no `ok` answer (over HTTP a 502, like a failed run; over MCP a tool
 * error). A run whose calls await approval or were withheld for an argument the request lacks has
 * served its part by saying so: it stays `ok` and lists them under `pending` / `withheld`.
 * The error says why in words, never naming a node of the workflow.
 */
export function servedStatus(
  trace: Trace,
  answer: Pick<CustomerAnswer, 'served'>,
  workflow: Workflow,
): Pick<ServedResult, 'status' | 'error'> {
  if (trace.status === 'error') return { status: 'error', error: failureReason(trace, workflow) };
  if (!answer.served)
    return { status: 'error', error: 'nothing of the request was served: no call the run made returned a result' };
  return { status: 'ok' };
}

/** Why a failed run failed, in words that name no node: it was cancelled, or the answer could not be written. */
function failureReason(trace: Trace, workflow: Workflow): string {
  if (trace.error === 'cancelled') return 'the run was cancelled';
  // runtime/trace-build.ts: "exit node '<id>' failed: <why>" or "… was skipped: …".
  const failed = /^exit node '[^']*' failed: ([\s\S]*)$/.exec(trace.error ?? '');
  if (failed) return `writing the answer failed: ${withoutNodeIds(failed[1]!, workflow)}`;
  return 'no answer could be written: the steps it needs got no result';
}

/**
 * Why a run failed or served nothing, for the client: the reason, what failed (the tools, by name;
 * a model step as such), and the parts of the request not served, in the request's words. No node
 * of the workflow is named.
 */
export function failureText(trace: Trace, answer: CustomerAnswer, workflow: Workflow): string {
  const status = servedStatus(trace, answer, workflow);
  const lines = [`the workflow run failed: ${status.error ?? 'no message'}`];
  const failed = trace.observations.filter((o) => o.status === 'error' && o.error);
  for (const o of failed.slice(0, 8)) {
    const error = withoutNodeIds(o.error!, workflow);
    // A tool step's error names its tool ("get_forecast: …"); a model step's is said to be one.
    lines.push(`  ${o.kind === 'tool' ? error : `a model step failed: ${error}`}`);
  }
  if (failed.length > 8) lines.push(`  … and ${failed.length - 8} more failed steps`);
  if (answer.unserved.length > 0) lines.push(unservedSentence(answer.unserved, answer.served));
  return lines.join('\n');
}

/**
 * The client's view of a trace (tool outputs stay in the trace and the store; calls say what was
 * asked): the answer as the customer reads it (`answerOf`), and `unserved`, the parts of the
 * request it could not serve. `nodes` is the operator's view of the run, by node id.
 */
export function servedResult(trace: Trace, answer: CustomerAnswer, workflow: Workflow): ServedResult {
  const t = trace.totals;
  return {
    answer: answer.text,
    ...servedStatus(trace, answer, workflow),
    ...(answer.unserved.length > 0 ? { unserved: answer.unserved } : {}),
    policy: trace.policy,
    workflow: trace.workflow,
    calls: trace.calls.map((c) => ({ tool: c.tool, args: c.args, status: c.status })),
    nodes: trace.observations.map((o) => ({
      id: o.nodeId,
      kind: o.kind,
      status: o.status,
      durationMs: Math.round(o.durationMs * 10) / 10,
      attempts: o.attempts,
      ...(o.error !== undefined ? { error: o.error } : {}),
    })),
    usage: {
      llmCalls: t.llmCalls,
      inputTokens: t.inputTokens,
      outputTokens: t.outputTokens,
      costUsd: t.costUsd,
      toolCalls: t.toolCalls,
      durationMs: Math.round(t.durationMs * 10) / 10,
    },
    ...withheldParts(trace),
  };
}

/** The calls a run withheld, as pending (awaiting approval) and withheld (ungrounded). */
function withheldParts(trace: Trace): Pick<ServedResult, 'pending' | 'withheld'> {
  const of = (reason: 'ungrounded' | 'approval') =>
    (trace.withheld ?? []).filter((w) => w.reason === reason).map((w) => ({ tool: w.tool, args: w.args, why: w.why }));
  const pending = of('approval');
  const withheld = of('ungrounded');
  return { ...(pending.length > 0 ? { pending } : {}), ...(withheld.length > 0 ? { withheld } : {}) };
}
