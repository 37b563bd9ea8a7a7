import type { LlmNode, LlmRole, ToolNode, Workflow, WorkflowNode } from '../graph/schema.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { Usage } from '../llm/usage.js';

/**
 * The policy contract (docs/DESIGN.md, "Policies"): the runtime asks an execution policy
 * to run an LLM node and to plan a tool node's calls. LLM, offline and oracle policies all implement
 * it; the runtime calls nothing else. Type-only.
 */

/** The output of a live data predecessor, as the node sees it. */
export interface NodeInput {
  nodeId: string;
  kind: 'llm' | 'tool';
  role?: LlmRole;
  /** Tool nodes: the calls' outputs; LLM nodes: text or the JSON object. */
  output: unknown;
  status: 'ok' | 'error';
  /** Tool nodes: which tools were called with which arguments. */
  calls?: Array<{ tool: string; args: Record<string, unknown>; status: 'ok' | 'error' }>;
}

/** A call made earlier in the run, as a later call may read it. */
export interface EarlierCall {
  /** The node that made it. */
  nodeId: string;
  tool: string;
  args: Record<string, unknown>;
  status: 'ok' | 'error';
  output?: unknown;
}

/** What every request carries. */
export interface PolicyContext {
  query: string;
  /** The record being run, when the run is an evaluation (the oracle needs it). */
  recordId?: string;
  workflow: Workflow;
  /** Outputs of the live data predecessors, in topological order. */
  inputs: NodeInput[];
  /** The query plus the inputs rendered as text and truncated to the run's context budget. */
  context: string;
  /**
   * Tool nodes: every call the node's ancestors made in this run (run order: topological), with
   * its output, also those of ancestors that are not data predecessors: what an argument may be
   * taken from (a binding's source, a policy's earlier results).
   */
  earlier?: EarlierCall[];
  /** Per-run scratch space for stateful policies (e.g. the oracle's cursor). One map per query run. */
  scratch: Map<string, unknown>;
  signal?: AbortSignal;
}

export interface LlmNodeRequest extends PolicyContext {
  node: LlmNode;
}

export interface LlmNodeResult {
  /** Text, or the JSON object when the node's output is `{ type: 'json' }`. */
  output: string | Record<string, unknown>;
  usage?: Usage;
  /** The model (or policy) that produced the output, e.g. `openai:gpt-4o-mini` or `offline`. */
  model?: string;
}

export interface ToolPlanRequest extends PolicyContext {
  node: ToolNode;
  /** The tools this position may use: the node's hint if it has one (and they exist), else all of T. */
  candidates: ToolDescriptor[];
  /** 1 for the first attempt; >1 when a retry loop asks again. */
  attempt: number;
  /** The previous attempt's error, for retries. */
  previousError?: string;
  /**
   * Per candidate tool, the parameters the node binds and the values their sources gave (the
   * runtime sets them on every call to that tool, whatever the plan says): a policy fills only the
   * others, and may read these.
   */
  bound?: Record<string, Record<string, unknown>>;
}

export interface PlannedCall {
  tool: string;
  args: Record<string, unknown>;
  /** The part of the request this call serves, when the policy knows it (request bindings read it first). */
  part?: string;
}

export interface ToolPlanResult {
  /** One call for `calls: 'one'`; any number (including none) for `calls: 'many'`. */
  calls: PlannedCall[];
  usage?: Usage;
  model?: string;
  /** Set when the policy could not produce a valid plan; the node then records an error. */
  error?: string;
  /**
   * `calls: 'many'`: the rest of the plan, asked for once `calls` have run, with the calls the node
   * made so far (in order, outputs included), so that a later call can read an earlier one's result
   * (the cities of the country a list call returned). Its `usage` adds to the node's, and it may end
   * with a `rest` of its own; its `error` is not the node's (the node made calls), and a `rest` that
   * throws ends the plan with the calls made. The runtime asks at most 32 times per attempt. Without it
   * the plan is complete.
   */
  rest?: (made: readonly EarlierCall[]) => Promise<ToolPlanResult>;
}

/** Who decides at LLM and tool nodes. `label` is shown wherever results are shown. */
export interface ExecutionPolicy {
  /** Stable identity used in memo keys, e.g. `offline`, `oracle`, `llm:openai:gpt-4o-mini`. */
  readonly id: string;
  readonly kind: 'llm' | 'offline' | 'oracle';
  /** Human label, e.g. "offline policy (no LLM)" or "LLM policy (openai:gpt-4o-mini)". */
  readonly label: string;
  runLlmNode(req: LlmNodeRequest): Promise<LlmNodeResult>;
  planToolCalls(req: ToolPlanRequest): Promise<ToolPlanResult>;
  /**
   * What else, besides the node, everything upstream of it and the query, this policy's decision at
   * `node` depends on (e.g. the offline policy reads which tool position the node is among all of the
   * workflow's tool nodes). The runtime folds the text into the node's memo key (runtime/memo.ts),
   * so a memoized node is reused only where the policy would decide the same. Omit it when the
   * decision depends on nothing else; a policy whose decisions depend on per-run state (`scratch`)
   * must not be memoized at all (the oracle).
   */
  memoScope?(workflow: Workflow, node: WorkflowNode): string;
}
