/**
 * Selection of Algorithm 1 (docs/DESIGN.md, "Search"): starting at the root, descend while the current
 * node already has `children` children, each time to the child with the highest
 *
 *   Score = Q + λ · sqrt( ln(C_parent + 1) / (C_child + 1) ),   +∞ for an unvisited child (C = 0),
 *
 * and stop at the first node with room for another child: that node is expanded. Ties go to the
 * child created first, so selection is a pure function of the tree's statistics.
 */

/** What selection reads of a search-tree node. */
export interface SelectNode {
  id: string;
  children: readonly string[];
  visits: number;
  q: number;
}

/** The selection score of a child under a parent with `parentVisits` visits. */
export function uctScore(q: number, parentVisits: number, childVisits: number, lambda: number): number {
  if (childVisits <= 0) return Infinity;
  return q + lambda * Math.sqrt(Math.log(parentVisits + 1) / (childVisits + 1));
}

/**
 * The path from the root to the node to expand. `expandable(id)` may veto a node that cannot take
 * children (e.g. a failed candidate without a workflow); descent never enters such a node, and a
 * full node whose children are all vetoed is itself returned (it then gets one child more than
 * `children`, so the search can always go on).
 */
export function selectPath(
  nodes: ReadonlyMap<string, SelectNode>,
  rootId: string,
  opts: { children: number; lambda: number; expandable?: (id: string) => boolean },
): string[] {
  const ok = opts.expandable ?? (() => true);
  const path = [rootId];
  let current = nodes.get(rootId)!;
  while (current.children.length >= opts.children) {
    let best: SelectNode | undefined;
    let bestScore = -Infinity;
    for (const id of current.children) {
      if (!ok(id)) continue;
      const child = nodes.get(id)!;
      const s = uctScore(child.q, current.visits, child.visits, opts.lambda);
      if (s > bestScore) {
        best = child;
        bestScore = s;
      }
    }
    if (!best) break;
    path.push(best.id);
    current = best;
  }
  return path;
}
