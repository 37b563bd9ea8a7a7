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

/**
 * One turn of a multi-turn dialogue, in order: what the user said, what the assistant said and the
 * calls it made in that turn, or a tool's result. Kept so nothing of the dialogue is lost; `query`,
 * `reference` and `calls` are what search and scoring read.
 */
export const TurnSchema = z.strictObject({
  role: z.enum(['user', 'assistant', 'tool']),
  text: z.string().optional(),
  /** The calls an assistant turn made (tool and arguments). */
  calls: z
    .array(z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) }))
    .optional(),
  /** A tool turn: which tool answered, its output and whether the call failed. */
  tool: z.string().optional(),
  output: z.unknown().optional(),
  status: z.enum(['ok', 'error']).optional(),
});

/** One record (q, r, π) of D: a query, its reference answer and the validated tool-call log. */
export const RecordSchema = z.strictObject({
  id: z.string().min(1),
  query: z.string().min(1),
  /**
   * The reference final answer r; '' (or absent) when the run has none, e.g. it ended in a tool call
   * such as a hand-off: ES is then not scored on the record, TC is.
   */
  reference: z.string().default(''),
  calls: z.array(CallSchema),
  /** The dialogue turn by turn, when it had more than one user turn or calls left out of `calls`. */
  turns: z.array(TurnSchema).optional(),
  domain: z.string().optional(),
  /** What the record belongs to for grouped splits, e.g. the API chain it was generated from. */
  group: z.string().optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

/** One call of π (see `CallSchema`). */
export type Call = z.infer<typeof CallSchema>;
/** One record of D (see `RecordSchema`). */
export type TaskRecord = z.infer<typeof RecordSchema>;
/** One turn of a dialogue (see `TurnSchema`). */
export type Turn = z.infer<typeof TurnSchema>;
/** A call as TC compares it: tool and arguments only. */
export type CallKey = Pick<Call, 'tool' | 'args'>;
