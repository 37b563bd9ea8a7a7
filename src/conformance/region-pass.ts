import { EDGE_BLOCK, EDGE_LABEL, EDGE_SILENT, type Region } from './tree-automaton.js';

/** Larger than any alignment cost. */
export const INF = 0x3fffffff;

/** How a state was reached on the cheapest path (`record` passes keep it). */
export const MOVE_START = 0;
export const MOVE_SILENT = 1;
export const MOVE_MODEL = 2;
export const MOVE_SYNC = 3;
export const MOVE_LOG = 4;
export const MOVE_BLOCK = 5;

/**
 * The costs of a block edge from position `i` of the pass's sequence, given by the aligner:
 * `row[j - i]` is the cost of the block over `seq[i..j)`, exact when it is at most the pass's bound
 * (larger otherwise); stretches past the row's end cost more than the bound.
 */
export type BlockRow = (block: number, i: number) => Int32Array;

export interface PassResult {
  /**
   * `ends[pos - from]`: the cheapest cost of aligning `seq[from..pos)` with a complete run of the
   * region (reaching its final state), when it is at most the pass's bound (INF otherwise).
   */
  ends: Int32Array;
  /** With `record`: the state, position, move and edge argument each entry was reached by. */
  predState?: Int32Array;
  predPos?: Int32Array;
  predMove?: Uint8Array;
  predArg?: Int32Array;
}

/**
 * Aligns `seq[from..)` with one region, for every end position at once: a shortest-path pass over
 * (position, state). Costs are the standard ones: a log move (an event the model does not take) and
 * a model move on an activity (an activity the trace does not have) cost 1, a synchronous move and
 * a silent step 0, a block edge what its children cost on the events it covers.
 *
 * Positions are taken in order (every move keeps or advances the position), and within a position
 * the moves that do not consume an event are settled with Dijkstra's algorithm. Only costs up to
 * `bound` are kept: the aligner asks with a small bound first and raises it until the end is
 * reached, so a trace that fits touches only the states its synchronous run passes through, and the
 * pass stops at the first position no state reaches within the bound.
 */
export function regionPass(
  region: Region,
  seq: Int32Array,
  from: number,
  blockRow: BlockRow,
  bound: number,
  record = false,
): PassResult {
  const S = region.states;
  const n = seq.length;
  // Cost + 1 per (position, state), 0 for "not reached": a fresh array needs no filling.
  const dist = new Int32Array((n - from + 1) * S);
  const ends = new Int32Array(n - from + 1).fill(INF);
  const result: PassResult = { ends };
  let predState: Int32Array | undefined;
  let predPos: Int32Array | undefined;
  let predMove: Uint8Array | undefined;
  let predArg: Int32Array | undefined;
  if (record) {
    const size = (n - from + 1) * S;
    result.predState = predState = new Int32Array(size).fill(-1);
    result.predPos = predPos = new Int32Array(size).fill(-1);
    result.predMove = predMove = new Uint8Array(size);
    result.predArg = predArg = new Int32Array(size).fill(-1);
  }
  const { edgeStart, edgeKind, edgeTo, edgeArg } = region;
  const heap = new MinHeap(S);
  dist[region.start] = 1;
  // The furthest position any state reached within the bound: past it, nothing is left to extend.
  let furthest = from;

  const relax = (pos: number, to: number, d: number, fromPos: number, fromState: number, move: number, arg: number) => {
    if (d > bound) return false;
    const k = (pos - from) * S + to;
    const old = dist[k]!;
    if (old !== 0 && d >= old - 1) return false;
    if (pos > furthest) furthest = pos;
    dist[k] = d + 1;
    if (record) {
      predState![k] = fromState;
      predPos![k] = fromPos;
      predMove![k] = move;
      predArg![k] = arg;
    }
    return true;
  };

  for (let i = from; i <= n && i <= furthest; i++) {
    const base = (i - from) * S;
    // Settle the moves that stay at position i.
    heap.clear();
    for (let s = 0; s < S; s++) if (dist[base + s]! !== 0) heap.push(dist[base + s]! - 1, s);
    while (heap.size > 0) {
      const d = heap.topKey();
      const s = heap.pop();
      if (d > dist[base + s]! - 1) continue;
      for (let e = edgeStart[s]!; e < edgeStart[s + 1]!; e++) {
        const kind = edgeKind[e]!;
        const t = edgeTo[e]!;
        let nd: number;
        let move: number;
        if (kind === EDGE_SILENT) {
          nd = d;
          move = MOVE_SILENT;
        } else if (kind === EDGE_LABEL) {
          nd = d + 1;
          move = MOVE_MODEL;
        } else {
          nd = d + blockRow(edgeArg[e]!, i)[0]!;
          move = MOVE_BLOCK;
        }
        if (relax(i, t, nd, i, s, move, edgeArg[e]!)) heap.push(nd, t);
      }
    }
    // Moves that consume events: to position i + 1 (log and synchronous moves) or further (blocks).
    const end = dist[base + region.final]!;
    if (end !== 0) ends[i - from] = end - 1;
    for (let s = 0; s < S; s++) {
      if (dist[base + s] === 0) continue;
      const d = dist[base + s]! - 1;
      if (i < n) {
        relax(i + 1, s, d + 1, i, s, MOVE_LOG, -1);
        const a = seq[i]!;
        for (let e = edgeStart[s]!; e < edgeStart[s + 1]!; e++) {
          if (edgeKind[e] === EDGE_LABEL && edgeArg[e] === a) relax(i + 1, edgeTo[e]!, d, i, s, MOVE_SYNC, a);
        }
      }
      for (let e = edgeStart[s]!; e < edgeStart[s + 1]!; e++) {
        if (edgeKind[e] !== EDGE_BLOCK) continue;
        const b = edgeArg[e]!;
        const t = edgeTo[e]!;
        const row = blockRow(b, i);
        for (let j = i + 1; j < i + row.length; j++) relax(j, t, d + row[j - i]!, i, s, MOVE_BLOCK, b);
      }
    }
  }
  return result;
}

/** A binary min-heap of (key, state) pairs; stale pairs are skipped by the caller. */
class MinHeap {
  private keys: Int32Array;
  private vals: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Int32Array(Math.max(16, capacity));
    this.vals = new Int32Array(Math.max(16, capacity));
  }

  clear(): void {
    this.size = 0;
  }

  push(key: number, val: number): void {
    if (this.size === this.keys.length) {
      const k = new Int32Array(this.size * 2);
      k.set(this.keys);
      this.keys = k;
      const v = new Int32Array(this.size * 2);
      v.set(this.vals);
      this.vals = v;
    }
    let i = this.size++;
    const keys = this.keys;
    const vals = this.vals;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (keys[p]! <= key) break;
      keys[i] = keys[p]!;
      vals[i] = vals[p]!;
      i = p;
    }
    keys[i] = key;
    vals[i] = val;
  }

  topKey(): number {
    return this.keys[0]!;
  }

  pop(): number {
    const keys = this.keys;
    const vals = this.vals;
    const top = vals[0]!;
    const n = --this.size;
    if (n > 0) {
      const key = keys[n]!;
      const val = vals[n]!;
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && keys[c + 1]! < keys[c]!) c++;
        if (keys[c]! >= key) break;
        keys[i] = keys[c]!;
        vals[i] = vals[c]!;
        i = c;
      }
      keys[i] = key;
      vals[i] = val;
    }
    return top;
  }
}
