import { z } from 'zod';

/**
 * The mined model: a process tree (Leemans et al.; PM4Py's `ProcessTree`). A discriminated union of
 * plain data, so a tree can be printed, stored in `workflow.meta` and parsed back. The zod schema is
 * the only source of the types.
 *
 * - `{op, children}`: `seq` (PM4Py `->`), `xor` (`X`), `and` (`+`, parallel), `loop` (`*`: first
 *   child is the do part, the others are redo parts);
 * - `{label}`: an activity (here: a tool name);
 * - `{tau: true}`: the silent step.
 */
export const PROCESS_TREE_OPERATORS = ['seq', 'xor', 'and', 'loop'] as const;
export type ProcessTreeOperator = (typeof PROCESS_TREE_OPERATORS)[number];

/** PM4Py's printed symbol of each operator (docs/DESIGN.md, "Matching PM4Py" §5). */
export const OPERATOR_SYMBOL: Record<ProcessTreeOperator, string> = { seq: '->', xor: 'X', and: '+', loop: '*' };

export const ProcessTreeLeafSchema = z.strictObject({ label: z.string() });
export const ProcessTreeTauSchema = z.strictObject({ tau: z.literal(true) });
export const ProcessTreeOperatorNodeSchema = z.strictObject({
  op: z.enum(PROCESS_TREE_OPERATORS),
  get children(): z.ZodArray<typeof ProcessTreeSchema> {
    return z.array(ProcessTreeSchema);
  },
});
export const ProcessTreeSchema = z.union([ProcessTreeOperatorNodeSchema, ProcessTreeLeafSchema, ProcessTreeTauSchema]);

export type ProcessTreeLeaf = z.infer<typeof ProcessTreeLeafSchema>;
export type ProcessTreeTau = z.infer<typeof ProcessTreeTauSchema>;
export type ProcessTreeOperatorNode = z.infer<typeof ProcessTreeOperatorNodeSchema>;
/** A process tree: an operator node over children, an activity leaf, or a silent step (tau). */
export type ProcessTree = z.infer<typeof ProcessTreeSchema>;

/** The silent step. */
export const TAU: ProcessTreeTau = Object.freeze({ tau: true as const });

/** Narrowing helpers, so callers never test for properties by hand. */
export function isOperatorNode(t: ProcessTree): t is ProcessTreeOperatorNode {
  return 'op' in t;
}
export function isLeaf(t: ProcessTree): t is ProcessTreeLeaf {
  return 'label' in t;
}
export function isTau(t: ProcessTree): t is ProcessTreeTau {
  return 'tau' in t;
}
