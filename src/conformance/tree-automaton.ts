import { FlowScoutError } from '../errors/index.js';
import { formatProcessTree } from '../mining/process-tree/format.js';
import type { ProcessTree } from '../mining/process-tree/schema.js';

/**
 * A process tree compiled for alignment: a set of *regions*, each a small automaton over the
 * tree's activities, and *blocks*, the parallel nodes whose children share no activity.
 *
 * A block is not expanded into the interleavings of its children (whose number grows as the
 * product of their states): since no activity belongs to two children, every event of a trace can
 * only be matched by the one child that has its activity, so aligning a stretch of the trace with
 * the block is aligning each child with that stretch's events of the child's activities, and adding
 * the costs. Each child of a block is compiled as a region of its own, and the region that holds
 * the block has one edge for it (`EDGE_BLOCK`) whose cost depends on the stretch it covers.
 *
 * Everything else becomes states and edges (Thompson's construction): an activity is one labelled
 * edge, `tau` and the joints of `->`, `X` and `*` are silent edges. A parallel node whose children
 * do share an activity is expanded into the product of its children's automata (bounded by
 * `MAX_PRODUCT_STATES`), as is everything under it.
 */
export const EDGE_SILENT = 0;
export const EDGE_LABEL = 1;
export const EDGE_BLOCK = 2;

/** The most states one expanded parallel node may have. */
export const MAX_PRODUCT_STATES = 200_000;

/** One automaton: states `0..states-1`, edges grouped by source state (`edgeStart[s]..edgeStart[s+1]`). */
export interface Region {
  id: number;
  states: number;
  start: number;
  final: number;
  edgeStart: Int32Array;
  edgeKind: Uint8Array;
  edgeTo: Int32Array;
  /** The activity code of a labelled edge, the block index of a block edge. */
  edgeArg: Int32Array;
  /** 1 for each activity code that occurs in the region's subtree (its blocks' included). */
  alphabet: Uint8Array;
  /** Blocks that have an edge in this region. */
  blocks: number[];
}

/** A parallel node whose children share no activity: one region per child. */
export interface Block {
  id: number;
  children: number[];
}

export interface CompiledTree {
  /** Activity code → name. */
  labels: string[];
  codeOf: ReadonlyMap<string, number>;
  regions: Region[];
  blocks: Block[];
  root: number;
}

interface Fragment {
  entry: number;
  exit: number;
}

/** Edges of a region under construction. */
class Builder {
  states = 0;
  readonly from: number[] = [];
  readonly kind: number[] = [];
  readonly to: number[] = [];
  readonly arg: number[] = [];
  readonly blocks: number[] = [];

  state(): number {
    return this.states++;
  }
  edge(from: number, kind: number, to: number, arg = -1): void {
    this.from.push(from);
    this.kind.push(kind);
    this.to.push(to);
    this.arg.push(arg);
  }
}

/** Compiles a tree. Throws INVALID_INPUT for an operator without children or a parallel node too wide to expand. */
export function compileTree(tree: ProcessTree): CompiledTree {
  const codeOf = new Map<string, number>();
  const labels: string[] = [];
  collectLabels(tree, codeOf, labels);
  const regions: Region[] = [];
  const blocks: Block[] = [];
  const alphabets = new Map<ProcessTree, Uint8Array>();
  const alphabetOf = (t: ProcessTree): Uint8Array => {
    let a = alphabets.get(t);
    if (!a) {
      a = new Uint8Array(labels.length);
      if ('label' in t) a[codeOf.get(t.label)!] = 1;
      else if ('op' in t) for (const c of t.children) orInto(a, alphabetOf(c));
      alphabets.set(t, a);
    }
    return a;
  };

  const compileRegion = (t: ProcessTree): number => {
    const b = new Builder();
    const frag = build(t, b, false);
    const region = finish(b, regions.length, frag, alphabetOf(t));
    regions.push(region);
    return region.id;
  };

  const build = (t: ProcessTree, b: Builder, inline: boolean): Fragment => {
    if (!('op' in t)) {
      const entry = b.state();
      const exit = b.state();
      if ('label' in t) b.edge(entry, EDGE_LABEL, exit, codeOf.get(t.label)!);
      else b.edge(entry, EDGE_SILENT, exit);
      return { entry, exit };
    }
    if (t.children.length === 0) throw emptyOperator(tree, t);
    switch (t.op) {
      case 'seq': {
        const parts = t.children.map((c) => build(c, b, inline));
        for (let i = 1; i < parts.length; i++) b.edge(parts[i - 1]!.exit, EDGE_SILENT, parts[i]!.entry);
        return { entry: parts[0]!.entry, exit: parts[parts.length - 1]!.exit };
      }
      case 'xor': {
        const entry = b.state();
        const exit = b.state();
        for (const c of t.children) {
          // A leaf is one edge between the choice's own states (fewer states to multiply in a product).
          if ('label' in c) b.edge(entry, EDGE_LABEL, exit, codeOf.get(c.label)!);
          else if ('tau' in c) b.edge(entry, EDGE_SILENT, exit);
          if (!('op' in c)) continue;
          const f = build(c, b, inline);
          b.edge(entry, EDGE_SILENT, f.entry);
          b.edge(f.exit, EDGE_SILENT, exit);
        }
        return { entry, exit };
      }
      case 'loop': {
        const entry = b.state();
        const exit = b.state();
        const body = build(t.children[0]!, b, inline);
        b.edge(entry, EDGE_SILENT, body.entry);
        b.edge(body.exit, EDGE_SILENT, exit);
        for (const redo of t.children.slice(1)) {
          const f = build(redo, b, inline);
          b.edge(body.exit, EDGE_SILENT, f.entry);
          b.edge(f.exit, EDGE_SILENT, body.entry);
        }
        return { entry, exit };
      }
      case 'and': {
        const entry = b.state();
        const exit = b.state();
        if (!inline && disjoint(t.children.map(alphabetOf))) {
          const block: Block = { id: blocks.length, children: [] };
          blocks.push(block);
          block.children = t.children.map(compileRegion);
          b.edge(entry, EDGE_BLOCK, exit, block.id);
          b.blocks.push(block.id);
        } else {
          const p = product(
            t,
            t.children.map((c) => standalone(c)),
          );
          const offset = b.states;
          b.states += p.states;
          for (let e = 0; e < p.from.length; e++) b.edge(p.from[e]! + offset, p.kind[e]!, p.to[e]! + offset, p.arg[e]);
          b.edge(entry, EDGE_SILENT, p.start + offset);
          b.edge(p.final + offset, EDGE_SILENT, exit);
        }
        return { entry, exit };
      }
    }
  };

  /** A subtree as an automaton of its own, everything expanded (for a product). */
  const standalone = (t: ProcessTree): Standalone => {
    const b = new Builder();
    const f = build(t, b, true);
    return { states: b.states, start: f.entry, final: f.exit, from: b.from, kind: b.kind, to: b.to, arg: b.arg };
  };

  const root = compileRegion(tree);
  return { labels, codeOf, regions, blocks, root };
}

interface Standalone {
  states: number;
  start: number;
  final: number;
  from: number[];
  kind: number[];
  to: number[];
  arg: number[];
}

/** The interleavings of the parts as one automaton: a state per tuple of the parts' states. */
function product(node: ProcessTree, parts: Standalone[]): Standalone {
  let size = 1;
  for (const p of parts) {
    size *= p.states;
    if (size > MAX_PRODUCT_STATES) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `a parallel node of the process tree is too wide to align exactly: ${clipTree(node)} (its children share activities, and their interleavings need more than ${MAX_PRODUCT_STATES.toLocaleString('en-US')} states)`,
        hint: 'Give the parallel branches distinct activities, or split the parallel node into smaller ones.',
      });
    }
  }
  const out: Standalone = { states: size, start: 0, final: 0, from: [], kind: [], to: [], arg: [] };
  const radix: number[] = [];
  let r = 1;
  for (const p of parts) {
    radix.push(r);
    r *= p.states;
  }
  const bySource = parts.map((p) => {
    const lists: number[][] = Array.from({ length: p.states }, () => []);
    for (let e = 0; e < p.from.length; e++) lists[p.from[e]!]!.push(e);
    return lists;
  });
  for (let s = 0; s < size; s++) {
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      const q = Math.floor(s / radix[i]!) % p.states;
      for (const e of bySource[i]![q]!) {
        out.from.push(s);
        out.kind.push(p.kind[e]!);
        out.to.push(s + (p.to[e]! - q) * radix[i]!);
        out.arg.push(p.arg[e]!);
      }
    }
  }
  out.start = parts.reduce((acc, p, i) => acc + p.start * radix[i]!, 0);
  out.final = parts.reduce((acc, p, i) => acc + p.final * radix[i]!, 0);
  return out;
}

function finish(b: Builder, id: number, frag: Fragment, alphabet: Uint8Array): Region {
  const n = b.states;
  const edgeStart = new Int32Array(n + 1);
  for (const f of b.from) edgeStart[f + 1]!++;
  for (let s = 0; s < n; s++) edgeStart[s + 1]! += edgeStart[s]!;
  const fill = edgeStart.slice(0, n);
  const m = b.from.length;
  const edgeKind = new Uint8Array(m);
  const edgeTo = new Int32Array(m);
  const edgeArg = new Int32Array(m);
  for (let e = 0; e < m; e++) {
    const at = fill[b.from[e]!]!++;
    edgeKind[at] = b.kind[e]!;
    edgeTo[at] = b.to[e]!;
    edgeArg[at] = b.arg[e]!;
  }
  return {
    id,
    states: n,
    start: frag.entry,
    final: frag.exit,
    edgeStart,
    edgeKind,
    edgeTo,
    edgeArg,
    alphabet,
    blocks: b.blocks,
  };
}

function collectLabels(t: ProcessTree, codeOf: Map<string, number>, labels: string[]): void {
  const stack: ProcessTree[] = [t];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if ('label' in n) {
      if (!codeOf.has(n.label)) {
        codeOf.set(n.label, labels.length);
        labels.push(n.label);
      }
    } else if ('op' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
}

function orInto(a: Uint8Array, b: Uint8Array): void {
  for (let i = 0; i < a.length; i++) a[i]! |= b[i]!;
}

function disjoint(alphabets: Uint8Array[]): boolean {
  if (alphabets.length === 0) return true;
  const seen = new Uint8Array(alphabets[0]!.length);
  for (const a of alphabets) {
    for (let i = 0; i < a.length; i++) {
      if (a[i] && seen[i]) return false;
      seen[i]! |= a[i]!;
    }
  }
  return true;
}

function clipTree(t: ProcessTree): string {
  const s = formatProcessTree(t);
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
}

function emptyOperator(root: ProcessTree, node: ProcessTree): FlowScoutError {
  return new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `the process tree has an operator without children: ${clipTree(node)} in ${clipTree(root)}`,
    hint: 'Every operator (->, X, +, *) needs at least one child; write tau for a silent step.',
  });
}
