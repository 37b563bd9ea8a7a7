/**
 * The slots a skeleton is made of (see skeleton.ts for what they mean) and the two operations on them that
 * both the tree mapping (skeleton.ts) and the alignment of alternatives (align.ts) use, and `innerSkeletons`.
 */
export interface StepSlot {
  kind: 'step';
  /** Tool name → weight (how much of the flow uses it here). */
  tools: Map<string, number>;
  /** In [0, 1]: how much of the enclosing sequence's flow reaches this step. */
  support: number;
  many: boolean;
}

export interface ParallelSlot {
  kind: 'parallel';
  branches: Skeleton[];
  support: number;
}

/**
 * An exclusive choice between step sequences (an XOR of the tree whose alternatives are not all single
 * tools): each run takes one option, or none when `none` (a τ alternative).
 */
export interface ChoiceSlot {
  kind: 'choice';
  options: Skeleton[];
  /** Per option, the share of the runs reaching the choice that take it (its inner supports are relative to those runs). */
  shares: number[];
  /** Some runs take no option (the XOR has a τ alternative, or runs passed it by). */
  none: boolean;
  support: number;
}

export type Slot = StepSlot | ParallelSlot | ChoiceSlot;
export type Skeleton = Slot[];

/** One step holding the tools of both; `support` given, or the capped sum. */
export function mergeSteps(a: StepSlot, b: StepSlot, support?: number): StepSlot {
  const tools = new Map(a.tools);
  for (const [t, w] of b.tools) tools.set(t, (tools.get(t) ?? 0) + w);
  return { kind: 'step', tools, support: support ?? Math.min(1, a.support + b.support), many: a.many || b.many };
}

/** Every tool name in a skeleton. */
export function skeletonTools(shape: Skeleton): Set<string> {
  const out = new Set<string>();
  for (const s of shape) {
    if (s.kind === 'step') for (const t of s.tools.keys()) out.add(t);
    else for (const b of innerSkeletons(s)) for (const t of skeletonTools(b)) out.add(t);
  }
  return out;
}

/** The skeletons inside a slot: a parallel slot's branches, a choice's options, none for a step. */
export function innerSkeletons(slot: Slot): Skeleton[] {
  return slot.kind === 'parallel' ? slot.branches : slot.kind === 'choice' ? slot.options : [];
}

/** A step's tools, most used first (ties in code-unit order of their names). */
export function stepTools(p: StepSlot): string[] {
  return [...p.tools].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([t]) => t);
}
