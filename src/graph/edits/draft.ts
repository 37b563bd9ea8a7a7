import { makeLlmNode } from '../prompt-templates.js';
import type { Edge, Guard, Workflow, WorkflowNode } from '../schema.js';
import type { NewNode } from './edit-schema.js';

/**
 * Shared steps of the edit functions. Each edit works on a private copy of the workflow (a draft
 * that `applyEditPlan` cloned), and refuses with an EditRefusal whose message says what is wrong and
 * what to do; `applyEditPlan` adds which edit it was.
 */
export class EditRefusal extends Error {
  override readonly name = 'EditRefusal';
}

/** Stops the current edit with a message for the user (or the optimizer). */
export function refuse(message: string): never {
  throw new EditRefusal(message);
}

/** The node with this id, or a refusal listing the ids that exist. */
export function requireNode(w: Workflow, id: string): WorkflowNode {
  const node = w.nodes.find((n) => n.id === id);
  if (!node) refuse(`there is no node '${id}'; nodes are: ${w.nodes.map((n) => n.id).join(', ') || '(none)'}`);
  return node;
}

/** Refuses unless the node exists and is of the wanted kind. */
export function requireKind<K extends WorkflowNode['kind']>(
  w: Workflow,
  id: string,
  kind: K,
): Extract<WorkflowNode, { kind: K }> {
  const node = requireNode(w, id);
  if (node.kind !== kind) {
    const other = kind === 'llm' ? 'tool' : 'llm';
    refuse(
      `node '${id}' is ${other === 'llm' ? 'an llm' : 'a tool'} node; this edit needs ${kind === 'llm' ? 'an llm' : 'a tool'} node`,
    );
  }
  return node as Extract<WorkflowNode, { kind: K }>;
}

/** Refuses when the id is already taken. */
export function requireNewId(w: Workflow, id: string): void {
  if (w.nodes.some((n) => n.id === id)) refuse(`a node with id '${id}' already exists; choose a new id`);
}

/** The edge from → to, or a refusal naming the node's actual edges. */
export function requireEdge(w: Workflow, from: string, to: string): Edge {
  requireNode(w, from);
  requireNode(w, to);
  const edge = findEdge(w, from, to);
  if (!edge) {
    const outs = outEdges(w, from).map((e) => e.to);
    refuse(`there is no edge ${from} → ${to}; edges out of '${from}' go to: ${outs.join(', ') || '(none)'}`);
  }
  return edge;
}

/** The edge from → to, if any (a workflow has at most one per pair). */
export function findEdge(w: Workflow, from: string, to: string): Edge | undefined {
  return w.edges.find((e) => e.from === from && e.to === to);
}

/** Edges into a node, in document order. */
export function inEdges(w: Workflow, id: string): Edge[] {
  return w.edges.filter((e) => e.to === id);
}

/** Edges out of a node, in document order. */
export function outEdges(w: Workflow, id: string): Edge[] {
  return w.edges.filter((e) => e.from === id);
}

/** Drops the edge from → to (no-op when absent). */
export function removeEdge(w: Workflow, from: string, to: string): void {
  w.edges = w.edges.filter((e) => !(e.from === from && e.to === to));
}

/**
 * Adds an edge, merging with an existing edge between the same nodes (a workflow has at most one).
 * The merged edge is live whenever either was: kind `data` if either carried data, and the guard
 * kept only when both had the same one (a guard cannot express "either condition", and dropping it
 * errs towards running the target rather than starving it).
 */
export function upsertEdge(w: Workflow, edge: Edge): void {
  if (edge.from === edge.to) refuse(`an edge from '${edge.from}' to itself would be a cycle`);
  const existing = findEdge(w, edge.from, edge.to);
  if (!existing) {
    w.edges.push(cleanEdge(edge));
    return;
  }
  if (edge.kind === 'data') existing.kind = 'data';
  if (!sameGuard(existing.when, edge.when)) delete existing.when;
}

function cleanEdge(edge: Edge): Edge {
  return edge.when
    ? { from: edge.from, to: edge.to, kind: edge.kind, when: edge.when }
    : { from: edge.from, to: edge.to, kind: edge.kind };
}

/** Guards equal as data (key order ignored); two absent guards are equal. */
export function sameGuard(a: Guard | undefined, b: Guard | undefined): boolean {
  if (!a || !b) return a === b;
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** True for the entry (a plan node without in-edges) and for nodes without in-edges in general. */
export function isEntry(w: Workflow, id: string): boolean {
  const n = w.nodes.find((x) => x.id === id);
  return n?.kind === 'llm' && n.role === 'plan' && inEdges(w, id).length === 0;
}

/** True for the exit (a synthesize node without out-edges). */
export function isExit(w: Workflow, id: string): boolean {
  const n = w.nodes.find((x) => x.id === id);
  return n?.kind === 'llm' && n.role === 'synthesize' && outEdges(w, id).length === 0;
}

/** True when `to` can be reached from `from` along edges. */
export function hasPath(w: Workflow, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const e of outEdges(w, id)) stack.push(e.to);
  }
  return false;
}

/** Turns an edit's node description into an IR node (LLM nodes without a prompt use the role template). */
export function materializeNode(spec: NewNode): WorkflowNode {
  if (spec.kind === 'tool') return structuredClone(spec);
  try {
    return makeLlmNode(spec.role, spec.id, {
      ...(spec.prompt !== undefined ? { prompt: spec.prompt } : {}),
      ...(spec.output !== undefined ? { output: spec.output } : {}),
      ...(spec.field !== undefined ? { field: spec.field } : {}),
      ...(spec.question !== undefined ? { question: spec.question } : {}),
      ...(spec.task !== undefined ? { task: spec.task } : {}),
      ...(spec.model !== undefined ? { model: spec.model } : {}),
    });
  } catch (e) {
    refuse(e instanceof Error ? e.message : String(e));
  }
}
