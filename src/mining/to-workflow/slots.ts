/**
 * The slots a shape is made of (see shape.ts for what they mean) and the two operations on them that
 * both the tree mapping (shape.ts) and the alignment of alternatives (align.ts) use, and `innerShapes`.
 */
export interface PositionSlot {
  kind: 'position';
  /** Tool name → weight (how much of the flow uses it here). */
  tools: Map<string, number>;
  /** In [0, 1]: how much of the enclosing sequence's flow reaches this position. */
  support: number;
  many: boolean;
}

export interface ParallelSlot {
  kind: 'parallel';
  branches: Shape[];
  support: number;
}

/**
 * An exclusive choice between step sequences (an XOR of the tree whose alternatives are not all single
 * tools): each run takes one option, or none when `none` (a τ alternative).
 */
export interface ChoiceSlot {
  kind: 'choice';
  options: Shape[];
  /** Per option, the share of the runs reaching the choice that take it (its inner supports are relative to those runs). */
  shares: number[];
  /** Some runs take no option (the XOR has a τ alternative, or runs passed it by). */
  none: boolean;
  support: number;
}

export type Slot = PositionSlot | ParallelSlot | ChoiceSlot;
export type Shape = Slot[];

/** One position holding the tools of both; `support` given, or the capped sum. */
export function mergePositions(a: PositionSlot, b: PositionSlot, support?: number): PositionSlot {
  const tools = new Map(a.tools);
  for (const [t, w] of b.tools) tools.set(t, (tools.get(t) ?? 0) + w);
  return { kind: 'position', tools, support: support ?? Math.min(1, a.support + b.support), many: a.many || b.many };
}

/** Every tool name in a shape. */
export function shapeTools(shape: Shape): Set<string> {
  const out = new Set<string>();
  for (const s of shape) {
    if (s.kind === 'position') for (const t of s.tools.keys()) out.add(t);
    else for (const b of innerShapes(s)) for (const t of shapeTools(b)) out.add(t);
  }
  return out;
}

/** The shapes inside a slot: a parallel slot's branches, a choice's options, none for a position. */
export function innerShapes(slot: Slot): Shape[] {
  return slot.kind === 'parallel' ? slot.branches : slot.kind === 'choice' ? slot.options : [];
}

/** A position's tools, most used first (ties in code-unit order of their names). */
export function positionTools(p: PositionSlot): string[] {
  return [...p.tools].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([t]) => t);
}
