import { setMaxListeners } from 'node:events';
import type { Span, Tracer } from '@opentelemetry/api';
import type { FlowScoutError } from '../errors/index.js';
import { indexWorkflow, isPreparedWorkflow, type PreparedWorkflow } from '../graph/prepare.js';
import type { Workflow, WorkflowNode } from '../graph/schema.js';
import type { ExecutionPolicy, LlmNodeRequest, PolicyContext, ToolPlanRequest } from '../policies/types.js';
import type { ToolRegistry } from '../contracts/tools.js';
import { renderContext, summarizeInput, toNodeInput } from './context.js';
import type { ResolvedSource } from './frontier.js';
import { runLlmNodeStep } from './llm-node.js';
import { nodeInputMemoKey, nodeMemoKey, type NodeMemo } from './memo.js';
import { errorMessage, isBudgetExhausted, type NodeStepResult } from './node-step.js';
import { endNodeSpan, endRunSpan, startNodeSpan, startRunSpan } from './otel.js';
import { createSemaphore, isAbortError } from './semaphore.js';
import { runToolNodeStep } from './tool-node.js';
import { buildTrace } from './trace-build.js';
import type { NodeObservation, Trace } from './trace.js';

/**
 * The stateful part of one run (LangGraph's "loop" side; the pure steps live in guards.ts,
 * frontier.ts, context.ts): scratch space, the concurrency bound, cancellation, the memo hook,
 * spans, and the observation of every node. The interpreter (execute.ts) and compiled modules
 * (compile.ts) both drive a run through `runNode` / `skipNode` / `finish`, so they produce the same
 * trace; only who decides the order — data or generated code — differs.
 */

/** Options of a run (the same for `executeWorkflow` and a compiled module's `run`). */
export interface RunOptions {
  policy: ExecutionPolicy;
  tools: ToolRegistry;
  /** Cancels the run: running nodes stop promptly and the trace ends with status error `cancelled`. */
  signal?: AbortSignal;
  /** How many nodes may run at once (default 4; `Infinity` for no bound). */
  concurrency?: number;
  /** Size of a node's context text in characters (default 8000). */
  contextChars?: number;
  /** Per tool call timeout in milliseconds (default: the registry's). */
  callTimeoutMs?: number;
  /** Node memoization hook (see memo.ts). */
  memo?: NodeMemo;
  /** An OpenTelemetry tracer: spans per run and per node. Without one nothing is traced. */
  tracer?: Tracer;
  /** Clock for timings (default `performance.now`). */
  now?: () => number;
  /** Recorded on the trace; set by `executeWorkflow` and compiled modules (`workflowHash` of the workflow). */
  workflowHash?: string;
}

/** The query being answered (and the record it comes from, in evaluations). */
export interface RunInput {
  query: string;
  recordId?: string;
}

/** What a compiled module's `run(query, context)` takes: the run options plus the record id. */
export interface RunContext extends RunOptions {
  recordId?: string;
}

/** A resolved node as the nodes after it see it. */
export interface NodeResult extends ResolvedSource {
  nodeId: string;
}

/** One run in progress. */
export interface WorkflowRun {
  readonly workflow: Workflow;
  /** Runs a node whose in-edges are resolved with at least one live (or the entry), with inputs from `dataSources`. */
  runNode(nodeId: string, dataSources: readonly string[]): Promise<NodeResult>;
  /** Records a node none of whose in-edges is live (dead-path elimination). */
  skipNode(nodeId: string): NodeResult;
  /** The trace; call once every node is resolved. */
  finish(): Trace;
}

/** Nodes running at once by default: enough to overlap tool latency without flooding rate limits. */
export const DEFAULT_CONCURRENCY = 4;
/** Context characters per node by default (about 2k tokens). */
export const DEFAULT_CONTEXT_CHARS = 8000;

/** The structure of workflows passed as JSON (a compiled module passes its own constant every run): built once per object. */
const indexed = new WeakMap<Workflow, PreparedWorkflow>();

function prepared(workflow: Workflow | PreparedWorkflow): PreparedWorkflow {
  if (isPreparedWorkflow(workflow)) return workflow;
  let p = indexed.get(workflow);
  if (!p) indexed.set(workflow, (p = indexWorkflow(workflow)));
  return p;
}

/**
 * Starts a run of a prepared (or already valid) workflow: the one run object that `executeWorkflow`
 * and compiled modules drive, with the rule that a budget stops a run (docs/DESIGN.md,
 * "Execution": a budget cancels the rest of the run). Every other failure of a node is recorded in the trace and the run goes on; an
 * exhausted budget would only make every later model request fail the same way, so the first
 * BUDGET_EXHAUSTED error a policy throws
 *
 * 1. cancels the rest of the run (running nodes stop promptly, waiting ones are skipped), and
 * 2. is thrown by `finish()` in place of the trace, so `executeWorkflow` (and a compiled module's
 *    `run`) rejects with it — the `BudgetExceededError` of `src/llm/budget.ts`, code BUDGET_EXHAUSTED.
 *
 * The caller's own signal keeps its meaning: cancelling still returns a trace ending in `cancelled`.
 */
export function startRun(workflow: Workflow | PreparedWorkflow, input: RunInput, opts: RunOptions): WorkflowRun {
  const stop = new AbortController();
  let exhausted: FlowScoutError | undefined;
  const watch = <T>(pending: Promise<T>): Promise<T> =>
    pending.catch((e: unknown) => {
      if (isBudgetExhausted(e) && !exhausted) {
        exhausted = e;
        stop.abort(e);
      }
      throw e;
    });
  const inner = opts.policy;
  // The policy as it is (identity, label, memo scope, any other member) but for its two decisions, watched.
  const policy: ExecutionPolicy = Object.create(inner, {
    runLlmNode: { value: (req: LlmNodeRequest) => watch(inner.runLlmNode(req)) },
    planToolCalls: { value: (req: ToolPlanRequest) => watch(inner.planToolCalls(req)) },
  });
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  // Every node waiting for a concurrency slot, and every tool call in flight, listens to this signal
  // (and removes its listener when done): a wide fan-out legitimately has more than Node's default
  // of 10, which would print a spurious "possible memory leak" warning.
  setMaxListeners(0, signal);
  const run = runState(prepared(workflow), input, { ...opts, policy, signal });
  return {
    workflow: run.workflow,
    runNode: run.runNode,
    skipNode: run.skipNode,
    finish() {
      const trace = run.finish();
      if (exhausted) throw exhausted;
      return trace;
    },
  };
}

/** The stateful part of one run (see the module comment), without the budget rule. */
function runState(prepared: PreparedWorkflow, input: RunInput, opts: RunOptions): WorkflowRun {
  const { workflow, order, position, exitId } = prepared;
  const now = opts.now ?? (() => performance.now());
  const t0 = now();
  const contextChars = opts.contextChars ?? DEFAULT_CONTEXT_CHARS;
  const semaphore = createSemaphore(opts.concurrency ?? DEFAULT_CONCURRENCY);
  const scratch = new Map<string, unknown>();
  const results = new Map<string, { result: NodeResult; obs: NodeObservation }>();
  const { signal, tracer, memo } = opts;
  const runSpan: Span | undefined = tracer ? startRunSpan(tracer, workflow, opts.policy, input.recordId) : undefined;

  const nodeOf = (id: string): WorkflowNode => prepared.node(id);

  const record = (obs: NodeObservation): NodeResult => {
    const result: NodeResult = { nodeId: obs.nodeId, kind: obs.kind, status: obs.status, output: obs.output };
    results.set(obs.nodeId, { result, obs });
    return result;
  };

  const shell = (node: WorkflowNode, status: NodeObservation['status'], extra: Partial<NodeObservation> = {}): NodeObservation => ({
    nodeId: node.id,
    kind: node.kind,
    ...(node.kind === 'llm' ? { role: node.role } : {}),
    status,
    input: '',
    attempts: 0,
    startedAtMs: now() - t0,
    durationMs: 0,
    ...extra,
  });

  const resultOf = (id: string): NodeResult => {
    const r = results.get(id);
    if (!r) throw new Error(`node '${id}' is used as an input before it was resolved`);
    return r.result;
  };

  async function runNode(nodeId: string, dataSources: readonly string[]): Promise<NodeResult> {
    const node = nodeOf(nodeId);
    if (signal?.aborted) return record(shell(node, 'skipped', { error: 'cancelled' }));
    const inputs = dataSources.map((src) => {
      const r = resultOf(src);
      return toNodeInput({ node: nodeOf(src), status: r.status === 'error' ? 'error' : 'ok', output: r.output });
    });
    const context = renderContext(input.query, inputs, contextChars);
    const inputSummary = summarizeInput(context);
    let key: string | undefined;
    let inputKey: string | undefined;
    if (memo) {
      const scopeOf = opts.policy.memoScope ? (id: string) => opts.policy.memoScope!(workflow, nodeOf(id)) : undefined;
      const keyInput = { policyId: opts.policy.id, query: input.query, contextChars, ...(input.recordId !== undefined ? { recordId: input.recordId } : {}), ...(scopeOf ? { scopeOf } : {}) };
      key = nodeMemoKey(prepared, nodeId, keyInput);
      let hit = await Promise.resolve(memo.get(key)).catch(() => undefined);
      if (!hit) {
        // Upstream changed, but maybe not what this node is given (see nodeInputMemoKey).
        inputKey = nodeInputMemoKey(node, inputs, keyInput);
        hit = await Promise.resolve(memo.get(inputKey)).catch(() => undefined);
        if (hit) await Promise.resolve(memo.set(key, hit)).catch(() => undefined);
      }
      if (hit) {
        const obs: NodeObservation = { ...structuredClone(hit), nodeId, startedAtMs: now() - t0, durationMs: 0, cached: true };
        if (tracer && runSpan) endNodeSpan(startNodeSpan(tracer, runSpan, node), obs);
        return record(obs);
      }
    }
    const release = await semaphore.acquire(position.get(nodeId) ?? 0, signal);
    if (!release) return record(shell(node, 'skipped', { error: 'cancelled' }));
    const span = tracer && runSpan ? startNodeSpan(tracer, runSpan, node) : undefined;
    const started = now();
    let step: NodeStepResult;
    try {
      if (signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
      const base: PolicyContext = {
        query: input.query,
        ...(input.recordId !== undefined ? { recordId: input.recordId } : {}),
        workflow,
        inputs,
        context,
        scratch,
        ...(signal ? { signal } : {}),
      };
      step =
        node.kind === 'llm'
          ? await runLlmNodeStep(node, base, opts.policy)
          : await runToolNodeStep(node, base, opts.policy, { tools: opts.tools, ...(opts.callTimeoutMs !== undefined ? { callTimeoutMs: opts.callTimeoutMs } : {}) });
    } catch (e) {
      const cancelled = isAbortError(e) || signal?.aborted;
      step = { status: 'error', error: cancelled ? 'cancelled' : `internal error while running node '${nodeId}': ${errorMessage(e)}`, attempts: 1 };
    } finally {
      release();
    }
    const obs: NodeObservation = {
      ...shell(node, step.status),
      input: inputSummary,
      ...(step.output !== undefined ? { output: step.output } : {}),
      ...(step.error !== undefined ? { error: step.error } : {}),
      attempts: step.attempts,
      startedAtMs: started - t0,
      durationMs: now() - started,
      ...(step.model !== undefined ? { model: step.model } : {}),
      ...(step.usage ? { usage: step.usage } : {}),
      ...(node.kind === 'tool' ? { calls: step.calls ?? [] } : {}),
    };
    if (memo && key && obs.status === 'ok' && !signal?.aborted) {
      // A store that fails must not fail the run; the node is simply not cached.
      await Promise.resolve(memo.set(key, obs)).catch(() => undefined);
      if (inputKey) await Promise.resolve(memo.set(inputKey, obs)).catch(() => undefined);
    }
    if (span) endNodeSpan(span, obs);
    return record(obs);
  }

  function skipNode(nodeId: string): NodeResult {
    return record(shell(nodeOf(nodeId), 'skipped', signal?.aborted ? { error: 'cancelled' } : {}));
  }

  function finish(): Trace {
    const observations = order.map((id) => results.get(id)?.obs ?? shell(nodeOf(id), 'skipped', { error: signal?.aborted ? 'cancelled' : 'never resolved' }));
    const trace = buildTrace({
      workflow,
      input,
      policyLabel: opts.policy.label,
      observations,
      exitId,
      cancelled: Boolean(signal?.aborted),
      durationMs: now() - t0,
      ...(opts.workflowHash ? { workflowHash: opts.workflowHash } : {}),
    });
    if (runSpan) endRunSpan(runSpan, trace.status, trace.error, trace.totals);
    return trace;
  }

  return { workflow, runNode, skipNode, finish };
}
