/**
 * Disjoint sets over 0..n-1, used for connected components (XOR and loop cuts) and for the
 * "merge while related" fixpoints of the sequence and concurrency cuts, whose final partitions are
 * exactly the connected components of the merge relation.
 */
export class UnionFind {
  private readonly parent: Int32Array;

  constructor(n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }

  find(x: number): number {
    let r = x;
    while (this.parent[r] !== r) r = this.parent[r]!;
    while (this.parent[x] !== r) {
      const next = this.parent[x]!;
      this.parent[x] = r;
      x = next;
    }
    return r;
  }

  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }

  /**
   * The classes of `members` (ascending indices), ordered by their smallest member: the order in
   * which a scan over `members` first meets each class.
   */
  classes(members: readonly number[]): number[][] {
    const byRoot = new Map<number, number[]>();
    const out: number[][] = [];
    for (const m of members) {
      const r = this.find(m);
      let c = byRoot.get(r);
      if (!c) {
        c = [];
        byRoot.set(r, c);
        out.push(c);
      }
      c.push(m);
    }
    return out;
  }
}

/**
 * The likeliest order of networkx connected components in PM4Py (see `xorCut`): larger components
 * first, ties keeping the given order (by first vertex). Sorts in place and returns `groups`.
 */
export function componentOrder(groups: number[][]): number[][] {
  return groups.sort((a, b) => b.length - a.length);
}
