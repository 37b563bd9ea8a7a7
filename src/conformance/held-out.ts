import { createHash } from 'node:crypto';
import type { Workflow } from '../graph/schema.js';
import type { ObservedRun } from './observed-runs.js';
import type { HeldOutPart } from './profile.js';

/**
 * The held-out part of a profile when there is no validation split (`mine --format workflow`):
 * the input's runs in `HELD_OUT_FOLDS` parts by group (the records of one task or API chain stay
 * together, so a part's tasks are tasks its workflow never saw), each part measured against a
 * workflow learned from the other parts. The workflow written is still learned from every run;
 * the parts only say how runs it was not learned from fit a workflow learned this way, which is
 * what new runs of the same process should look like (docs/guides/conformance.md, "drift").
 */

/** Parts of the input, when there are enough groups (each part then holds at least one). */
export const HELD_OUT_FOLDS = 5;
/** Fewer runs than this give no held-out part: a profile then has only its learning runs. */
export const MIN_HELD_OUT_RUNS = 10;

/** Each item's part (0 … folds − 1), fixed by a hash of its group: the same input always splits the same way. */
export function foldOf(group: string, folds: number): number {
  return createHash('sha256').update(group).digest().readUInt32BE(0) % folds;
}

export interface CrossFoldOptions<T> {
  /** The group an item belongs to (a record's `group`, else its id). */
  groupOf: (item: T) => string;
  runOf: (item: T) => ObservedRun;
  /** Learns a workflow from some of the items, as the command learns from all of them. */
  learn: (items: T[]) => Workflow;
  folds?: number;
}

/** The held-out parts of `items` (see the module comment); empty when there are too few runs or groups. */
export function crossFoldParts<T>(items: readonly T[], opts: CrossFoldOptions<T>): HeldOutPart[] {
  if (items.length < MIN_HELD_OUT_RUNS) return [];
  const groups = [...new Set(items.map(opts.groupOf))];
  const folds = Math.min(opts.folds ?? HELD_OUT_FOLDS, groups.length);
  if (folds < 2) return [];
  // Groups in the order of their hashes, dealt round-robin: every part gets groups even when a hash
  // modulo the number of parts would leave one empty.
  const order = groups.map((g) => ({ g, h: foldOf(g, 2 ** 31) })).sort((a, b) => a.h - b.h || a.g.localeCompare(b.g));
  const partOf = new Map(order.map((x, i) => [x.g, i % folds]));
  const parts: HeldOutPart[] = [];
  for (let f = 0; f < folds; f++) {
    const learned = items.filter((x) => partOf.get(opts.groupOf(x)) !== f);
    const held = items.filter((x) => partOf.get(opts.groupOf(x)) === f);
    if (learned.length === 0 || held.length === 0) continue;
    parts.push({ workflow: opts.learn(learned), learned: learned.map(opts.runOf), heldOut: held.map(opts.runOf) });
  }
  return parts;
}
