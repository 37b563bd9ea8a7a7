import {
  innerSkeletons,
  mergeSteps,
  skeletonTools,
  type ChoiceSlot,
  type ParallelSlot,
  type Skeleton,
  type Slot,
} from './slots.js';
import { alignInOrder } from '../../util/in-order-alignment.js';

/**
 * Merges the skeletons of an exclusive choice step by step (docs/DESIGN.md, "Mining",
 * abstraction to steps): alternatives that differ only in names line up slot for slot, and a slot that only
 * some alternatives have stays on its own with its (smaller) support, so it can become optional.
 *
 * Progressive pairwise alignment (Needleman–Wunsch, by util/in-order-alignment.ts): the longest alternative is the backbone and
 * each other one is aligned into it in turn. Two steps may pair up with score 1 + Jaccard
 * overlap of their tools (so the alignment pairs as many as the order allows, preferring shared
 * tools); two parallel slots (or two choices) pair up the same way; slots of different kinds never pair.
 * Gaps cost nothing; among equally good alignments the one pairing earlier slots wins. Supports of
 * paired slots add up (each alternative brings its share).
 */
export function mergeAlternatives(alternatives: Skeleton[]): Skeleton {
  const nonEmpty = alternatives.filter((a) => a.length > 0);
  if (nonEmpty.length === 0) return [];
  const order = nonEmpty.map((a, i) => ({ a, i })).sort((x, y) => y.a.length - x.a.length || x.i - y.i);
  let acc = order[0]!.a;
  for (let k = 1; k < order.length; k++) acc = alignPair(acc, order[k]!.a);
  return acc;
}

function pairScore(x: Slot, y: Slot): number {
  if (x.kind !== y.kind) return -Infinity;
  const a = x.kind === 'step' ? new Set(x.tools.keys()) : skeletonTools(innerSkeletons(x).flat());
  const b = y.kind === 'step' ? new Set(y.tools.keys()) : skeletonTools(innerSkeletons(y).flat());
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  const union = a.size + b.size - shared;
  return 1 + (union === 0 ? 0 : shared / union);
}

/** Aligns `b` into `a` and merges the paired slots. */
function alignPair(a: Skeleton, b: Skeleton): Skeleton {
  // Aligned from the end, leaving slots unpaired on ties: unmatched slots of the shorter
  // alternative go last, so alternatives line up from their first step (chains share their beginnings).
  const n = a.length;
  const m = b.length;
  const { steps } = alignInOrder(
    n,
    m,
    (i, j) => {
      const s = pairScore(a[n - 1 - i]!, b[m - 1 - j]!);
      return s === -Infinity ? undefined : s;
    },
    { ties: 'late' },
  );
  const out: Skeleton = steps.map((st) =>
    st.kind === 'row'
      ? a[n - 1 - st.i]!
      : st.kind === 'col'
        ? b[m - 1 - st.j]!
        : mergeSlots(a[n - 1 - st.i]!, b[m - 1 - st.j]!),
  );
  return out.reverse();
}

function mergeSlots(x: Slot, y: Slot): Slot {
  if (x.kind === 'step' && y.kind === 'step') return mergeSteps(x, y);
  if (x.kind === 'choice') {
    // Choice with choice: one choice with the options of both.
    const cy = y as ChoiceSlot;
    return {
      kind: 'choice',
      options: [...x.options, ...cy.options],
      shares: [...x.shares, ...cy.shares],
      none: x.none || cy.none,
      support: Math.min(1, x.support + cy.support),
    };
  }
  const px = x as ParallelSlot;
  const py = y as ParallelSlot;
  // Parallel with parallel: branches pair up by index; extra branches are kept.
  const branches: Skeleton[] = [];
  for (let k = 0; k < Math.max(px.branches.length, py.branches.length); k++) {
    const bx = px.branches[k];
    const by = py.branches[k];
    branches.push(bx && by ? mergeAlternatives([bx, by]) : (bx ?? by)!);
  }
  return { kind: 'parallel', branches, support: Math.min(1, px.support + py.support) };
}
