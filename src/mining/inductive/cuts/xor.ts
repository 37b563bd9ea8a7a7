import { vertexList, type Dfg } from '../dfg.js';
import { SubLogBuilder, type SubLog } from '../sublog.js';
import { groupIndex, type Cut } from '../types.js';
import { componentOrder, UnionFind } from '../union-find.js';

/**
 * Exclusive-choice cut (Leemans, "Robust Process Mining with Guarantees", XorCut p.188; docs/DESIGN.md,
 * "Matching PM4Py" §2): the connected components of the DFG taken as an undirected graph, over all vertices. More
 * than one component is a cut.
 *
 * Group order decides ties in the IMf projection (a tied trace goes to the higher index). PM4Py
 * takes networkx's component order, which follows the iteration order of a Python set of strings
 * and so changes with PYTHONHASHSEED (docs/DESIGN.md, "Matching PM4Py" §6.4): a component comes first when one of its
 * vertices is met first. Under such a pseudo-random vertex order, component A precedes B with
 * probability |A| / (|A| + |B|), so the likeliest order, and the one PM4Py shows for every seed
 * unless sizes are close, is *larger components first*. We use that (`componentOrder`), ties by the
 * first vertex in Python name order. (a42f0n10 under IMf needs it: ties between its big component
 * and a singleton must go to the singleton.)
 */
export const xorCut: Cut = {
  name: 'xor',
  operator: 'xor',
  holds(dfg: Dfg): number[][] | null {
    const { n } = dfg;
    const uf = new UnionFind(n);
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) if (dfg.edges[a * n + b]! > 0) uf.union(a, b);
    }
    const groups = componentOrder(uf.classes(vertexList(dfg)));
    return groups.length > 1 ? groups : null;
  },
  /**
   * Each trace goes to the group holding most of its events (a tie goes to the higher index) and
   * keeps only that group's events; counts add up.
   */
  project(log: SubLog, dfg: Dfg, groups: number[][]): SubLog[] {
    const of = groupIndex(dfg, groups);
    const k = groups.length;
    const builders = groups.map(() => new SubLogBuilder());
    const tally = new Int32Array(k);
    for (let v = 0; v < log.traces.length; v++) {
      const t = log.traces[v]!;
      tally.fill(0);
      for (let i = 0; i < t.length; i++) {
        const g = of[t[i]!]!;
        if (g >= 0) tally[g]!++;
      }
      let best = 0;
      for (let g = 1; g < k; g++) if (tally[g]! >= tally[best]!) best = g;
      const kept = tally[best] === t.length ? t : t.filter((a) => of[a] === best);
      builders[best]!.add(kept, log.counts[v]!);
    }
    return builders.map((b) => b.build());
  },
};
