import type { ProcessTree } from '../mining/process-tree/schema.js';
import {
  INF,
  MOVE_BLOCK,
  MOVE_LOG,
  MOVE_MODEL,
  MOVE_START,
  MOVE_SYNC,
  regionPass,
  type BlockRow,
} from './region-pass.js';
import { compileTree, type CompiledTree, type Region } from './tree-automaton.js';

/**
 * One move of an alignment. `sync`: the event and the model agree; `log`: an event the model does
 * not allow (an inserted activity); `model`: an activity the model needed and the trace lacks (a
 * skipped activity). `position` is the event's index in the trace (0-based) for `sync` and `log`
 * moves, and for a `model` move the index of the event it comes before (the trace's length when it
 * comes last). Silent steps are not listed.
 */
export interface AlignmentMove {
  kind: 'sync' | 'log' | 'model';
  activity: string;
  position: number;
}

/** The optimal alignment of one trace: its cost (deviations) and, when asked for, its moves. */
export interface TraceAlignment {
  cost: number;
  moves?: AlignmentMove[];
}

const NO_ROW = new Int32Array(0);

/** Cells (costs) the memo of region tables may hold before it is emptied. */
const MEMO_CELLS = 8_000_000;

/** The costs of one region on every stretch of one sequence, rows computed when first needed. */
interface RegionTable {
  seq: Int32Array;
  rows: (Int32Array | undefined)[];
  /** The bound each row was computed with: its costs above it are INF. */
  rowBounds: number[];
  /** The block edges of passes over `seq`, made on the first pass. */
  blocks?: BlockRow;
}

/** A move on a block child's projection, before the blocks' moves are merged. */
interface RawMove {
  kind: 'sync' | 'log' | 'model';
  /** The activity code (model moves) or -1. */
  code: number;
  /** The event's index in the whole trace (sync, log), or -1 (model). */
  event: number;
}

/**
 * Optimal alignments of traces against one process tree, with the standard costs (1 per log move
 * and per model move on an activity, 0 for synchronous moves and silent steps). Exact: every
 * region pass is a shortest path over all (position, state) pairs, and a block's cost on a stretch
 * is the sum of its children's optimal costs on their events of that stretch, which is optimal
 * because no activity belongs to two children.
 *
 * The costs of a block child on every stretch of its events are kept per distinct event sequence,
 * so variants that agree on a child's activities share its work.
 */
export class TreeAligner {
  readonly compiled: CompiledTree;
  private readonly memo: Map<string, RegionTable>[];
  private memoCells = 0;
  private cheapest: number | undefined;
  /** The bound of the current root pass: every row computed meanwhile is exact up to it. */
  private bound = 0;

  constructor(readonly tree: ProcessTree) {
    this.compiled = compileTree(tree);
    this.memo = this.compiled.regions.map(() => new Map());
  }

  /** The number of activities on the model's cheapest complete run (PM4Py's "best worst cost", in moves). */
  cheapestRun(): number {
    this.cheapest ??= this.align([]).cost;
    return this.cheapest;
  }

  /** Aligns one trace given as activity names. */
  align(trace: readonly string[], opts: { moves?: boolean } = {}): TraceAlignment {
    const { codeOf, regions, root } = this.compiled;
    const region = regions[root]!;
    const codes: number[] = [];
    const events: number[] = [];
    for (let i = 0; i < trace.length; i++) {
      const c = codeOf.get(trace[i]!);
      if (c !== undefined && region.alphabet[c]) {
        codes.push(c);
        events.push(i);
      }
    }
    const seq = Int32Array.from(codes);
    const outside = trace.length - seq.length;
    // Iterative deepening on the cost: a pass with bound B finds every alignment that costs at most B.
    const blocks = this.blockRowsFor(region, seq);
    let inside = INF;
    for (let bound = 0; ; bound = bound === 0 ? 1 : Math.min(INF - 1, bound * 2)) {
      this.bound = bound;
      const { ends } = regionPass(region, seq, 0, blocks, bound);
      if (ends[seq.length]! <= bound) {
        inside = ends[seq.length]!;
        break;
      }
      if (bound >= INF - 1) throw new Error('no complete run of the process tree was found');
    }
    if (!opts.moves) return { cost: inside + outside };
    // Cost 0 inside the tree: every event of the tree's activities is a synchronous move.
    const raw =
      inside === 0
        ? events.map((event) => ({ kind: 'sync' as const, code: -1, event }))
        : this.movesOf(region, seq, Int32Array.from(events), 0, seq.length);
    const moves = withOutsideEvents(raw, trace.length).map((m) => ({
      kind: m.kind,
      activity: m.kind === 'model' ? this.compiled.labels[m.code]! : trace[m.event]!,
      position: m.event,
    }));
    const cost = moves.filter((m) => m.kind !== 'sync').length;
    return { cost, moves };
  }

  /**
   * The block edges of passes of `region` over `seq`: for a block and a start position, the costs
   * of every stretch that leaves at most the current bound's number of events to log moves (the
   * events no child has), each the sum of the children's costs on their events of the stretch plus
   * those log moves. Kept per start and recomputed when the bound grows.
   */
  private blockRowsFor(region: Region, seq: Int32Array): BlockRow {
    if (region.blocks.length === 0) return () => NO_ROW;
    const views = new Map<number, BlockView & { rows: (Int32Array | undefined)[]; rowBounds: number[] }>();
    for (const b of region.blocks) views.set(b, { ...this.blockView(b, seq), rows: [], rowBounds: [] });
    const n = seq.length;
    return (b, i) => {
      const v = views.get(b)!;
      const cached = v.rows[i];
      if (cached && v.rowBounds[i] === this.bound) return cached;
      // The furthest end: past it, more events than the bound would be log moves.
      let end = i;
      while (end < n && end - i - (v.claimed[end]! - v.claimed[i]!) <= this.bound) end++;
      if (end - i - (v.claimed[end]! - v.claimed[i]!) > this.bound) end--;
      const row = new Int32Array(end - i + 1);
      for (let j = i; j <= end; j++) row[j - i] = j - i - (v.claimed[j]! - v.claimed[i]!);
      for (let c = 0; c < v.children.length; c++) {
        const idx = v.index[c]!;
        const child = this.row(v.children[c]!, v.tables[c]!, idx[i]!);
        const x = idx[i]!;
        for (let j = i; j <= end; j++) {
          const y = idx[j]! - x;
          row[j - i] = y < child.length ? Math.min(INF, row[j - i]! + child[y]!) : INF;
        }
      }
      v.rows[i] = row;
      v.rowBounds[i] = this.bound;
      return row;
    };
  }

  /** For a block over `seq`: each child's events of `seq`, its table and the prefix counts. */
  private blockView(block: number, seq: Int32Array): BlockView {
    const children = this.compiled.blocks[block]!.children;
    const view: BlockView = { children, tables: [], index: [], events: [], claimed: new Int32Array(seq.length + 1) };
    for (const c of children) {
      const alphabet = this.compiled.regions[c]!.alphabet;
      const index = new Int32Array(seq.length + 1);
      const sub: number[] = [];
      const at: number[] = [];
      for (let i = 0; i < seq.length; i++) {
        if (alphabet[seq[i]!]) {
          sub.push(seq[i]!);
          at.push(i);
        }
        index[i + 1] = sub.length;
      }
      view.index.push(index);
      view.events.push(Int32Array.from(at));
      view.tables.push(this.table(c, Int32Array.from(sub)));
      for (let i = 0; i <= seq.length; i++) view.claimed[i]! += index[i]!;
    }
    return view;
  }

  private table(region: number, seq: Int32Array): RegionTable {
    const key = seqKey(seq);
    const memo = this.memo[region]!;
    let t = memo.get(key);
    if (!t) {
      t = { seq, rows: [], rowBounds: [] };
      memo.set(key, t);
    }
    return t;
  }

  /** The optimal costs of `region` on `table.seq[x..y)` for every y (at `y - x`), exact up to the current bound. */
  private row(region: number, table: RegionTable, x: number): Int32Array {
    let row = table.rows[x];
    if (!row || table.rowBounds[x]! < this.bound) {
      const r = this.compiled.regions[region]!;
      table.blocks ??= this.blockRowsFor(r, table.seq);
      if (!row) this.memoCells += table.seq.length - x + 1;
      row = regionPass(r, table.seq, x, table.blocks, this.bound).ends;
      table.rows[x] = row;
      table.rowBounds[x] = this.bound;
      if (this.memoCells > MEMO_CELLS) this.forget(region, table);
    }
    return row;
  }

  /** Empties the memo, keeping the table in use. */
  private forget(region: number, keep: RegionTable): void {
    for (const m of this.memo) m.clear();
    this.memo[region]!.set(seqKey(keep.seq), keep);
    this.memoCells = keep.rows.reduce((n, r) => n + (r ? r.length : 0), 0);
  }

  /** The moves of an optimal alignment of `region` with `seq[from..to)`; `events` maps seq positions to trace positions. */
  private movesOf(region: Region, seq: Int32Array, events: Int32Array, from: number, to: number): RawMove[] {
    const pass = regionPass(region, seq, from, this.blockRowsFor(region, seq), this.bound, true);
    const S = region.states;
    const out: RawMove[][] = [];
    let pos = to;
    let state = region.final;
    for (;;) {
      const k = (pos - from) * S + state;
      const move = pass.predMove![k]!;
      if (move === MOVE_START || pass.predState![k]! < 0) break;
      const ps = pass.predState![k]!;
      const pp = pass.predPos![k]!;
      if (move === MOVE_SYNC) out.push([{ kind: 'sync', code: -1, event: events[pp]! }]);
      else if (move === MOVE_LOG) out.push([{ kind: 'log', code: -1, event: events[pp]! }]);
      else if (move === MOVE_MODEL) out.push([{ kind: 'model', code: pass.predArg![k]!, event: -1 }]);
      else if (move === MOVE_BLOCK) out.push(this.blockMoves(pass.predArg![k]!, seq, events, pp, pos));
      pos = pp;
      state = ps;
    }
    return out.reverse().flat();
  }

  /** The moves of a block over `seq[i..j)`: its children's, and log moves for events no child has. */
  private blockMoves(block: number, seq: Int32Array, events: Int32Array, i: number, j: number): RawMove[] {
    const v = this.blockView(block, seq);
    const parts: RawMove[][] = [];
    const claimed = new Uint8Array(j - i);
    for (let c = 0; c < v.children.length; c++) {
      const region = this.compiled.regions[v.children[c]!]!;
      const at = v.events[c]!;
      const childEvents = new Int32Array(at.length);
      for (let q = 0; q < at.length; q++) {
        childEvents[q] = events[at[q]!]!;
        if (at[q]! >= i && at[q]! < j) claimed[at[q]! - i] = 1;
      }
      parts.push(this.movesOf(region, v.tables[c]!.seq, childEvents, v.index[c]![i]!, v.index[c]![j]!));
    }
    const loose: RawMove[] = [];
    for (let q = i; q < j; q++) if (!claimed[q - i]) loose.push({ kind: 'log', code: -1, event: events[q]! });
    parts.push(loose);
    // Each child's model moves go before its next event; the children's events keep their trace order.
    const end = j < events.length ? events[j]! : Number.MAX_SAFE_INTEGER;
    const keyed: { key: number; model: number; part: number; order: number; move: RawMove }[] = [];
    parts.forEach((moves, part) => {
      let next = end;
      for (let q = moves.length - 1; q >= 0; q--) {
        const m = moves[q]!;
        if (m.event >= 0) next = m.event;
        keyed.push({ key: m.event >= 0 ? m.event : next, model: m.event >= 0 ? 1 : 0, part, order: q, move: m });
      }
    });
    keyed.sort((a, b) => a.key - b.key || a.model - b.model || a.part - b.part || a.order - b.order);
    return keyed.map((k) => k.move);
  }
}

interface BlockView {
  children: number[];
  /** How many of `seq[0..i)` some child has. */
  claimed: Int32Array;
  tables: RegionTable[];
  /** Per child: how many of `seq[0..i)` are the child's events. */
  index: Int32Array[];
  /** Per child: the positions in `seq` of the child's events. */
  events: Int32Array[];
}

/**
 * Adds a log move for each event whose activity is not in the tree where it occurs, and gives each
 * model move the position of the event it comes before.
 */
function withOutsideEvents(raw: RawMove[], length: number): RawMove[] {
  // `raw` holds a move for every event of the tree's activities, in trace order, so the positions
  // between two of them are the events of other activities.
  const inOrder: RawMove[] = [];
  let next = 0;
  const flushBefore = (event: number) => {
    for (; next < event; next++) inOrder.push({ kind: 'log', code: -1, event: next });
  };
  for (const m of raw) {
    if (m.event >= 0) {
      flushBefore(m.event);
      next = m.event + 1;
    }
    inOrder.push(m);
  }
  flushBefore(length);
  let following = length;
  for (let q = inOrder.length - 1; q >= 0; q--) {
    const m = inOrder[q]!;
    if (m.event >= 0) following = m.event;
    else inOrder[q] = { ...m, event: following };
  }
  return inOrder;
}

/** A map key for an activity-code sequence (one UTF-16 unit a code while the codes fit). */
function seqKey(seq: Int32Array): string {
  let s = '';
  for (let i = 0; i < seq.length; i++) {
    const c = seq[i]!;
    if (c >= 0xfffe) return Array.from(seq).join(',');
    s += String.fromCharCode(c + 1);
  }
  return s;
}
