import type { EventLog } from '../event-log/event-log.js';
import { mergeAlternatives } from './align.js';
import {
  countPositions,
  innerShapes,
  mergePositions,
  pathPositions,
  scale,
  type ChoiceSlot,
  type ParallelSlot,
  type PositionSlot,
  type Shape,
} from './shape.js';

/**
 * Keeps the common shape (docs/DESIGN.md, "Mining"): a domain's mined tree is the union
 * of many API chains, so its aligned shape can have more positions than any one run makes. While a
 * run would pass more than `target` positions (`pathPositions`: one option of a choice), or the shape
 * has more than `maxPositions` in all, the cheapest of three moves is made, the cost being how much
 * of the flow the move touches (supports multiplied down through parallel slots and choices):
 * - merge two adjacent positions of one sequence (cost: the weaker one's support; ties: the pair
 *   sharing more tools). The weak position's tools stay in a `mined` list at the nearest step
 *   instead of being lost; supports add up (capped at 1);
 * - serialize a parallel slot whose weakest branch is weak (cost: that branch's strongest support):
 *   the inductive miner's fall-throughs put an activity that occurs at varying places "in parallel"
 *   with everything else, which in a union of chains is an artefact, not concurrency. Its branches
 *   then run in sequence (in the order `fitLog` gave them) and can merge with their neighbours;
 * - dissolve a choice (cost: its least taken option's share of the flow): its options merge position by
 *   position into one sequence whose steps pick their tools (`align.ts`), as a choice of single tools is.
 * A choice whose options are one position each is dissolved as well: it is a step that picks its tool.
 * Returns a new shape.
 */
export function compactShape(shape: Shape, target: number, maxPositions = Infinity): Shape {
  const current = cloneShape(shape);
  const goal = Math.max(1, target);
  const cap = Math.max(goal, maxPositions);
  dissolveSingles(current);
  while (pathPositions(current) > goal || countPositions(current) > cap) {
    const move = cheapestMove(current);
    if (!move) break;
    const { seq, index } = move;
    if (move.kind === 'merge') {
      seq.splice(index, 2, mergePositions(seq[index] as PositionSlot, seq[index + 1] as PositionSlot));
    } else if (move.kind === 'serialize') {
      const par = seq[index] as ParallelSlot;
      seq.splice(index, 1, ...par.branches.flatMap((b) => scale(b, par.support)));
    } else {
      seq.splice(index, 1, ...dissolve(seq[index] as ChoiceSlot));
    }
    dissolveSingles(current);
  }
  return current;
}

/** A choice as one sequence: its options (weighted by their shares) merged position by position, reached as often as the choice. */
function dissolve(c: ChoiceSlot): Shape {
  return scale(mergeAlternatives(c.options.map((o, i) => scale(o, c.shares[i] ?? 0))), c.support);
}

/** Dissolves (in place, at any depth) every choice whose options are one position each. */
function dissolveSingles(seq: Shape): void {
  for (let i = 0; i < seq.length; i++) {
    const s = seq[i]!;
    for (const inner of innerShapes(s)) dissolveSingles(inner);
    if (s.kind === 'choice' && s.options.every((o) => o.length === 1 && o[0]!.kind === 'position')) {
      const merged = dissolve(s);
      seq.splice(i, 1, ...merged);
      i += merged.length - 1;
    }
  }
}

interface Move {
  kind: 'merge' | 'serialize' | 'dissolve';
  seq: Shape;
  index: number;
  cost: number;
  overlap: number;
}

function cheapestMove(shape: Shape): Move | null {
  const found: { best: Move | null } = { best: null };
  const offer = (m: Move) => {
    const b = found.best;
    if (!b || m.cost < b.cost - 1e-12 || (Math.abs(m.cost - b.cost) <= 1e-12 && m.overlap > b.overlap)) found.best = m;
  };
  const visit = (seq: Shape, factor: number) => {
    for (let i = 0; i < seq.length; i++) {
      const a = seq[i]!;
      const b = seq[i + 1];
      if (a.kind === 'position' && b?.kind === 'position') {
        offer({ kind: 'merge', seq, index: i, cost: factor * Math.min(a.support, b.support), overlap: jaccard(a, b) });
      }
      if (a.kind === 'parallel') {
        const weakest = Math.min(...a.branches.map((br) => Math.max(0, ...br.map((x) => x.support))));
        offer({ kind: 'serialize', seq, index: i, cost: factor * a.support * weakest, overlap: 0 });
        for (const br of a.branches) visit(br, factor * a.support);
      }
      if (a.kind === 'choice') {
        offer({ kind: 'dissolve', seq, index: i, cost: factor * a.support * Math.min(...a.shares), overlap: 0 });
        a.options.forEach((o, k) => visit(o, factor * a.support * (a.shares[k] ?? 0)));
      }
    }
  };
  visit(shape, 1);
  return found.best;
}

function jaccard(a: PositionSlot, b: PositionSlot): number {
  let shared = 0;
  for (const t of a.tools.keys()) if (b.tools.has(t)) shared++;
  return shared / (a.tools.size + b.tools.size - shared);
}

function cloneShape(shape: Shape): Shape {
  return shape.map((s) =>
    s.kind === 'position'
      ? { ...s, tools: new Map(s.tools) }
      : s.kind === 'parallel'
        ? { ...s, branches: s.branches.map(cloneShape) }
        : { ...s, options: s.options.map(cloneShape) },
  );
}

/** The median number of calls per case: the "typical chain length" positions are compacted to. */
export function medianCaseLength(log: EventLog): number {
  const lengths: number[] = [];
  for (const v of log.variants) for (let i = 0; i < v.count; i++) lengths.push(v.trace.length);
  if (lengths.length === 0) return 0;
  lengths.sort((a, b) => a - b);
  const mid = lengths.length >> 1;
  return lengths.length % 2 ? lengths[mid]! : Math.round((lengths[mid - 1]! + lengths[mid]!) / 2);
}
