import type { ProcessTree } from '../process-tree/schema.js';
import { mergeAlternatives } from './align.js';
import { innerSkeletons, mergeSteps, type StepSlot, type Skeleton } from './slots.js';

export {
  innerSkeletons,
  mergeSteps,
  stepTools,
  skeletonTools,
  type ChoiceSlot,
  type ParallelSlot,
  type StepSlot,
  type Skeleton,
  type Slot,
} from './slots.js';

/**
 * The abstraction to steps (docs/DESIGN.md, "Mining"): a process tree over tool
 * names becomes a *skeleton*, a sequence of slots, before it becomes a workflow graph.
 *
 * - A `step` slot becomes one generic tool node. It remembers which tools the miner saw there
 *   (`tools`, with weights), how often the flows reach it (`support`, relative to the sequence it
 *   sits in: 1 = always), and whether it repeats (`many`).
 * - A `parallel` slot holds branches that run concurrently (an unguarded fan-out and join).
 *
 * Mapping (docs/DESIGN.md, "Mining"):
 * - activity → a step with that tool; tau → nothing (an empty sequence);
 * - sequence → the concatenation of the children's skeletons (ordered data edges later);
 * - exclusive choice between step sequences (two or more alternatives that are not τ, one of them
 *   more than one tool, like `X( ->(a,b), c )`) → a `choice` slot: each alternative stays an option
 *   of its own, and a τ alternative means a run may take none (G0 makes it a branch whose condition
 *   lists each option's tools, build-graph.ts);
 * - exclusive choice of single tools (and τ) → one step holding them all: the step picks its
 *   tool from the request; with τ it gets a lower support and may become optional. Alternatives
 *   merged step by step (`align.ts`) only where a repetition's redo parts are merged;
 * - parallel → a parallel slot (a branch that is empty is dropped; one branch left is inlined);
 * - loop / repetition / flower → the do part once, with its steps marked `many` (a DAG cannot
 *   loop; `calls: 'many'` lets a step repeat its call). Redo parts that are not tau follow as
 *   repeated steps with half the support.
 */
/**
 * The skeleton of a process tree; with `choices: false` every exclusive choice is merged step by
 * step. Iterative over operator nesting depth is not needed: trees are small.
 */
export function treeToSkeleton(tree: ProcessTree, opts: { choices?: boolean } = {}): Skeleton {
  const choices = opts.choices ?? true;
  const shapeOf = (t: ProcessTree) => treeToSkeleton(t, opts);
  if ('label' in tree) return [{ kind: 'step', tools: new Map([[tree.label, 1]]), support: 1, many: false }];
  if ('tau' in tree) return [];
  switch (tree.op) {
    case 'seq':
      return tree.children.flatMap(shapeOf);
    case 'xor': {
      const k = tree.children.length;
      const alternatives = tree.children.map(shapeOf);
      const taken = alternatives.filter((a) => a.length > 0);
      if (choices && taken.length >= 2 && taken.some((a) => a.length > 1 || a[0]!.kind !== 'step'))
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
      // `*( a, b )`: a single do and a single redo step are one repeated step.
      if (shape.length === 1 && redo.length === 1 && shape[0]!.kind === 'step' && redo[0]!.kind === 'step') {
        return [mergeSteps(shape[0] as StepSlot, redo[0] as StepSlot, 1)];
      }
      return [...shape, ...redo];
    }
  }
}

/** Multiplies every top-level support by `factor` (a slot's inner skeletons are relative to it). */
export function scale(shape: Skeleton, factor: number): Skeleton {
  return shape.map((s) =>
    s.kind === 'step'
      ? { ...s, tools: new Map([...s.tools].map(([t, w]) => [t, w * factor])), support: s.support * factor }
      : { ...s, support: s.support * factor },
  );
}

/** Marks every step (also inside parallel branches) as repeating. */
function repeated(shape: Skeleton): Skeleton {
  return shape.map((s) =>
    s.kind === 'step'
      ? { ...s, many: true }
      : s.kind === 'parallel'
        ? { ...s, branches: s.branches.map(repeated) }
        : { ...s, options: s.options.map(repeated) },
  );
}

/** Number of steps, counting every parallel branch and every option of a choice (the tool nodes G0 gets). */
export function countSteps(shape: Skeleton): number {
  let n = 0;
  for (const s of shape) n += s.kind === 'step' ? 1 : innerSkeletons(s).reduce((m, b) => m + countSteps(b), 0);
  return n;
}

/** Steps one run passes at most: every parallel branch, but only the longest option of a choice. */
export function pathSteps(shape: Skeleton): number {
  let n = 0;
  for (const s of shape) {
    if (s.kind === 'step') n += 1;
    else if (s.kind === 'parallel') n += s.branches.reduce((m, b) => m + pathSteps(b), 0);
    else n += Math.max(0, ...s.options.map(pathSteps));
  }
  return n;
}

/** Expected number of calls: the sum of supports (inner skeletons weighted by the slot's support; a choice by its longest option). */
export function expectedSteps(shape: Skeleton): number {
  let n = 0;
  for (const s of shape) {
    if (s.kind === 'step') n += s.support;
    else if (s.kind === 'parallel') n += s.support * s.branches.reduce((m, b) => m + expectedSteps(b), 0);
    else n += s.support * Math.max(0, ...s.options.map(expectedSteps));
  }
  return n;
}
