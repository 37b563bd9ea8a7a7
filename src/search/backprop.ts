/**
 * Backpropagation of Algorithm 1 (docs/DESIGN.md, "Search"): the new child's D_opt reward R is added
 * along the path from the root to it: C ← C + 1, W ← W + R, Q = W / C for every node on the path
 * (the child itself starts at C = 1, W = R). D_val scores are never backpropagated.
 */

/** The MCTS statistics of a node: C, W and Q = W / C. */
export interface NodeStats {
  visits: number;
  w: number;
  q: number;
}

/** New statistics for every node on `path` (root first) after reward `reward`; the input is not changed. */
export function backpropagate<T extends NodeStats>(
  stats: ReadonlyMap<string, T>,
  path: readonly string[],
  reward: number,
): Map<string, T> {
  const out = new Map<string, T>();
  for (const id of path) {
    const s = stats.get(id);
    if (!s) throw new Error(`backpropagate: no node '${id}' on the path`);
    const visits = s.visits + 1;
    const w = s.w + reward;
    out.set(id, { ...s, visits, w, q: w / visits });
  }
  return out;
}
