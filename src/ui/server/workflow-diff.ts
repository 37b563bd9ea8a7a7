import type { Edge, Workflow, WorkflowNode } from '../../graph/schema.js';
import { stableStringify } from '../../contracts/canonical-args.js';

/**
 * The difference between a candidate's workflow and its parent's, as the candidate page
 * highlights it: nodes by id (added, removed, changed with the fields that changed) and edges by
 * their ends (added, removed, changed kind or guard).
 */
export interface WorkflowDiff {
  addedNodes: string[];
  removedNodes: string[];
  changedNodes: Array<{ id: string; fields: string[] }>;
  addedEdges: string[];
  removedEdges: string[];
  changedEdges: string[];
}

/** The key of an edge in a diff: `from→to`. */
export const edgeKey = (e: Pick<Edge, 'from' | 'to'>): string => `${e.from}→${e.to}`;

export function diffWorkflows(before: Workflow, after: Workflow): WorkflowDiff {
  const a = new Map(before.nodes.map((n) => [n.id, n]));
  const b = new Map(after.nodes.map((n) => [n.id, n]));
  const changedNodes: WorkflowDiff['changedNodes'] = [];
  for (const [id, n] of b) {
    const old = a.get(id);
    if (!old) continue;
    const fields = changedFields(old, n);
    if (fields.length) changedNodes.push({ id, fields });
  }
  const ea = new Map(before.edges.map((e) => [edgeKey(e), e]));
  const eb = new Map(after.edges.map((e) => [edgeKey(e), e]));
  return {
    addedNodes: [...b.keys()].filter((id) => !a.has(id)),
    removedNodes: [...a.keys()].filter((id) => !b.has(id)),
    changedNodes,
    addedEdges: [...eb.keys()].filter((k) => !ea.has(k)),
    removedEdges: [...ea.keys()].filter((k) => !eb.has(k)),
    changedEdges: [...eb.entries()]
      .filter(([k, e]) => ea.has(k) && stableStringify(ea.get(k)) !== stableStringify(e))
      .map(([k]) => k),
  };
}

function changedFields(a: WorkflowNode, b: WorkflowNode): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  return [...keys].filter((k) => stableStringify(ra[k]) !== stableStringify(rb[k])).sort();
}
