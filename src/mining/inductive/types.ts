import type { ProcessTree, ProcessTreeOperator } from '../process-tree/schema.js';
import type { Dfg } from './dfg.js';
import type { MiningContext, SubLog } from './sublog.js';

/**
 * The contracts of the inductive miner's three families, laid out as PM4Py lays out an algorithm
 * family: as a contract, an ordered list of members, and one file per member). One recursion step is
 * base case → cut → fall-through (docs/DESIGN.md, "Matching PM4Py" §1); each member either declines (null) or decides.
 */

/** What a step decided: a finished leaf, or an operator whose children are mined from sublogs. */
export type StepResult =
  { kind: 'leaf'; tree: ProcessTree } | { kind: 'split'; operator: ProcessTreeOperator; children: SubLog[] };

/** A base case (docs/DESIGN.md, "Matching PM4Py" §1.2): recognises a log that needs no further splitting. */
export interface BaseCase {
  readonly name: string;
  apply(log: SubLog, ctx: MiningContext): ProcessTree | null;
}

/**
 * A cut (docs/DESIGN.md, "Matching PM4Py" §2): `holds` partitions the vertices of a DFG into groups (local indices) or
 * declines; `project` splits the log along those groups, one sublog per group, in group order.
 * The DFG passed to `project` is the one `holds` saw (IMf may pass its filtered DFG).
 */
export interface Cut {
  readonly name: 'xor' | 'sequence' | 'concurrency' | 'loop';
  readonly operator: ProcessTreeOperator;
  holds(dfg: Dfg): number[][] | null;
  project(log: SubLog, dfg: Dfg, groups: number[][]): SubLog[];
}

/** A fall-through (docs/DESIGN.md, "Matching PM4Py" §3): a last resort when no cut applies; never fails as a family. */
export interface FallThrough {
  readonly name: string;
  apply(log: SubLog, dfg: Dfg, ctx: MiningContext): Extract<StepResult, { kind: 'split' }> | null;
}

/** Marks, per global activity id, the group index of each vertex (-1: in no group). */
export function groupIndex(dfg: Dfg, groups: number[][]): Int32Array {
  const of = new Int32Array(dfg.local.length).fill(-1);
  groups.forEach((g, i) => {
    for (const l of g) of[dfg.acts[l]!] = i;
  });
  return of;
}
