import { vertexList, type Dfg } from '../dfg.js';
import { SubLogBuilder, type SubLog } from '../sublog.js';
import { groupIndex, type Cut } from '../types.js';
import { UnionFind } from '../union-find.js';

/**
 * Concurrency cut (docs/DESIGN.md, "Matching PM4Py" §2), as PM4Py computes it:
 * 1. Start from the sorted alphabet, one group per activity; merge two groups when some cross pair
 *    is not linked in both directions (restarting the scan after every merge). The fixpoint is the
 *    components of "not linked both ways", each at the position of its first activity.
 * 2. Stable-sort the groups by size.
 * 3. Repair: a group without a start or without an end activity is merged into the previous group
 *    in the list (into the next one when it is first).
 */
export const concurrencyCut: Cut = {
  name: 'concurrency',
  operator: 'and',
  holds(dfg: Dfg): number[][] | null {
    const verts = vertexList(dfg);
    if (verts.length === 0) return null;
    const { n } = dfg;
    const uf = new UnionFind(n);
    for (let i = 0; i < verts.length; i++) {
      const a = verts[i]!;
      for (let j = i + 1; j < verts.length; j++) {
        const b = verts[j]!;
        if (!(dfg.edges[a * n + b]! > 0 && dfg.edges[b * n + a]! > 0)) uf.union(a, b);
      }
    }
    const groups = uf.classes(verts);
    groups.sort((x, y) => x.length - y.length);
    let i = 0;
    while (i < groups.length && groups.length > 1) {
      const g = groups[i]!;
      if (g.some((a) => dfg.start[a]! > 0) && g.some((a) => dfg.end[a]! > 0)) {
        i++;
        continue;
      }
      groups.splice(i, 1);
      const into = i === 0 ? 0 : i - 1;
      groups[into] = groups[into]!.concat(g);
    }
    return groups.length > 1 ? groups : null;
  },
  /**
   * Each trace filtered to each group. PM4Py *assigns* the count of the projected trace instead of
   * adding it (docs/DESIGN.md, "Matching PM4Py" §6.6), so the last variant that maps to it wins; we reproduce that with
   * `set`, which is why the miner iterates variants in first-seen order.
   */
  project(log: SubLog, dfg: Dfg, groups: number[][]): SubLog[] {
    const of = groupIndex(dfg, groups);
    return groups.map((_, g) => {
      const b = new SubLogBuilder();
      for (let v = 0; v < log.traces.length; v++) {
        const t = log.traces[v]!;
        b.set(
          t.filter((a) => of[a] === g),
          log.counts[v]!,
        );
      }
      return b.build();
    });
  },
};
