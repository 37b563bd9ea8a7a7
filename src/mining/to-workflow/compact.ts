import type { EventLog } from '../event-log/event-log.js';
import { mergeAlternatives } from './align.js';
import {
  countSteps,
  innerSkeletons,
  mergeSteps,
  pathSteps,
  scale,
  type ChoiceSlot,
  type ParallelSlot,
  type StepSlot,
  type Skeleton,
} from './skeleton.js';

/**
 * Keeps the common skeleton (docs/DESIGN.md, "Mining"): a domain's mined tree is the union
 * of many API chains, so its aligned skeleton can have more steps than any one run makes. While a
 * run would pass more than `target` steps (`pathSteps`: one option of a choice), or the skeleton
 * has more than `maxSteps` in all, the cheapest of three moves is made, the cost being how much
 * of the flow the move touches (supports multiplied down through parallel slots and choices):
 * - merge two adjacent steps of one sequence (cost: the weaker one's support; ties: the pair
 *   sharing more tools). The weak step's tools stay in a `mined` list at the nearest step
 *   instead of being lost; supports add up (capped at 1);
 * - serialize a parallel slot whose weakest branch is weak (cost: that branch's strongest support):
 *   the inductive miner's fall-throughs put an activity that occurs at varying places "in parallel"
 *   with everything else, which in a union of chains is an artefact, not concurrency. Its branches
 *   then run in sequence (in the order `fitLog` gave them) and can merge with their neighbours;
 * - dissolve a choice (cost: its least taken option's share of the flow): its options merge step by
 *   step into one sequence whose steps pick their tools (`align.ts`), as a choice of single tools is.
 * A choice whose options are one step each is dissolved as well: it is a step that picks its tool.
 * Returns a new skeleton.
 */
export function compactSkeleton(shape: Skeleton, target: number, maxSteps = Infinity): Skeleton {
  const current = cloneShape(shape);
  const goal = Math.max(1, target);
  const cap = Math.max(goal, maxSteps);
  dissolveSingles(current);
  while (pathSteps(current) > goal || countSteps(current) > cap) {
    const move = cheapestMove(current);
    if (!move) break;
    const { seq, index } = move;
    if (move.kind === 'merge') {
      seq.splice(index, 2, mergeSteps(seq[index] as StepSlot, seq[index + 1] as StepSlot));
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

/** A choice as one sequence: its options (weighted by their shares) merged step by step, reached as often as the choice. */
function dissolve(c: ChoiceSlot): Skeleton {
  return scale(mergeAlternatives(c.options.map((o, i) => scale(o, c.shares[i] ?? 0))), c.support);
}

/** Dissolves (in place, at any depth) every choice whose options are one step each. */
function dissolveSingles(seq: Skeleton): void {
  for (let i = 0; i < seq.length; i++) {
    const s = seq[i]!;
    for (const inner of innerSkeletons(s)) dissolveSingles(inner);
    if (s.kind === 'choice' && s.options.every((o) => o.length === 1 && o[0]!.kind === 'step')) {
      const merged = dissolve(s);
      seq.splice(i, 1, ...merged);
      i += merged.length - 1;
    }
  }
}

interface Move {
  kind: 'merge' | 'serialize' | 'dissolve';
  seq: Skeleton;
  index: number;
  cost: number;
  overlap: number;
}

function cheapestMove(shape: Skeleton): Move | null {
  const found: { best: Move | null } = { best: null };
  const offer = (m: Move) => {
    const b = found.best;
    if (!b || m.cost < b.cost - 1e-12 || (Math.abs(m.cost - b.cost) <= 1e-12 && m.overlap > b.overlap)) found.best = m;
  };
  const visit = (seq: Skeleton, factor: number) => {
    for (let i = 0; i < seq.length; i++) {
      const a = seq[i]!;
      const b = seq[i + 1];
      if (a.kind === 'step' && b?.kind === 'step') {
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

function jaccard(a: StepSlot, b: StepSlot): number {
  let shared = 0;
  for (const t of a.tools.keys()) if (b.tools.has(t)) shared++;
  return shared / (a.tools.size + b.tools.size - shared);
}

function cloneShape(shape: Skeleton): Skeleton {
  return shape.map((s) =>
    s.kind === 'step'
      ? { ...s, tools: new Map(s.tools) }
      : s.kind === 'parallel'
        ? { ...s, branches: s.branches.map(cloneShape) }
        : { ...s, options: s.options.map(cloneShape) },
  );
}

/** The median number of calls per case: the "typical chain length" steps are compacted to. */
export function medianCaseLength(log: EventLog): number {
  const lengths: number[] = [];
  for (const v of log.variants) for (let i = 0; i < v.count; i++) lengths.push(v.trace.length);
  if (lengths.length === 0) return 0;
  lengths.sort((a, b) => a - b);
  const mid = lengths.length >> 1;
  return lengths.length % 2 ? lengths[mid]! : Math.round((lengths[mid - 1]! + lengths[mid]!) / 2);
}
