import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import { indexWorkflow } from '../graph/prepare.js';
import type { ToolNode, Workflow } from '../graph/schema.js';
import type { PolicyContext } from '../policies/types.js';
import {
  executeNode,
  prepareNode,
  skippedObservation,
  traceOfRun,
  type NodeRunScope,
} from '../runtime/node-executor.js';
import type { NodeStepResult } from '../runtime/node-step.js';
import { DEFAULT_CONCURRENCY, executorConfig, type RunContext } from '../runtime/run-state.js';
import { createSemaphore } from '../runtime/semaphore.js';
import {
  maxToolAttempts,
  retryReason,
  runToolAttempt,
  toolStepResult,
  type ToolAttempt,
  type ToolStepDeps,
} from '../runtime/tool-node.js';
import type { NodeObservation, Trace } from '../runtime/trace.js';

/**
 * What a workflow exported to LangGraph.js (to-langgraph.ts) imports: the steps its graph nodes
 * call. The graph itself — one LangGraph node per workflow node, the waiting edges, the state
 * channels and the retry policies — is written out in the generated module; this file only runs one
 * node given the state, with the interpreter's own node executor (runtime/node-executor.ts: context,
 * memo, concurrency slot, cancellation, budget rule, observation, trace assembly), so the three
 * produce the same calls and answer. It does not
 * import LangGraph: the user's installed `@langchain/langgraph` runs the graph.
 *
 * Per-invocation data that is not state (the policy's scratch space, the attempts a retried node
 * has made so far, the clock) lives in a scope keyed by the state's `runId`, which the
 * `flowscout_begin` node assigns. A graph resumed in another process finds no scope and starts a
 * fresh one: scratch and the clock start again, nothing else is lost (all results are state).
 *
 * Honoured from the context: the policy, tools, per-call timeout, context size, concurrency (the
 * interpreter's priority semaphore, per invocation), memo, pre-call checks and cancellation. OpenTelemetry spans
 * (`context.tracer`) are not emitted here; LangGraph's own callbacks and tracing see every node.
 */

/** The state of an exported graph (the generated module declares the same channels with `Annotation`). */
export interface FlowGraphState {
  query: string;
  recordId?: string | undefined;
  runId?: string | undefined;
  /** One observation per resolved workflow node, keyed by node id (merged by `mergeNodeResults`). */
  results: Record<string, NodeObservation>;
  answer?: string | undefined;
  trace?: Trace | undefined;
}

/** The part of LangGraph's node config the steps read. */
export interface FlowGraphNodeConfig {
  signal?: AbortSignal;
}

/** LangGraph's `RetryPolicy` as the exported graph uses it (structurally the same type). */
export interface FlowGraphRetryPolicy {
  maxAttempts: number;
  initialInterval: number;
  backoffFactor: number;
  jitter: boolean;
  logWarning: boolean;
  retryOn: (e: unknown) => boolean;
}

/** What the generated graph's nodes call. */
export interface FlowGraphSteps {
  /** The `flowscout_begin` node: assigns the run id and opens the run's scope. */
  begin(state: FlowGraphState): Partial<FlowGraphState>;
  /** Runs workflow node `nodeId` on the outputs of `dataSources` (sources of its live data edges, in topological order). */
  run(
    nodeId: string,
    state: FlowGraphState,
    dataSources: readonly string[],
    config?: FlowGraphNodeConfig,
  ): Promise<Partial<FlowGraphState>>;
  /** Records workflow node `nodeId` as skipped: none of its in-edges is live. */
  skip(nodeId: string, state: FlowGraphState): Partial<FlowGraphState>;
  /** The `flowscout_end` node: the trace, the answer, and the scope closed. */
  end(state: FlowGraphState): Partial<FlowGraphState>;
  /** The LangGraph retry policy of a tool node with `retry`: one graph-level attempt per workflow attempt. */
  retryPolicy(nodeId: string): FlowGraphRetryPolicy;
  /** The trace of run `runId` as far as it got, ended `cancelled` (undefined when it has no scope). */
  partialTrace(runId: string, input: { query: string; recordId?: string }): Trace | undefined;
  /** Forgets the scope of `runId` (the run failed or was cancelled). */
  close(runId: string): void;
}

/**
 * Thrown by a retried tool node's attempt that did not stand while attempts remain; the node's
 * retry policy catches exactly this error and LangGraph runs the node again.
 */
export class FlowScoutRetryAttempt extends Error {
  constructor(
    readonly nodeId: string,
    readonly attempt: number,
    readonly reason: string,
  ) {
    super(`tool node '${nodeId}' attempt ${attempt} did not stand: ${reason}`);
    this.name = 'FlowScoutRetryAttempt';
  }
}

/**
 * The reducer of the `results` channel: nodes on parallel branches write different keys in the
 * same step and are merged; a node written twice is a bug in the graph and fails loudly.
 */
export function mergeNodeResults(
  left: Record<string, NodeObservation>,
  right: Record<string, NodeObservation>,
): Record<string, NodeObservation> {
  for (const id of Object.keys(right)) {
    if (Object.prototype.hasOwnProperty.call(left, id))
      throw new Error(`workflow node '${id}' was resolved twice in one run of the exported graph`);
  }
  return { ...left, ...right };
}

interface Scope extends NodeRunScope {
  /** The attempts a tool node retried by the graph has made so far, and when its first one started. */
  attempts: Map<string, { startedAt: number; list: ToolAttempt[] }>;
  results: Map<string, NodeObservation>;
}

/** Scopes kept at most: a graph whose invocations fail without `close` cannot grow without bound. */
const MAX_SCOPES = 1000;

/** The steps of the graph exported from `workflow` (already validated when it was exported), run with `context`. */
export function createFlowGraphSteps(workflow: Workflow, workflowHash: string, context: RunContext): FlowGraphSteps {
  const prepared = indexWorkflow(workflow);
  // No spans here: LangGraph's own callbacks and tracing see every node.
  const { tracer: _spansNotEmitted, ...options } = context;
  const config = executorConfig(options);
  const { now } = config;
  const scopes = new Map<string, Scope>();

  const open = (runId: string): Scope => {
    let scope = scopes.get(runId);
    if (!scope) {
      // The run's bound on nodes running at once (`context.concurrency`), by topological priority as in the interpreter.
      scope = {
        t0: now(),
        scratch: new Map(),
        slots: createSemaphore(context.concurrency ?? DEFAULT_CONCURRENCY),
        attempts: new Map(),
        results: new Map(),
      };
      scopes.set(runId, scope);
      if (scopes.size > MAX_SCOPES) scopes.delete(scopes.keys().next().value!);
    }
    return scope;
  };

  const scopeOf = (state: FlowGraphState): Scope => open(state.runId ?? 'default');

  const keep = (scope: Scope, obs: NodeObservation): Partial<FlowGraphState> => {
    scope.results.set(obs.nodeId, obs);
    return { results: { [obs.nodeId]: obs } };
  };

  const traceOf = (state: Pick<FlowGraphState, 'query' | 'recordId'>, scope: Scope, cancelled: boolean): Trace =>
    traceOfRun(prepared, config, scope, state, (id) => scope.results.get(id), cancelled, workflowHash);

  async function run(
    nodeId: string,
    state: FlowGraphState,
    dataSources: readonly string[],
    nodeConfig?: FlowGraphNodeConfig,
  ): Promise<Partial<FlowGraphState>> {
    const scope = scopeOf(state);
    const signal = nodeConfig?.signal ?? context.signal;
    // Every node waiting for a slot, and every call in flight, listens to this signal (and removes
    // its listener when done): a wide fan-out has more than Node's default of 10 legitimately, as in
    // the interpreter (runtime/run-state.ts), and must not print a "possible memory leak" warning.
    if (signal) setMaxListeners(0, signal);
    if (signal?.aborted)
      return keep(scope, skippedObservation(config, scope, prepared.node(nodeId), { error: 'cancelled' }));
    const prep = prepareNode(prepared, config, nodeId, dataSources, (id) => state.results[id], state);
    const { observation, stop } = await executeNode(config, scope, prep, signal, {
      toolStep: (node, base, deps) => toolStep(scope, node, base, deps),
      passThrough: (e) => e instanceof FlowScoutRetryAttempt,
      firstStartedAt: (id) => scope.attempts.get(id)?.startedAt,
    });
    scope.attempts.delete(nodeId);
    const update = keep(scope, observation);
    // An exhausted budget stops the run: the invocation rejects with it.
    if (stop) throw stop;
    return update;
  }

  /**
   * A tool node. Without `retry` all of it runs here. With `retry`, each LangGraph attempt of the
   * graph node runs one workflow attempt: one that does not stand while attempts remain is kept in
   * the scope and thrown as FlowScoutRetryAttempt, so the node's retry policy runs it again; the
   * last attempt, or one that stands, becomes the node's result with every attempt's calls.
   */
  async function toolStep(
    scope: Scope,
    node: ToolNode,
    base: PolicyContext,
    deps: ToolStepDeps,
  ): Promise<NodeStepResult> {
    const max = maxToolAttempts(node);
    let log = scope.attempts.get(node.id);
    if (!log) {
      log = { startedAt: now(), list: [] };
      if (max > 1) scope.attempts.set(node.id, log);
    }
    const previous = log.list[log.list.length - 1];
    const previousError = previous ? retryReason(node, previous) : undefined;
    const attempt = await runToolAttempt(node, base, context.policy, deps, log.list.length + 1, previousError);
    log.list.push(attempt);
    const reason = retryReason(node, attempt);
    if (reason !== undefined && log.list.length < max)
      throw new FlowScoutRetryAttempt(node.id, log.list.length, reason);
    return toolStepResult(log.list);
  }

  return {
    begin(state) {
      const runId = state.runId ?? randomUUID();
      open(runId);
      return { runId };
    },
    run,
    skip(nodeId, state) {
      const scope = scopeOf(state);
      return keep(scope, skippedObservation(config, scope, prepared.node(nodeId)));
    },
    end(state) {
      const scope = scopeOf(state);
      const trace = traceOf(state, scope, false);
      scopes.delete(state.runId ?? 'default');
      return { answer: trace.answer, trace };
    },
    retryPolicy(nodeId) {
      const node = prepared.node(nodeId);
      return {
        maxAttempts: node.kind === 'tool' ? maxToolAttempts(node) : 1,
        // The workflow's retry re-plans at once with the previous error, as the interpreter does.
        initialInterval: 0,
        backoffFactor: 1,
        jitter: false,
        logWarning: false,
        retryOn: (e: unknown) => e instanceof FlowScoutRetryAttempt && e.nodeId === nodeId,
      };
    },
    partialTrace(runId, input) {
      const scope = scopes.get(runId);
      return scope ? traceOf(input, scope, true) : undefined;
    },
    close(runId) {
      scopes.delete(runId);
    },
  };
}
