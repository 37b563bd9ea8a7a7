import type { Edge, Workflow, WorkflowNode } from './schema.js';

/** Adjacency of a workflow, built once: successor and predecessor edges per node id. */
export interface Adjacency {
  nodes: Map<string, WorkflowNode>;
  out: Map<string, Edge[]>;
  in: Map<string, Edge[]>;
}

/** Indexes nodes and edges; edges naming unknown nodes are left out. */
export function adjacency(workflow: Pick<Workflow, 'nodes' | 'edges'>): Adjacency {
  const nodes = new Map<string, WorkflowNode>();
  for (const n of workflow.nodes) if (!nodes.has(n.id)) nodes.set(n.id, n);
  const out = new Map<string, Edge[]>();
  const inn = new Map<string, Edge[]>();
  for (const id of nodes.keys()) {
    out.set(id, []);
    inn.set(id, []);
  }
  for (const e of workflow.edges) {
    if (!nodes.has(e.from) || !nodes.has(e.to)) continue;
    out.get(e.from)!.push(e);
    inn.get(e.to)!.push(e);
  }
  return { nodes, out, in: inn };
}

/** Nodes without in-edges, in document order. */
export function entryIds(adj: Adjacency): string[] {
  return [...adj.nodes.keys()].filter((id) => adj.in.get(id)!.length === 0);
}

/** Nodes without out-edges, in document order. */
export function exitIds(adj: Adjacency): string[] {
  return [...adj.nodes.keys()].filter((id) => adj.out.get(id)!.length === 0);
}

/** Ids reachable from `starts` following edges forward (or backward). */
export function reachable(adj: Adjacency, starts: Iterable<string>, direction: 'forward' | 'backward'): Set<string> {
  const seen = new Set<string>();
  const stack = [...starts];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const edges = direction === 'forward' ? adj.out.get(id) : adj.in.get(id);
    for (const e of edges ?? []) stack.push(direction === 'forward' ? e.to : e.from);
  }
  return seen;
}

/**
 * Deterministic topological order (Kahn's algorithm; ties broken by node id, as flattening π̂ requires:
 * docs/DESIGN.md, "Execution"). Returns null when the graph has a cycle.
 */
export function topologicalOrder(adj: Adjacency): string[] | null {
  const indeg = new Map<string, number>();
  for (const [id, edges] of adj.in) indeg.set(id, edges.length);
  const ready = [...indeg]
    .filter(([, d]) => d === 0)
    .map(([id]) => id)
    .sort(compareIds);
  const order: string[] = [];
  while (ready.length > 0) {
    const id = ready.shift()!;
    order.push(id);
    for (const e of adj.out.get(id)!) {
      const d = indeg.get(e.to)! - 1;
      indeg.set(e.to, d);
      if (d === 0) insertSorted(ready, e.to);
    }
  }
  return order.length === adj.nodes.size ? order : null;
}

/**
 * Every elementary cycle is too many to report; this returns one cycle per strongly connected
 * component that has one (Tarjan), each as the list of ids along it, first id repeated at the end.
 */
export function findCycles(adj: Adjacency): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const comps: string[][] = [];
  const ids = [...adj.nodes.keys()].sort(compareIds);
  // Iterative Tarjan so deep graphs cannot overflow the call stack.
  for (const root of ids) {
    if (idx.has(root)) continue;
    const work: Array<{ id: string; i: number }> = [{ id: root, i: 0 }];
    idx.set(root, index);
    low.set(root, index++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const succ = adj.out.get(frame.id)!;
      if (frame.i < succ.length) {
        const to = succ[frame.i++]!.to;
        if (!idx.has(to)) {
          idx.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push({ id: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.id, Math.min(low.get(frame.id)!, idx.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.id;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.id)!));
      }
      if (low.get(frame.id) === idx.get(frame.id)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(w);
        } while (w !== frame.id);
        const selfLoop = comp.length === 1 && adj.out.get(comp[0]!)!.some((e) => e.to === comp[0]);
        if (comp.length > 1 || selfLoop) comps.push(comp);
      }
    }
  }
  return comps.map((comp) => cycleWithin(adj, new Set(comp)));
}

/** A concrete cycle inside a strongly connected component, starting at its smallest id. */
function cycleWithin(adj: Adjacency, comp: Set<string>): string[] {
  const start = [...comp].sort(compareIds)[0]!;
  // BFS from start back to start inside the component gives a shortest cycle.
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const e of [...adj.out.get(id)!].sort((a, b) => compareIds(a.to, b.to))) {
      if (!comp.has(e.to)) continue;
      if (e.to === start) {
        const path = [id];
        let cur = id;
        while (cur !== start) {
          cur = prev.get(cur)!;
          path.push(cur);
        }
        return [...path.reverse(), start];
      }
      if (!prev.has(e.to)) {
        prev.set(e.to, id);
        queue.push(e.to);
      }
    }
  }
  return [start, start];
}

/** Code-point order for ids (ids are ASCII, so this equals plain string comparison). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function insertSorted(list: string[], id: string): void {
  let i = 0;
  while (i < list.length && compareIds(list[i]!, id) < 0) i++;
  list.splice(i, 0, id);
}

/**
 * Nodes that lie on every path from the entries to `id` (its dominators, `id` excluded): a binding
 * may only read one of them, since on any other path it would not have run.
 */
export function upstreamOnEveryPath(adj: Adjacency, id: string): Set<string> {
  const memo = new Map<string, Set<string>>();
  const visiting = new Set<string>();
  const dom = (n: string): Set<string> => {
    const hit = memo.get(n);
    if (hit) return hit;
    if (visiting.has(n)) return new Set();
    visiting.add(n);
    const preds = (adj.in.get(n) ?? []).map((e) => e.from);
    let acc: Set<string> | undefined;
    for (const p of preds) {
      const d = new Set(dom(p));
      d.add(p);
      acc = acc ? new Set([...acc].filter((x) => d.has(x))) : d;
    }
    visiting.delete(n);
    const result = acc ?? new Set<string>();
    memo.set(n, result);
    return result;
  };
  return dom(id);
}
