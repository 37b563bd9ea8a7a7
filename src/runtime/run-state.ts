import { setMaxListeners } from 'node:events';
import type { Tracer } from '@opentelemetry/api';
import type { FlowScoutError } from '../errors/index.js';
import { indexWorkflow, isPreparedWorkflow, type PreparedWorkflow } from '../graph/prepare.js';
import type { Workflow } from '../graph/schema.js';
import type { ExecutionPolicy } from '../policies/types.js';
import type { ToolRegistry } from '../contracts/tools.js';
import type { ResolvedSource } from './frontier.js';
import type { NodeMemo } from './memo.js';
import {
  executeNode,
  prepareNode,
  skippedObservation,
  traceOfRun,
  type NodeExecutorConfig,
  type NodeRunScope,
} from './node-executor.js';
import { endRunSpan, startRunSpan } from './otel.js';
import { createSemaphore } from './semaphore.js';
import type { PreCallCheck } from './pre-call.js';
import { runPreCallChecks } from './grounding.js';
import type { NodeObservation, Trace } from './trace.js';

/**
 * The stateful part of one run (LangGraph's "loop" side; the pure steps live in guards.ts,
 * frontier.ts, context.ts): the run's scope (scratch space, the concurrency bound, the run span),
 * cancellation and the budget rule, and the observation of every node; each node's step is the one
 * node executor (node-executor.ts) that exported LangGraph graphs use too. The interpreter (execute.ts) and compiled modules
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
  /**
   * Characters of one tool output the run keeps (default `DEFAULT_MAX_OUTPUT_CHARS`, 200 000): a
   * longer output is cut with a marker saying where and how much (runtime/output-bound.ts).
   */
  maxOutputChars?: number;
  /** Node memoization hook (see memo.ts). */
  memo?: NodeMemo;
  /** An OpenTelemetry tracer: spans per run and per node. Without one nothing is traced. */
  tracer?: Tracer;
  /** Clock for timings (default `performance.now`). */
  now?: () => number;
  /**
   * Checks and transforms applied to every planned tool call just before it is made: they may
   * rewrite its arguments or withhold it with an observation (runtime/pre-call.ts, `PreCallCheck`).
   * Honoured by the interpreter, compiled modules and exported LangGraph graphs alike.
   */
  preCallChecks?: readonly PreCallCheck[];
  /**
   * Check calls' arguments before they are made (default true): a value of a write or destructive
   * call, or an identifier-shaped value of any call, that is not in the request, in what an earlier
   * call of this run selected or bound in the workflow withholds the call (runtime/grounding.ts).
   * False turns the check off.
   */
  groundWrites?: boolean;
  /** `withhold`: grounded destructive calls are not made either, but returned as pending (`serve`'s default); default `allow`. */
  destructive?: 'allow' | 'withhold';
  /** Recorded on the trace; set by `executeWorkflow` and compiled modules (`workflowHash` of the workflow). */
  workflowHash?: string;
  /**
   * Told of every node as it is resolved (run or skipped), with how many of the workflow's nodes
   * are resolved so far: `serve` sends MCP progress notifications from it. What it throws is
   * ignored: watching a run never changes it.
   */
  onNode?: (observation: NodeObservation, resolved: number, total: number) => void;
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
  const onStop = (e: FlowScoutError) => {
    if (exhausted) return;
    exhausted = e;
    stop.abort(e);
  };
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  // Every node waiting for a concurrency slot, and every tool call in flight, listens to this signal
  // (and removes its listener when done): a wide fan-out legitimately has more than Node's default
  // of 10, which would print a spurious "possible memory leak" warning.
  setMaxListeners(0, signal);
  const run = runState(prepared(workflow), input, { ...opts, signal }, onStop);
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

/** What the node executor takes from a run's options (defaults filled in). */
export function executorConfig(opts: RunOptions): NodeExecutorConfig {
  return {
    policy: opts.policy,
    tools: opts.tools,
    contextChars: opts.contextChars ?? DEFAULT_CONTEXT_CHARS,
    now: opts.now ?? (() => performance.now()),
    ...(opts.callTimeoutMs !== undefined ? { callTimeoutMs: opts.callTimeoutMs } : {}),
    ...(opts.maxOutputChars !== undefined ? { maxOutputChars: opts.maxOutputChars } : {}),
    ...(opts.memo ? { memo: opts.memo } : {}),
    preCallChecks: runPreCallChecks(opts),
    ...(opts.tracer ? { tracer: opts.tracer } : {}),
  };
}

/** The stateful part of one run (see the module comment); the node step itself is node-executor.ts. */
function runState(
  prepared: PreparedWorkflow,
  input: RunInput,
  opts: RunOptions,
  onStop: (e: FlowScoutError) => void,
): WorkflowRun {
  const { workflow } = prepared;
  const config = executorConfig(opts);
  const { now } = config;
  const { signal, tracer } = opts;
  const scope: NodeRunScope = {
    t0: now(),
    scratch: new Map<string, unknown>(),
    slots: createSemaphore(opts.concurrency ?? DEFAULT_CONCURRENCY),
    ...(tracer ? { runSpan: startRunSpan(tracer, workflow, opts.policy, input.recordId) } : {}),
  };
  const results = new Map<string, { result: NodeResult; obs: NodeObservation }>();

  const total = workflow.nodes.length;
  const record = (obs: NodeObservation): NodeResult => {
    const result: NodeResult = { nodeId: obs.nodeId, kind: obs.kind, status: obs.status, output: obs.output };
    results.set(obs.nodeId, { result, obs });
    if (opts.onNode) {
      try {
        opts.onNode(obs, results.size, total);
      } catch {
        // A watcher's failure is its own (see RunOptions.onNode).
      }
    }
    return result;
  };

  async function runNode(nodeId: string, dataSources: readonly string[]): Promise<NodeResult> {
    if (signal?.aborted)
      return record(skippedObservation(config, scope, prepared.node(nodeId), { error: 'cancelled' }));
    const prep = prepareNode(prepared, config, nodeId, dataSources, (id) => results.get(id)?.result, input);
    const { observation, stop } = await executeNode(config, scope, prep, signal);
    if (stop) onStop(stop);
    return record(observation);
  }

  function skipNode(nodeId: string): NodeResult {
    return record(
      skippedObservation(config, scope, prepared.node(nodeId), signal?.aborted ? { error: 'cancelled' } : {}),
    );
  }

  function finish(): Trace {
    const trace = traceOfRun(
      prepared,
      config,
      scope,
      input,
      (id) => results.get(id)?.obs,
      Boolean(signal?.aborted),
      opts.workflowHash,
    );
    if (scope.runSpan) endRunSpan(scope.runSpan, trace.status, trace.error, trace.totals);
    return trace;
  }

  return { workflow, runNode, skipNode, finish };
}
