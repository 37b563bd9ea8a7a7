import type { MiningContext, SubLog } from './sublog.js';

/**
 * The directly-follows graph of a sublog (docs/DESIGN.md, "Matching PM4Py" §0): edge (a, b) carries the summed count of
 * the variants in which `a` is directly followed by `b` (once per occurrence), start and end
 * activities carry counters too. Activities get dense local indices in Python name order, so
 * "sorted alphabet" is simply index order and the graph is an n×n matrix of counts.
 *
 * The vertex set is PM4Py's `get_vertices`: edge endpoints plus start and end activities. On the
 * log's own DFG that is every activity; on IMf's filtered DFG (`filterDfg`) an activity that lost
 * all its edges and is neither start nor end drops out, and the cuts then ignore it.
 */
export interface Dfg {
  /** Number of local activities. */
  n: number;
  /** Local index → global activity id, in Python order of the names. */
  acts: Int32Array;
  /** Global id → local index, -1 when absent. */
  local: Int32Array;
  /** n×n edge counts, row = source. 0 = no edge. */
  edges: Float64Array;
  start: Float64Array;
  end: Float64Array;
  /** 1 when the local activity is a vertex (see above). */
  vertex: Uint8Array;
  /** Number of edges with a count > 0. */
  edgeCount: number;
}

/**
 * Builds the DFG of `log`, leaving out activity `skip` (the activity-concurrent fall-through
 * projects it away first; -1 keeps everything).
 */
export function computeDfg(log: SubLog, ctx: MiningContext, skip = -1): Dfg {
  const nGlobal = ctx.names.length;
  const local = new Int32Array(nGlobal).fill(-1);
  const present: number[] = [];
  for (const t of log.traces) {
    for (let i = 0; i < t.length; i++) {
      const a = t[i]!;
      if (a !== skip && local[a] === -1) {
        local[a] = 0;
        present.push(a);
      }
    }
  }
  present.sort((x, y) => ctx.rank[x]! - ctx.rank[y]!);
  const n = present.length;
  const acts = Int32Array.from(present);
  for (let i = 0; i < n; i++) local[acts[i]!] = i;
  const edges = new Float64Array(n * n);
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  for (let v = 0; v < log.traces.length; v++) {
    const t = log.traces[v]!;
    const c = log.counts[v]!;
    let prev = -1;
    for (let i = 0; i < t.length; i++) {
      const a = t[i]!;
      if (a === skip) continue;
      const li = local[a]!;
      if (prev < 0) start[li]! += c;
      else edges[prev * n + li]! += c;
      prev = li;
    }
    if (prev >= 0) end[prev]! += c;
  }
  let edgeCount = 0;
  for (let i = 0; i < edges.length; i++) if (edges[i]! > 0) edgeCount++;
  return { n, acts, local, edges, start, end, vertex: new Uint8Array(n).fill(1), edgeCount };
}

/**
 * IMf's DFG filter (docs/DESIGN.md, "Matching PM4Py" §4.3, §6.8): keep edge (a, b) iff its count is strictly greater than
 * `threshold` × max_out(a), where max_out(a) is a's largest outgoing edge count, with a's end count
 * counted as one more outgoing edge. Start and end activities are not filtered (Leemans' IMf also
 * filters them; PM4Py does not, and we follow PM4Py).
 */
export function filterDfg(dfg: Dfg, threshold: number): Dfg {
  const { n } = dfg;
  const edges = new Float64Array(n * n);
  const vertex = new Uint8Array(n);
  let edgeCount = 0;
  for (let a = 0; a < n; a++) {
    let maxOut = -1;
    for (let b = 0; b < n; b++) {
      const f = dfg.edges[a * n + b]!;
      if (f > 0 && f > maxOut) maxOut = f;
    }
    if (maxOut < 0) continue; // no outgoing edges: nothing to filter
    if (dfg.end[a]! > 0) maxOut = Math.max(maxOut, dfg.end[a]!);
    const limit = threshold * maxOut;
    for (let b = 0; b < n; b++) {
      const f = dfg.edges[a * n + b]!;
      if (f > 0 && f > limit) {
        edges[a * n + b] = f;
        vertex[a] = 1;
        vertex[b] = 1;
        edgeCount++;
      }
    }
  }
  for (let a = 0; a < n; a++) if (dfg.start[a]! > 0 || dfg.end[a]! > 0) vertex[a] = 1;
  return { ...dfg, edges, vertex, edgeCount };
}

/** Local indices of the vertices, in Python name order. */
export function vertexList(dfg: Dfg): number[] {
  const out: number[] = [];
  for (let i = 0; i < dfg.n; i++) if (dfg.vertex[i]) out.push(i);
  return out;
}

/** Whether edge a → b exists (local indices). */
export function hasEdge(dfg: Dfg, a: number, b: number): boolean {
  return dfg.edges[a * dfg.n + b]! > 0;
}
