import type { ProcessTree } from '../process-tree/schema.js';
import { mergeAlternatives } from './align.js';
import { innerShapes, mergePositions, type PositionSlot, type Shape } from './slots.js';

export {
  innerShapes,
  mergePositions,
  positionTools,
  shapeTools,
  type ChoiceSlot,
  type ParallelSlot,
  type PositionSlot,
  type Shape,
  type Slot,
} from './slots.js';

/**
 * The abstraction to positions (docs/DESIGN.md, "Mining"): a process tree over tool
 * names becomes a *shape*, a sequence of slots, before it becomes a workflow graph.
 *
 * - A `position` is one generic tool-calling step. It remembers which tools the miner saw there
 *   (`tools`, with weights), how often the flows reach it (`support`, relative to the sequence it
 *   sits in: 1 = always), and whether it repeats (`many`).
 * - A `parallel` slot holds branches that run concurrently (an unguarded fan-out and join).
 *
 * Mapping (docs/DESIGN.md, "Mining"):
 * - activity → a position with that tool; tau → nothing (an empty sequence);
 * - sequence → the concatenation of the children's shapes (ordered data edges later);
 * - exclusive choice between step sequences (two or more alternatives that are not τ, one of them
 *   more than one tool, like `X( ->(a,b), c )`) → a `choice` slot: each alternative stays an option
 *   of its own, and a τ alternative means a run may take none (G0 makes it a branch whose condition
 *   lists each option's tools, build-graph.ts);
 * - exclusive choice of single tools (and τ) → one position holding them all: the step picks its
 *   tool from the request; with τ it gets a lower support and may become optional. Alternatives
 *   merged position by position (`align.ts`) only where a repetition's redo parts are merged;
 * - parallel → a parallel slot (a branch that is empty is dropped; one branch left is inlined);
 * - loop / repetition / flower → the do part once, with its positions marked `many` (a DAG cannot
 *   loop; `calls: 'many'` lets a position repeat its call). Redo parts that are not tau follow as
 *   repeated positions with half the support.
 */
/**
 * The shape of a process tree; with `choices: false` every exclusive choice is merged position by
 * position. Iterative over operator nesting depth is not needed: trees are small.
 */
export function treeToShape(tree: ProcessTree, opts: { choices?: boolean } = {}): Shape {
  const choices = opts.choices ?? true;
  const shapeOf = (t: ProcessTree) => treeToShape(t, opts);
  if ('label' in tree) return [{ kind: 'position', tools: new Map([[tree.label, 1]]), support: 1, many: false }];
  if ('tau' in tree) return [];
  switch (tree.op) {
    case 'seq':
      return tree.children.flatMap(shapeOf);
    case 'xor': {
      const k = tree.children.length;
      const alternatives = tree.children.map(shapeOf);
      const taken = alternatives.filter((a) => a.length > 0);
      if (choices && taken.length >= 2 && taken.some((a) => a.length > 1 || a[0]!.kind !== 'position'))
        return [{ kind: 'choice', options: taken, shares: taken.map(() => 1 / k), none: taken.length < k, support: 1 }];
      return mergeAlternatives(alternatives.map((c) => scale(c, 1 / k)));
    }
    case 'and': {
      const branches = tree.children.map(shapeOf).filter((b) => b.length > 0);
      if (branches.length === 0) return [];
      if (branches.length === 1) return branches[0]!;
      return [{ kind: 'parallel', branches, support: 1 }];
    }
    case 'loop': {
      const [body, ...redos] = tree.children;
      const shape = repeated(shapeOf(body!));
      const redoShapes = redos.map(shapeOf).filter((s) => s.length > 0);
      if (redoShapes.length === 0) return shape;
      const redo = repeated(scale(mergeAlternatives(redoShapes.map((s) => scale(s, 1 / redoShapes.length))), 0.5));
      // `*( a, b )`: a single do and a single redo position are one repeated position.
      if (shape.length === 1 && redo.length === 1 && shape[0]!.kind === 'position' && redo[0]!.kind === 'position') {
        return [mergePositions(shape[0] as PositionSlot, redo[0] as PositionSlot, 1)];
      }
      return [...shape, ...redo];
    }
  }
}

/** Multiplies every top-level support by `factor` (a slot's inner shapes are relative to it). */
export function scale(shape: Shape, factor: number): Shape {
  return shape.map((s) =>
    s.kind === 'position'
      ? { ...s, tools: new Map([...s.tools].map(([t, w]) => [t, w * factor])), support: s.support * factor }
      : { ...s, support: s.support * factor },
  );
}

/** Marks every position (also inside parallel branches) as repeating. */
function repeated(shape: Shape): Shape {
  return shape.map((s) =>
    s.kind === 'position'
      ? { ...s, many: true }
      : s.kind === 'parallel'
        ? { ...s, branches: s.branches.map(repeated) }
        : { ...s, options: s.options.map(repeated) },
  );
}

/** Number of positions, counting every parallel branch and every option of a choice (the tool nodes G0 gets). */
export function countPositions(shape: Shape): number {
  let n = 0;
  for (const s of shape) n += s.kind === 'position' ? 1 : innerShapes(s).reduce((m, b) => m + countPositions(b), 0);
  return n;
}

/** Positions one run passes at most: every parallel branch, but only the longest option of a choice. */
export function pathPositions(shape: Shape): number {
  let n = 0;
  for (const s of shape) {
    if (s.kind === 'position') n += 1;
    else if (s.kind === 'parallel') n += s.branches.reduce((m, b) => m + pathPositions(b), 0);
    else n += Math.max(0, ...s.options.map(pathPositions));
  }
  return n;
}

/** Expected number of calls: the sum of supports (inner shapes weighted by the slot's support; a choice by its longest option). */
export function expectedPositions(shape: Shape): number {
  let n = 0;
  for (const s of shape) {
    if (s.kind === 'position') n += s.support;
    else if (s.kind === 'parallel') n += s.support * s.branches.reduce((m, b) => m + expectedPositions(b), 0);
    else n += s.support * Math.max(0, ...s.options.map(expectedPositions));
  }
  return n;
}
