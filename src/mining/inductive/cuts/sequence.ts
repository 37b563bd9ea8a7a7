import { vertexList, type Dfg } from '../dfg.js';
import { has, popcount, reachability } from '../reachability.js';
import { SubLogBuilder, type SubLog } from '../sublog.js';
import { groupIndex, type Cut } from '../types.js';
import { UnionFind } from '../union-find.js';

/**
 * Strict sequence cut (Leemans' thesis: sequence p.188, strict sequence p.233; docs/DESIGN.md, "Matching PM4Py" §2), the
 * variant PM4Py uses by default.
 *
 * 1. One group per activity; merge two groups while some pair of their members is reachable both
 *    ways or neither way. The fixpoint is the connected components of that relation.
 * 2. Order the groups by |ancestors(x)| + (|A| − |descendants(x)|) for a member x (stable).
 * 3. Strict part: a group that can be skipped (an edge jumps over it, a start activity lies after
 *    it, or an end activity before it) absorbs the neighbouring groups that the min-from / max-to
 *    indices allow; emptied groups are dropped.
 */
export const sequenceCut: Cut = {
  name: 'sequence',
  operator: 'seq',
  holds(dfg: Dfg): number[][] | null {
    const verts = vertexList(dfg);
    if (verts.length === 0) return null;
    const { succ, pred } = reachability(dfg);
    const uf = new UnionFind(dfg.n);
    for (let i = 0; i < verts.length; i++) {
      const a = verts[i]!;
      for (let j = i + 1; j < verts.length; j++) {
        const b = verts[j]!;
        if (has(succ[a]!, b) === has(succ[b]!, a)) uf.union(a, b);
      }
    }
    let groups = uf.classes(verts);
    if (groups.length <= 1) return null;
    // PM4Py keys a group by an arbitrary member (`next(iter(set))`); we take its first member.
    const key = (g: number[]) => popcount(pred[g[0]!]!) + (verts.length - popcount(succ[g[0]!]!));
    const keyed = groups.map((g) => ({ g, k: key(g) }));
    keyed.sort((x, y) => x.k - y.k);
    groups = keyed.map((x) => x.g);
    groups = strictMerge(dfg, groups).filter((g) => g.length > 0);
    // PM4Py would return a single group here and recurse forever; we decline instead.
    return groups.length > 1 ? groups : null;
  },
  project: projectSequence,
};

/** The strict-sequence absorption (thesis p.233), on a copy of `groups`. */
function strictMerge(dfg: Dfg, input: number[][]): number[][] {
  const { n } = dfg;
  const groups = input.map((g) => g.slice());
  const k = groups.length;
  const cur = new Int32Array(n).fill(-1);
  groups.forEach((g, i) => g.forEach((a) => (cur[a] = i)));
  const mf = groups.map((g) => (g.some((a) => dfg.start[a]! > 0) ? -Infinity : Infinity));
  const mt = groups.map((g) => (g.some((a) => dfg.end[a]! > 0) ? Infinity : -Infinity));
  const edgeList: [number, number][] = [];
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (dfg.edges[a * n + b]! > 0) {
        edgeList.push([a, b]);
        const ga = cur[a]!;
        const gb = cur[b]!;
        mf[gb] = Math.min(mf[gb]!, ga);
        mt[ga] = Math.max(mt[ga]!, gb);
      }
    }
  }
  const move = (from: number, to: number) => {
    for (const a of groups[from]!) {
      cur[a] = to;
      groups[to]!.push(a);
    }
    groups[from] = [];
  };
  for (let p = 0; p < k; p++) {
    if (!skippable(p, dfg, cur, edgeList)) continue;
    for (let q = p - 1; q >= 0 && mt[q]! <= p; q--) move(q, p);
    for (let q = p + 1; q < k && mf[q]! >= p; q++) move(q, p);
  }
  return groups;
}

/** SKIPPABLE (thesis p.233) against the current group membership `cur`. */
function skippable(p: number, dfg: Dfg, cur: Int32Array, edgeList: [number, number][]): boolean {
  for (const [a, b] of edgeList) if (cur[a]! < p && cur[b]! > p) return true;
  for (let a = 0; a < dfg.n; a++) {
    if (cur[a]! < 0) continue;
    if (dfg.start[a]! > 0 && cur[a]! > p) return true;
    if (dfg.end[a]! > 0 && cur[a]! < p) return true;
  }
  return false;
}

/**
 * Sequence projection (docs/DESIGN.md, "Matching PM4Py" §2): per trace and per group i in order, the split point that
 * minimises a running cost (−1 for an event of group i, +1 for an event of a later group or of no
 * group, 0 for earlier groups; the first minimum wins). Sublog i gets the group-i events between the
 * previous split point and this one; an absent group gets the empty trace (an optional step).
 */
function projectSequence(log: SubLog, dfg: Dfg, groups: number[][]): SubLog[] {
  const of = groupIndex(dfg, groups);
  const k = groups.length;
  const builders = groups.map(() => new SubLogBuilder());
  const buf = new Int32Array(256);
  let scratch = buf;
  for (let v = 0; v < log.traces.length; v++) {
    const t = log.traces[v]!;
    const count = log.counts[v]!;
    if (scratch.length < t.length) scratch = new Int32Array(t.length * 2);
    let split = 0;
    for (let g = 0; g < k; g++) {
      let cost = 0;
      let least = 0;
      let at = split;
      for (let i = split; i < t.length; i++) {
        const gi = of[t[i]!]!;
        if (gi === g) cost--;
        else if (gi < 0 || gi > g) cost++;
        if (cost < least) {
          least = cost;
          at = i + 1;
        }
      }
      let m = 0;
      for (let i = split; i < at; i++) if (of[t[i]!] === g) scratch[m++] = t[i]!;
      builders[g]!.add(scratch.slice(0, m), count);
      split = at;
    }
  }
  return builders.map((b) => b.build());
}
