import type { Span, Tracer } from '@opentelemetry/api';
import type { FlowScoutError } from '../errors/index.js';
import type { PreparedWorkflow } from '../graph/prepare.js';
import type { ToolNode, Workflow, WorkflowNode } from '../graph/schema.js';
import type { EarlierCall, ExecutionPolicy, NodeInput, PolicyContext } from '../policies/types.js';
import type { ToolRegistry } from '../contracts/tools.js';
import { hintsKey } from '../graph/hints.js';
import { renderContext, summarizeInput, toNodeInput } from './context.js';
import { runLlmNodeStep } from './llm-node.js';
import { copyObservation, nodeInputMemoKey, nodeMemoKey, type NodeMemo } from './memo.js';
import { errorMessage, isBudgetExhausted, type NodeStepResult } from './node-step.js';
import { endNodeSpan, startNodeSpan } from './otel.js';
import { isAbortError, type Semaphore } from './semaphore.js';
import type { PreCallCheck } from './pre-call.js';
import { runToolNodeStep, type ToolStepDeps } from './tool-node.js';
import { buildTrace } from './trace-build.js';
import { recordRunCallOutputs } from './grounding.js';
import type { NodeObservation, Trace } from './trace.js';

/**
 * The one node executor (LangGraph's `algo` / `runner` split): everything a node does between "its
 * in-edges are resolved" and "its observation is recorded", used by the interpreter and compiled
 * modules (run-state.ts) and by workflows exported to LangGraph (export/langgraph-runtime.ts).
 *
 * - `prepareNode` is pure: the node's inputs from its data sources, the rendered context, the input
 *   summary and the memo key.
 * - `executeNode` is the stateful step: cancellation, the memo lookup, a slot of the run's
 *   concurrency bound, the policy's step (an LLM node, or a tool node whose every planned call passes
 *   the run's pre-call checks, see pre-call.ts `PreCallCheck`), the observation's shape, the memo
 *   store and the node's span.
 * - Budget rule: a step that throws BUDGET_EXHAUSTED (or MODEL_UNAVAILABLE) is recorded as an error
 *   `cancelled` and handed back as `stop`; the caller stops the run with it (run-state.ts cancels
 *   the rest and `finish()` throws it; the exported graph throws it so the invocation rejects).
 *
 * Callers own the order of nodes and where results live (the interpreter's map, the graph's state).
 */

/** What the executor needs of a run's options (a subset of `RunOptions`). */
export interface NodeExecutorConfig {
  policy: ExecutionPolicy;
  tools: ToolRegistry;
  contextChars: number;
  callTimeoutMs?: number;
  /** Characters of one tool output kept (see output-bound.ts). */
  maxOutputChars?: number;
  memo?: NodeMemo;
  /** Checks and transforms applied to every planned tool call before it is made (in order; see tool-node.ts). */
  preCallChecks?: readonly PreCallCheck[];
  tracer?: Tracer;
  now: () => number;
}

/** The per-run state a node step reads and writes: the clock's origin, the policy's scratch space, the concurrency bound. */
export interface NodeRunScope {
  readonly t0: number;
  readonly scratch: Map<string, unknown>;
  readonly slots: Semaphore;
  /** The run's span, when the run is traced (node spans are its children). */
  readonly runSpan?: Span;
}

/** A resolved source as the executor reads it (a NodeResult or a stored observation). */
export interface SourceResult {
  status: 'ok' | 'error' | 'skipped';
  output?: unknown;
}

/** What `prepareNode` computes (pure) for one node about to run. */
export interface PreparedNode {
  node: WorkflowNode;
  workflow: Workflow;
  /** The node's topological index: its priority for a concurrency slot. */
  position: number;
  query: string;
  recordId?: string;
  inputs: NodeInput[];
  /** Tool nodes: the calls of its ancestors, in topological order (see `PolicyContext.earlier`). */
  earlier?: EarlierCall[];
  /** The query plus the inputs, truncated to the run's context budget. */
  context: string;
  inputSummary: string;
  /** Set when the run memoizes nodes. */
  memoKey?: string;
  /** The node's second memo key, over what it is given (memo.ts `nodeInputMemoKey`); computed only when the first misses. */
  inputMemoKey?: () => string;
}

/** Ways a caller runs a node differently (the exported graph runs one tool attempt per LangGraph attempt). */
export interface NodeStepHooks {
  /** Runs a tool node's step in place of all of its attempts at once. */
  toolStep?: (node: ToolNode, base: PolicyContext, deps: ToolStepDeps) => Promise<NodeStepResult>;
  /** Errors a step throws that are not node failures and must pass through unrecorded. */
  passThrough?: (e: unknown) => boolean;
  /** When the node's first attempt started, if before this step (a node retried by the graph). */
  firstStartedAt?: (nodeId: string) => number | undefined;
}

/** The observation of a node, and the error that must stop the run (an exhausted budget), if any. */
export interface NodeOutcome {
  observation: NodeObservation;
  stop?: FlowScoutError;
}

/** The node's inputs, context, input summary and memo key (pure). */
export function prepareNode(
  prepared: PreparedWorkflow,
  config: Pick<NodeExecutorConfig, 'policy' | 'contextChars' | 'memo'>,
  nodeId: string,
  dataSources: readonly string[],
  sourceOf: (id: string) => SourceResult | undefined,
  input: { query: string; recordId?: string | undefined },
): PreparedNode {
  const node = prepared.node(nodeId);
  const inputs = dataSources.map((src) => {
    const r = sourceOf(src);
    if (!r) throw new Error(`node '${src}' is used as an input of '${nodeId}' before it was resolved`);
    return toNodeInput({ node: prepared.node(src), status: r.status === 'error' ? 'error' : 'ok', output: r.output });
  });
  const context = renderContext(input.query, inputs, config.contextChars);
  const recordId = input.recordId !== undefined ? { recordId: input.recordId } : {};
  // Built property by property (the same keys in the same order as spreads would give): every node
  // runs through here.
  const out: PreparedNode = {
    node,
    workflow: prepared.workflow,
    position: prepared.position.get(nodeId) ?? 0,
    query: input.query,
  } as PreparedNode;
  if (input.recordId !== undefined) out.recordId = input.recordId;
  out.inputs = inputs;
  if (node.kind === 'tool') out.earlier = earlierCalls(prepared, nodeId, sourceOf);
  out.context = context;
  out.inputSummary = summarizeInput(context);
  if (config.memo) {
    const { policy } = config;
    // A tool node also reads the bindings other nodes keep for its tools (graph/hints.ts), whatever
    // the policy declares.
    const shared = hintsKey(prepared.workflow);
    const scopeOf =
      policy.memoScope || shared
        ? (id: string) => {
            const n = prepared.node(id);
            const own = policy.memoScope ? policy.memoScope(prepared.workflow, n) : '';
            return n.kind === 'tool' && shared && !own.includes(shared)
              ? [own, shared].filter(Boolean).join(', ')
              : own;
          }
        : undefined;
    const keyInput = {
      policyId: policy.id,
      query: input.query,
      contextChars: config.contextChars,
      ...recordId,
      ...(scopeOf ? { scopeOf } : {}),
    };
    out.memoKey = nodeMemoKey(prepared, nodeId, keyInput);
    const given = out.earlier ? [inputs, out.earlier] : inputs;
    out.inputMemoKey = () => nodeInputMemoKey(node, given, keyInput);
  }
  return out;
}

/** The calls the node's ancestors made (resolved tool nodes, in topological order). */
function earlierCalls(
  prepared: PreparedWorkflow,
  nodeId: string,
  sourceOf: (id: string) => SourceResult | undefined,
): EarlierCall[] {
  const ancestors = [...prepared.ancestors(nodeId)]
    .filter((id) => id !== nodeId && prepared.node(id).kind === 'tool')
    .sort((a, b) => (prepared.position.get(a) ?? 0) - (prepared.position.get(b) ?? 0));
  const out: EarlierCall[] = [];
  for (const id of ancestors) {
    const r = sourceOf(id);
    if (!r || r.status === 'skipped' || !Array.isArray(r.output)) continue;
    for (const c of r.output as Array<Partial<EarlierCall>>) {
      if (!c || typeof c.tool !== 'string') continue;
      const call: EarlierCall = {
        nodeId: id,
        tool: c.tool,
        args: c.args ?? {},
        status: c.status === 'error' ? 'error' : 'ok',
      };
      if (c.output !== undefined) call.output = c.output;
      out.push(call);
    }
  }
  return out;
}

/** The observation of a node that did not run (skipped or cancelled before it started). */
export function skippedObservation(
  config: Pick<NodeExecutorConfig, 'now'>,
  scope: Pick<NodeRunScope, 't0'>,
  node: WorkflowNode,
  extra: Partial<NodeObservation> = {},
): NodeObservation {
  return observationShell(node, 'skipped', config.now() - scope.t0, extra);
}

function observationShell(
  node: WorkflowNode,
  status: NodeObservation['status'],
  startedAtMs: number,
  extra: Partial<NodeObservation> = {},
): NodeObservation {
  return {
    nodeId: node.id,
    kind: node.kind,
    ...(node.kind === 'llm' ? { role: node.role } : {}),
    status,
    input: '',
    attempts: 0,
    startedAtMs,
    durationMs: 0,
    ...extra,
  };
}

/** Runs a prepared node (the stateful step; see the module comment). Throws only what `hooks.passThrough` lets through. */
export async function executeNode(
  config: NodeExecutorConfig,
  scope: NodeRunScope,
  prep: PreparedNode,
  signal: AbortSignal | undefined,
  hooks: NodeStepHooks = {},
): Promise<NodeOutcome> {
  const { node } = prep;
  const { now, memo, tracer } = config;
  if (signal?.aborted) return { observation: skippedObservation(config, scope, node, { error: 'cancelled' }) };
  let inputKey: string | undefined;
  if (memo && prep.memoKey !== undefined) {
    let hit = await Promise.resolve(memo.get(prep.memoKey)).catch(() => undefined);
    if (!hit && prep.inputMemoKey) {
      // Upstream changed, but maybe not what this node is given (memo.ts `nodeInputMemoKey`).
      inputKey = prep.inputMemoKey();
      hit = await Promise.resolve(memo.get(inputKey)).catch(() => undefined);
      if (hit) await Promise.resolve(memo.set(prep.memoKey, hit)).catch(() => undefined);
    }
    if (hit) {
      const observation: NodeObservation = {
        ...copyObservation(hit),
        nodeId: node.id,
        startedAtMs: now() - scope.t0,
        durationMs: 0,
        cached: true,
      };
      recordRunCallOutputs(scope.scratch, observation);
      if (tracer && scope.runSpan) endNodeSpan(startNodeSpan(tracer, scope.runSpan, node), observation);
      return { observation };
    }
  }
  // A free slot is taken at once; only a node that must wait for one awaits it.
  const release =
    (signal?.aborted ? undefined : scope.slots.tryAcquire?.()) ?? (await scope.slots.acquire(prep.position, signal));
  if (!release) return { observation: skippedObservation(config, scope, node, { error: 'cancelled' }) };
  const span = tracer && scope.runSpan ? startNodeSpan(tracer, scope.runSpan, node) : undefined;
  const started = now();
  let step: NodeStepResult;
  let stop: FlowScoutError | undefined;
  try {
    if (signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
    const base = policyContext(prep, scope, signal);
    if (node.kind === 'llm') step = await runLlmNodeStep(node, base, config.policy);
    else if (hooks.toolStep) step = await hooks.toolStep(node, base, toolStepDeps(config));
    else step = await runToolNodeStep(node, base, config.policy, toolStepDeps(config));
  } catch (e) {
    if (hooks.passThrough?.(e)) throw e;
    if (isBudgetExhausted(e)) stop = e;
    const cancelled = isAbortError(e) || Boolean(signal?.aborted) || stop !== undefined;
    step = {
      status: 'error',
      error: cancelled ? 'cancelled' : `internal error while running node '${node.id}': ${errorMessage(e)}`,
      attempts: 1,
    };
  } finally {
    release();
  }
  const first = hooks.firstStartedAt?.(node.id) ?? started;
  // Property by property, in the order of `observationShell` and then the step's fields.
  const observation = { nodeId: node.id, kind: node.kind } as NodeObservation;
  if (node.kind === 'llm') observation.role = node.role;
  observation.status = step.status;
  observation.input = prep.inputSummary;
  observation.attempts = step.attempts;
  observation.startedAtMs = first - scope.t0;
  observation.durationMs = now() - first;
  if (step.output !== undefined) observation.output = step.output;
  if (step.error !== undefined) observation.error = step.error;
  if (step.model !== undefined) observation.model = step.model;
  if (step.usage) observation.usage = step.usage;
  if (node.kind === 'tool') observation.calls = step.calls ?? [];
  if (memo && prep.memoKey !== undefined && observation.status === 'ok' && !signal?.aborted) {
    // A store that fails must not fail the run; the node is simply not cached.
    await Promise.resolve(memo.set(prep.memoKey, observation)).catch(() => undefined);
    if (inputKey !== undefined) await Promise.resolve(memo.set(inputKey, observation)).catch(() => undefined);
  }
  if (span) endNodeSpan(span, observation);
  // Later write calls of this run may be grounded in these outputs (grounding.ts).
  recordRunCallOutputs(scope.scratch, observation);
  return { observation, ...(stop ? { stop } : {}) };
}

/** The policy's view of a node about to run (the same keys, in the same order, for every node). */
function policyContext(prep: PreparedNode, scope: NodeRunScope, signal: AbortSignal | undefined): PolicyContext {
  const base = { query: prep.query } as PolicyContext;
  if (prep.recordId !== undefined) base.recordId = prep.recordId;
  base.workflow = prep.workflow;
  base.inputs = prep.inputs;
  base.context = prep.context;
  if (prep.earlier) base.earlier = prep.earlier;
  base.scratch = scope.scratch;
  if (signal) base.signal = signal;
  return base;
}

/** What a tool step needs of the run's options (the keys in the order they always had). */
function toolStepDeps(config: NodeExecutorConfig): ToolStepDeps {
  const deps: ToolStepDeps = { tools: config.tools };
  if (config.callTimeoutMs !== undefined) deps.callTimeoutMs = config.callTimeoutMs;
  if (config.maxOutputChars !== undefined) deps.maxOutputChars = config.maxOutputChars;
  if (config.preCallChecks?.length) deps.preCallChecks = config.preCallChecks;
  return deps;
}

/** The trace of a run from its recorded observations (nodes never resolved are skipped: `cancelled` or `never resolved`). */
export function traceOfRun(
  prepared: PreparedWorkflow,
  config: Pick<NodeExecutorConfig, 'policy' | 'now'>,
  scope: Pick<NodeRunScope, 't0'>,
  input: { query: string; recordId?: string | undefined },
  observationOf: (id: string) => NodeObservation | undefined,
  cancelled: boolean,
  workflowHash: string | undefined,
): Trace {
  const observations = prepared.order.map(
    (id) =>
      observationOf(id) ??
      skippedObservation(config, scope, prepared.node(id), { error: cancelled ? 'cancelled' : 'never resolved' }),
  );
  return buildTrace({
    workflow: prepared.workflow,
    input: { query: input.query, ...(input.recordId !== undefined ? { recordId: input.recordId } : {}) },
    policyLabel: config.policy.label,
    observations,
    exitId: prepared.exitId,
    cancelled,
    durationMs: config.now() - scope.t0,
    ...(workflowHash ? { workflowHash } : {}),
  });
}
