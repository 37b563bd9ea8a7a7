import { adjacency, exitIds, reachable, topologicalOrder, type Adjacency } from './graph-utils.js';
import { workflowHash } from './hash.js';
import type { Workflow, WorkflowNode } from './schema.js';
import { assertValidWorkflow, type ToolNames } from './validate.js';

/**
 * A prepared workflow (as LangGraph compiles a graph once before invoking it many times): the
 * workflow, validated once, with what every consumer needs of its structure — the adjacency, the
 * topological order (ties by id), each node's position in it, the exit node, the canonical hash,
 * and each node's ancestors (computed on first use, then kept). The interpreter, the run object,
 * the compiler, the memo key and the feedback take it instead of rebuilding the graph from the
 * JSON for every record and node. Treat it, and the workflow in it, as immutable.
 */
export interface PreparedWorkflow {
  readonly kind: 'prepared-workflow';
  readonly workflow: Workflow;
  readonly adjacency: Adjacency;
  /** Node ids in topological order (ties by id); document order if the graph has a cycle (an unvalidated index only). */
  readonly order: readonly string[];
  /** Each node's index in `order`. */
  readonly position: ReadonlyMap<string, number>;
  /** The first node without out-edges (the answer), else the last in order. */
  readonly exitId: string;
  /** `workflowHash` of the workflow. */
  readonly hash: string;
  /** The node (by id); throws for an unknown id. */
  node(id: string): WorkflowNode;
  /** The node and every node upstream of it. */
  ancestors(id: string): ReadonlySet<string>;
}

/** Is `x` a prepared workflow (rather than workflow JSON)? */
export function isPreparedWorkflow(x: unknown): x is PreparedWorkflow {
  return typeof x === 'object' && x !== null && (x as { kind?: unknown }).kind === 'prepared-workflow';
}

/**
 * Validates `input` (Valid(G, T) when `tools` are given; INVALID_WORKFLOW lists every problem,
 * naming `source`) and prepares it. A prepared workflow passes through unchanged unless `tools`
 * are given, in which case its workflow is checked against them.
 */
export function prepareWorkflow(input: unknown, tools?: ToolNames, source?: string): PreparedWorkflow {
  if (isPreparedWorkflow(input) && tools === undefined) return input;
  const raw = isPreparedWorkflow(input) ? input.workflow : input;
  return indexWorkflow(assertValidWorkflow(raw, tools, source));
}

/**
 * The structure of a workflow without validating it, for workflows that are valid by construction
 * (a compiled module's own workflow, an edit's result already checked) and for code that must
 * tolerate an invalid one (feedback on any graph). Prefer `prepareWorkflow`.
 */
export function indexWorkflow(workflow: Workflow): PreparedWorkflow {
  const adj = adjacency(workflow);
  const order = topologicalOrder(adj) ?? [...adj.nodes.keys()];
  const position = new Map(order.map((id, i) => [id, i]));
  const exitId = exitIds(adj)[0] ?? order[order.length - 1]!;
  const ancestorSets = new Map<string, ReadonlySet<string>>();
  let hash: string | undefined;
  return {
    kind: 'prepared-workflow',
    workflow,
    adjacency: adj,
    order,
    position,
    exitId,
    get hash() {
      return (hash ??= workflowHash(workflow));
    },
    node(id) {
      const n = adj.nodes.get(id);
      if (!n) throw new Error(`the workflow has no node '${id}'`);
      return n;
    },
    ancestors(id) {
      let set = ancestorSets.get(id);
      if (!set) ancestorSets.set(id, (set = reachable(adj, [id], 'backward')));
      return set;
    },
  };
}
