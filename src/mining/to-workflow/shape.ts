import type { ProcessTree } from '../process-tree/schema.js';
import { mergeAlternatives } from './align.js';
import { mergePositions, type PositionSlot, type Shape } from './slots.js';

export { mergePositions, shapeTools, type ParallelSlot, type PositionSlot, type Shape, type Slot } from './slots.js';

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
 * - exclusive choice → the alternatives' shapes merged position by position (`align.ts`): a choice
 *   of plain activities is one position with all of them; `X( ->(a,b), ->(c,d) )` is two positions;
 *   a position only some alternatives have gets a lower support and may become optional;
 * - parallel → a parallel slot (a branch that is empty is dropped; one branch left is inlined);
 * - loop / repetition / flower → the do part once, with its positions marked `many` (a DAG cannot
 *   loop; `calls: 'many'` lets a position repeat its call). Redo parts that are not tau follow as
 *   repeated positions with half the support.
 */
/** The shape of a process tree. Iterative over operator nesting depth is not needed: trees are small. */
export function treeToShape(tree: ProcessTree): Shape {
  if ('label' in tree) return [{ kind: 'position', tools: new Map([[tree.label, 1]]), support: 1, many: false }];
  if ('tau' in tree) return [];
  switch (tree.op) {
    case 'seq':
      return tree.children.flatMap(treeToShape);
    case 'xor': {
      const k = tree.children.length;
      return mergeAlternatives(tree.children.map((c) => scale(treeToShape(c), 1 / k)));
    }
    case 'and': {
      const branches = tree.children.map(treeToShape).filter((b) => b.length > 0);
      if (branches.length === 0) return [];
      if (branches.length === 1) return branches[0]!;
      return [{ kind: 'parallel', branches, support: 1 }];
    }
    case 'loop': {
      const [body, ...redos] = tree.children;
      const shape = repeated(treeToShape(body!));
      const redoShapes = redos.map(treeToShape).filter((s) => s.length > 0);
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
    s.kind === 'position' ? { ...s, many: true } : { ...s, branches: s.branches.map(repeated) },
  );
}

/** Number of positions, counting every parallel branch. */
export function countPositions(shape: Shape): number {
  let n = 0;
  for (const s of shape) n += s.kind === 'position' ? 1 : s.branches.reduce((m, b) => m + countPositions(b), 0);
  return n;
}

/** Expected number of calls: the sum of supports (parallel branches weighted by the slot's support). */
export function expectedPositions(shape: Shape): number {
  let n = 0;
  for (const s of shape)
    n += s.kind === 'position' ? s.support : s.support * s.branches.reduce((m, b) => m + expectedPositions(b), 0);
  return n;
}
