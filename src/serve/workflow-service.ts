import { FlowScoutError, toFlowScoutError } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import type { ExecutionPolicy } from '../policies/types.js';
import { executeWorkflow } from '../runtime/execute.js';
import { createSemaphore } from '../runtime/semaphore.js';
import type { Trace } from '../runtime/trace.js';
import type { ToolRegistry } from '../contracts/tools.js';

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
  /** Called with every finished run (its trace) and how it was asked; errors thrown here are reported to `onError`, never to the caller. */
  onRun?: (run: ServedRun) => void | Promise<void>;
  /** Where failures of `onRun` go (default: stderr). */
  onError?: (message: string) => void;
}

/** One finished served run. */
export interface ServedRun {
  transport: 'mcp-stdio' | 'mcp-http' | 'http' | (string & {});
  trace: Trace;
}

/** How a caller asks for one run. */
export interface ServeRunRequest {
  query: string;
  transport: ServedRun['transport'];
  signal?: AbortSignal;
}

export interface WorkflowService {
  readonly workflow: Workflow;
  readonly policyLabel: string;
  /**
   * Runs the workflow on one query. Resolves with the trace (whose status may be `error`: the exit
   * node failed, or the run was cancelled); rejects only with a FlowScoutError (bad query, budget).
   */
  run(request: ServeRunRequest): Promise<Trace>;
  /** Runs waiting for a slot, and running. */
  load(): { waiting: number; running: number };
}

/** The longest query accepted, in characters. */
export const MAX_QUERY_CHARS = 20_000;

/** Builds the service (see the file comment). */
export function createWorkflowService(options: WorkflowServiceOptions): WorkflowService {
  const slots = createSemaphore(options.maxRuns ?? 8);
  let waiting = 0;
  let running = 0;
  const onError = options.onError ?? ((m: string) => process.stderr.write(`${m}\n`));
  return {
    workflow: options.workflow,
    policyLabel: options.policy.label,
    load: () => ({ waiting, running }),
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
            destructive: options.destructive ?? 'withhold',
          },
        );
        if (options.onRun) {
          const onRun = options.onRun;
          await (async () => onRun({ transport: request.transport, trace }))().catch((e: unknown) =>
            onError(`could not record the served run: ${toFlowScoutError(e).describe()}`),
          );
        }
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
 * skipped, or the run was cancelled), and also when the run made tool calls and every one of them
 * failed: its answer then rests on no tool result, so it is no `ok` answer (over HTTP it is a 502,
 * like a failed run; over MCP a tool error). Calls withheld before they were made (awaiting
 * approval, or ungrounded) are not failed calls: a run whose only calls were withheld stays `ok`
 * and lists them under `pending` / `withheld`.
 */
export function servedStatus(trace: Trace): Pick<ServedResult, 'status' | 'error'> {
  if (trace.status === 'error')
    return { status: 'error', ...(trace.error !== undefined ? { error: trace.error } : {}) };
  const made = trace.calls.length - (trace.withheld?.length ?? 0);
  const failed = trace.calls.filter((c) => c.status === 'error').length - (trace.withheld?.length ?? 0);
  if (made > 0 && failed === made)
    return { status: 'error', error: `every tool call the run made failed (${made} of ${made})` };
  return { status: 'ok' };
}

/** The client's view of a trace (tool outputs stay in the trace and the store; calls say what was asked). */
export function servedResult(trace: Trace): ServedResult {
  const t = trace.totals;
  return {
    answer: trace.answer,
    ...servedStatus(trace),
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
