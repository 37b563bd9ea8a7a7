import type { Dfg } from './dfg.js';

/**
 * Transitive successors of every activity of a DFG as bitsets (networkx `descendants`: reachable
 * through at least one edge, never the activity itself, even on a cycle). Warshall's closure over
 * 32-bit words: n²·n/32 steps, nothing for the activity counts of real logs.
 */
export interface Reachability {
  words: number;
  /** succ[a] bitset: b reachable from a. */
  succ: Uint32Array[];
  /** pred[a] bitset: a reachable from b. */
  pred: Uint32Array[];
}

export function reachability(dfg: Dfg): Reachability {
  const { n } = dfg;
  const words = (n + 31) >>> 5;
  const succ: Uint32Array[] = [];
  for (let a = 0; a < n; a++) {
    const row = new Uint32Array(words);
    for (let b = 0; b < n; b++) if (dfg.edges[a * n + b]! > 0) row[b >>> 5]! |= 1 << (b & 31);
    succ.push(row);
  }
  for (let k = 0; k < n; k++) {
    const rowK = succ[k]!;
    const w = k >>> 5;
    const bit = 1 << (k & 31);
    for (let i = 0; i < n; i++) {
      const rowI = succ[i]!;
      if ((rowI[w]! & bit) !== 0) for (let x = 0; x < words; x++) rowI[x]! |= rowK[x]!;
    }
  }
  for (let a = 0; a < n; a++) succ[a]![a >>> 5]! &= ~(1 << (a & 31));
  const pred: Uint32Array[] = [];
  for (let a = 0; a < n; a++) pred.push(new Uint32Array(words));
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) if (has(succ[a]!, b)) pred[b]![a >>> 5]! |= 1 << (a & 31);
  }
  return { words, succ, pred };
}

/** Whether bit `i` is set. */
export function has(set: Uint32Array, i: number): boolean {
  return (set[i >>> 5]! & (1 << (i & 31))) !== 0;
}

/** Number of set bits. */
export function popcount(set: Uint32Array): number {
  let c = 0;
  for (let x = 0; x < set.length; x++) {
    let v = set[x]! >>> 0;
    v = v - ((v >>> 1) & 0x55555555);
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    c += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return c;
}
