import { createHash } from 'node:crypto';
import type { Workflow, WorkflowNode } from '../graph/schema.js';
import { indexWorkflow, isPreparedWorkflow, type PreparedWorkflow } from '../graph/prepare.js';
import { stableStringify } from '../contracts/canonical-args.js';
import type { NodeObservation } from './trace.js';

/**
 * Node memoization (docs/DESIGN.md, "Search": "node executions are memoized by (record, the node's
 * definition and everything upstream of it, the policy and what the policy declares its decisions
 * depend on)"), so a search child that only changes the
 * synthesizer does not re-call tools and upstream LLMs. The runtime only defines the key and the
 * hook; the search keeps the store (in memory or SQLite).
 *
 * A policy whose decision at a node also depends on something outside the node's upstream declares
 * it with `ExecutionPolicy.memoScope` (the offline policy: the node's place among all
 * steps); its text is part of the key. Caveats, by design: the key does not include the tools T
 * (a search runs over one tool set), and a policy that decides from per-run state (the oracle's
 * cursor in `scratch`) cannot be memoized: do not memoize oracle runs. Only `ok` observations are stored: a transient failure (a 429, a timeout) must not
 * become permanent for a whole search.
 */

/** A store of node observations by memo key. `get` and `set` may be async (SQLite, a server). */
export interface NodeMemo {
  get(key: string): NodeObservation | undefined | Promise<NodeObservation | undefined>;
  set(key: string, entry: NodeObservation): void | Promise<void>;
}

/** The run-level parts of a memo key. */
export interface MemoKeyInput {
  policyId: string;
  recordId?: string;
  query: string;
  contextChars: number;
  /**
   * The policy's `memoScope` of a node, when it declares one. The key holds the scopes of the node
   * and of everything upstream of it: an upstream node whose decision changed feeds the node
   * something else.
   */
  scopeOf?: (nodeId: string) => string | undefined;
}

/**
 * sha256 over: the policy id, the record id (or the query when there is none), the context budget,
 * the node's definition, and the definitions of all its ancestors with the edges among them and into
 * the node, and the policy's scopes of the node and its ancestors when it declares any. Anything
 * downstream or on another branch does not change the key, unless a scope says a decision reads it.
 */
export function nodeMemoKey(
  workflow: PreparedWorkflow | Pick<Workflow, 'nodes' | 'edges'>,
  nodeId: string,
  input: MemoKeyInput,
): string {
  const p = isPreparedWorkflow(workflow) ? workflow : indexWorkflow(workflow as Workflow);
  const { upstream, nodes, edges } = upstreamOf(p, nodeId);
  const subject = input.recordId !== undefined ? { recordId: input.recordId } : { query: input.query };
  const scoped = input.scopeOf
    ? [...upstream].sort().flatMap((id) => (input.scopeOf!(id) ? [[id, input.scopeOf!(id)]] : []))
    : [];
  const scope = scoped.length > 0 ? { scope: scoped } : {};
  const material = stableStringify({
    v: 1,
    policy: input.policyId,
    subject,
    contextChars: input.contextChars,
    node: nodeId,
    nodes,
    edges,
    ...scope,
  });
  return createHash('sha256').update(material).digest('hex');
}

/**
 * The second key of a node: sha256 over the policy id, the record, the context budget, the node's
 * own definition, what the node is given (its inputs: each source node's id, kind, status and
 * output) and the policy's scope of the node. A node whose upstream was edited, but on a path this
 * record did not take (another route of a router) or without changing what reaches the node, gets
 * the same inputs and so the same key: its earlier observation is reused instead of asking the
 * policy again (for a model, the same request is not sent twice; the answer, and the judge's score
 * of it, stay the same). Looked up only when the definition key (`nodeMemoKey`) misses.
 */
export function nodeInputMemoKey(node: WorkflowNode, inputs: readonly unknown[], input: MemoKeyInput): string {
  const subject = input.recordId !== undefined ? { recordId: input.recordId } : { query: input.query };
  const scope = input.scopeOf?.(node.id);
  const material = stableStringify({
    v: 1,
    by: 'inputs',
    policy: input.policyId,
    subject,
    contextChars: input.contextChars,
    node,
    inputs,
    ...(scope ? { scope } : {}),
  });
  return createHash('sha256').update(material).digest('hex');
}

/** The node's upstream part of the key, computed once per prepared workflow and node. */
const upstreamParts = new WeakMap<
  PreparedWorkflow,
  Map<string, { upstream: ReadonlySet<string>; nodes: unknown[]; edges: string[] }>
>();

function upstreamOf(
  p: PreparedWorkflow,
  nodeId: string,
): { upstream: ReadonlySet<string>; nodes: unknown[]; edges: string[] } {
  let byNode = upstreamParts.get(p);
  if (!byNode) upstreamParts.set(p, (byNode = new Map()));
  let part = byNode.get(nodeId);
  if (!part) {
    const upstream = p.ancestors(nodeId);
    const nodes = [...upstream].sort().map((id) => p.adjacency.nodes.get(id));
    const edges = p.workflow.edges
      .filter((e) => upstream.has(e.from) && upstream.has(e.to))
      .map((e) => stableStringify(e))
      .sort();
    byNode.set(nodeId, (part = { upstream, nodes, edges }));
  }
  return part;
}

/**
 * A copy of a node observation for a memo, or of a memo entry for a run: every object and array is
 * copied (a run that changes its observation never changes the memo's, nor the other way round), but
 * strings are kept as they are. Strings cannot change, and they are nearly all of an observation's
 * size: the tool responses, the input summary, an LLM node's answer. `structuredClone` copies
 * them too, so every memo entry, and every run answered from the memo, held its own copy of the
 * same responses. References to one object stay references to one copy (as with `structuredClone`);
 * a value that is not plain data (a Date, a Map, a class instance) is copied by `structuredClone`.
 */
export function copyObservation<T extends NodeObservation>(observation: T): T {
  return copyData(observation, new Map()) as T;
}

function copyData(value: unknown, seen: Map<object, unknown>): unknown {
  // A function or a symbol cannot be copied: structuredClone throws the error it always threw.
  if (typeof value === 'function' || typeof value === 'symbol') return structuredClone(value);
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  const proto = Object.getPrototypeOf(value) as unknown;
  let copy: unknown;
  if (Array.isArray(value) && proto === Array.prototype) {
    const out: unknown[] = new Array(value.length);
    seen.set(value, out);
    value.forEach((v, i) => void (out[i] = copyData(v, seen)));
    copy = out;
  } else if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
    seen.set(value, out);
    for (const k of Object.keys(value)) out[k] = copyData((value as Record<string, unknown>)[k], seen);
    copy = out;
  } else {
    copy = structuredClone(value);
    seen.set(value, copy);
  }
  return copy;
}

/** A simple in-process memo (a Map), for tests and single-process searches. */
export function createMemoryMemo(): NodeMemo & { size(): number } {
  const map = new Map<string, NodeObservation>();
  return {
    get: (key) => map.get(key),
    set: (key, entry) => void map.set(key, copyObservation(entry)),
    size: () => map.size,
  };
}
