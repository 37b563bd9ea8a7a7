import { z } from 'zod';

/**
 * A historical task-solving record (q, r, π) (docs/DESIGN.md, "Records"): the native JSONL format, one record a line.
 * The zod schema is the only source of the types.
 */

/** One call of the validated tool-call log π, in execution order. */
export const CallSchema = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  /** The recorded response (kept raw: often a Python-literal string, sometimes truncated). */
  output: z.unknown().optional(),
  status: z.enum(['ok', 'error']).optional(),
});

/** One record (q, r, π) of D: a query, its reference answer and the validated tool-call log. */
export const RecordSchema = z.strictObject({
  id: z.string().min(1),
  query: z.string().min(1),
  /** The reference final answer r. */
  reference: z.string(),
  calls: z.array(CallSchema),
  domain: z.string().optional(),
  /** What the record belongs to for grouped splits, e.g. the API chain it was generated from. */
  group: z.string().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** One call of π (see `CallSchema`). */
export type Call = z.infer<typeof CallSchema>;
/** One record of D (see `RecordSchema`). */
export type TaskRecord = z.infer<typeof RecordSchema>;
/** A call as TC compares it: tool and arguments only. */
export type CallKey = Pick<Call, 'tool' | 'args'>;
