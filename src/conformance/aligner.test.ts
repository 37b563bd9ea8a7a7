import { describe, expect, it } from 'vitest';
import { formatProcessTree } from '../mining/process-tree/format.js';
import { parseProcessTree } from '../mining/process-tree/parse.js';
import type { ProcessTree } from '../mining/process-tree/schema.js';
import { createRandom, type Random } from '../util/random.js';
import { TreeAligner } from './aligner.js';

/**
 * The aligner against a reference that shares none of its code: the tree's language enumerated
 * word by word from the operators' definitions (up to the longest word an optimal alignment can
 * use), and the cost of a trace as the least number of insertions and deletions that turn it into
 * one of those words.
 */

/** Every word of the tree's language with at most `max` activities. */
function language(t: ProcessTree, max: number): Set<string> {
  const enc = (w: string[]) => JSON.stringify(w);
  const dec = (s: string) => JSON.parse(s) as string[];
  if ('label' in t) return new Set(max >= 1 ? [enc([t.label])] : []);
  if ('tau' in t) return new Set([enc([])]);
  const kids = t.children.map((c) => [...language(c, max)].map(dec));
  const out = new Set<string>();
  const concat = (a: string[][], b: string[][]) => {
    const r: string[][] = [];
    for (const x of a) for (const y of b) if (x.length + y.length <= max) r.push([...x, ...y]);
    return r;
  };
  if (t.op === 'xor') for (const k of kids) for (const w of k) out.add(enc(w));
  if (t.op === 'seq') for (const w of kids.reduce(concat, [[]])) out.add(enc(w));
  if (t.op === 'and') {
    let acc: string[][] = [[]];
    for (const k of kids) {
      const next = new Set<string>();
      for (const x of acc)
        for (const y of k) if (x.length + y.length <= max) for (const s of shuffles(x, y)) next.add(enc(s));
      acc = [...next].map(dec);
    }
    for (const w of acc) out.add(enc(w));
  }
  if (t.op === 'loop') {
    const redo = kids.slice(1).flat();
    let frontier = kids[0]!;
    for (const w of frontier) out.add(enc(w));
    while (frontier.length > 0) {
      const next: string[][] = [];
      for (const w of concat(concat(frontier, redo), kids[0]!)) {
        const k = enc(w);
        if (!out.has(k)) {
          out.add(k);
          next.push(w);
        }
      }
      frontier = next;
    }
  }
  return out;
}

function shuffles(x: string[], y: string[]): string[][] {
  if (x.length === 0) return [y];
  if (y.length === 0) return [x];
  return [...shuffles(x.slice(1), y).map((s) => [x[0]!, ...s]), ...shuffles(x, y.slice(1)).map((s) => [y[0]!, ...s])];
}

function lcs(a: string[], b: string[]): number {
  const d = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = a[i - 1] === b[j - 1] ? d[i - 1]![j - 1]! + 1 : Math.max(d[i - 1]![j]!, d[i]![j - 1]!);
  return d[a.length]![b.length]!;
}

function referenceCost(tree: ProcessTree, trace: string[]): { cost: number; words: Set<string> } {
  const shortest = Math.min(...[...language(tree, 8)].map((w) => (JSON.parse(w) as string[]).length));
  const words = language(tree, 2 * trace.length + shortest);
  let best = Infinity;
  for (const w of words) {
    const word = JSON.parse(w) as string[];
    best = Math.min(best, trace.length + word.length - 2 * lcs(trace, word));
  }
  return { cost: best, words };
}

function randomTree(r: Random, leaves: number, alphabet: string[]): ProcessTree {
  if (leaves <= 1) return r.next() < 0.15 ? { tau: true } : { label: alphabet[r.int(alphabet.length)]! };
  const ops = ['seq', 'xor', 'and', 'loop'] as const;
  const op = ops[r.int(4)]!;
  const k = op === 'loop' ? 2 : 2 + r.int(Math.min(2, leaves - 1));
  const sizes = new Array<number>(k).fill(1);
  for (let i = k; i < leaves; i++) sizes[r.int(k)]!++;
  return { op, children: sizes.map((s) => randomTree(r, s, alphabet)) };
}

function checkMoves(tree: ProcessTree, trace: string[], words: Set<string>): number {
  const { cost, moves } = new TreeAligner(tree).align(trace, { moves: true });
  const events = moves!.filter((m) => m.kind !== 'model');
  expect(events.map((m) => m.position)).toEqual(trace.map((_, i) => i));
  expect(events.map((m) => m.activity)).toEqual(trace);
  const modelRun = moves!.filter((m) => m.kind !== 'log').map((m) => m.activity);
  expect(words.has(JSON.stringify(modelRun)), `${JSON.stringify(modelRun)} is a run of the model`).toBe(true);
  expect(moves!.filter((m) => m.kind !== 'sync')).toHaveLength(cost);
  return cost;
}

describe('TreeAligner', () => {
  it('gives the optimal cost of random trees and traces, duplicate activities included', () => {
    const r = createRandom('aligner-reference');
    const alphabet = ['a', 'b', 'c'];
    let deviating = 0;
    for (let n = 0; n < 250; n++) {
      const tree = randomTree(r, 1 + r.int(5), alphabet);
      const trace = Array.from({ length: r.int(5) }, () => alphabet[r.int(3)]!);
      if (r.next() < 0.1) trace.push('z');
      const { cost, words } = referenceCost(tree, trace);
      const label = `${formatProcessTree(tree)} on ${trace.join(' ')}`;
      expect(new TreeAligner(tree).align(trace).cost, label).toBe(cost);
      expect(checkMoves(tree, trace, words), label).toBe(cost);
      if (cost > 0) deviating++;
    }
    expect(deviating).toBeGreaterThan(100);
  });

  it('aligns across a parallel node whose branches share no activity, and across one whose branches do', () => {
    const disjoint = parseProcessTree("->( 'a', +( ->( 'b', 'c' ), *( 'd', tau ), X( tau, 'e' ) ), 'f' )");
    const shared = parseProcessTree("->( 'a', +( ->( 'b', 'c' ), ->( 'b', 'd' ) ), 'f' )");
    for (const [tree, trace, want] of [
      [disjoint, ['a', 'd', 'b', 'd', 'c', 'f'], 0],
      [disjoint, ['a', 'c', 'b', 'f'], 3],
      [disjoint, ['a', 'e', 'e', 'b', 'c', 'd', 'f'], 1],
      [shared, ['a', 'b', 'b', 'd', 'c', 'f'], 0],
      [shared, ['a', 'b', 'd', 'c', 'f'], 1],
    ] as const) {
      const { words } = referenceCost(tree, [...trace]);
      expect(checkMoves(tree, [...trace], words), trace.join(' ')).toBe(want);
    }
  });

  it('names what was skipped and what was inserted, where', () => {
    const tree = parseProcessTree("->( 'register', 'check', 'examine', 'decide' )");
    const { cost, moves } = new TreeAligner(tree).align(['register', 'examine', 'pay', 'decide'], { moves: true });
    expect(cost).toBe(2);
    expect(moves!.filter((m) => m.kind !== 'sync')).toEqual([
      { kind: 'model', activity: 'check', position: 1 },
      { kind: 'log', activity: 'pay', position: 2 },
    ]);
  });

  it("knows the model's cheapest complete run", () => {
    expect(new TreeAligner(parseProcessTree("->( 'a', X( tau, 'b' ), *( 'c', 'd' ) )")).cheapestRun()).toBe(2);
    expect(new TreeAligner(parseProcessTree("X( tau, 'a' )")).cheapestRun()).toBe(0);
  });

  it('refuses an operator without children and a parallel node too wide to expand', () => {
    expect(() => new TreeAligner({ op: 'seq', children: [{ label: 'a' }, { op: 'xor', children: [] }] })).toThrow(
      /operator without children/,
    );
    const wide: ProcessTree = {
      op: 'and',
      children: Array.from({ length: 12 }, () => parseProcessTree("->( 'a', 'b', 'c' )")),
    };
    expect(() => new TreeAligner(wide)).toThrow(/too wide to align exactly/);
  });
});
