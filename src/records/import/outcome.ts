import { z } from 'zod';

/**
 * A run's outcome, when its log says one: a benchmark's `reward`, a `success` flag, a `status`.
 * Import keeps it in each record's `meta.outcome`, so conformance and drift can tell failed runs
 * from successful ones (and say how well a score separates them) without the log at hand.
 *
 * Read from the run's own top-level fields, the first found of:
 *
 * | field | successful when |
 * | --- | --- |
 * | `reward` (a number) | it is 1 or more: full reward, as tau-bench counts a task passed; partial credit is a failure |
 * | `success`, `succeeded`, `passed`, `resolved`, `win` (true / false) | true |
 * | `status`, `outcome`, `result` (a word) | success, succeeded, successful, ok, passed, pass, resolved, completed, done; failure, failed, fail, error, errored, unresolved, incomplete, timeout, aborted are failures; other words give no outcome |
 */

export const RunOutcomeSchema = z.strictObject({
  success: z.boolean(),
  /** The field it was read from. */
  field: z.string(),
  /** Its value as the log has it. */
  value: z.union([z.string(), z.number(), z.boolean()]),
});

export type RunOutcome = z.infer<typeof RunOutcomeSchema>;

const FLAG_FIELDS = ['success', 'succeeded', 'passed', 'resolved', 'win'] as const;
const STATUS_FIELDS = ['status', 'outcome', 'result'] as const;
const SUCCESS_WORDS = new Set([
  'success',
  'succeeded',
  'successful',
  'ok',
  'passed',
  'pass',
  'resolved',
  'completed',
  'done',
]);
const FAILURE_WORDS = new Set([
  'failure',
  'failed',
  'fail',
  'error',
  'errored',
  'unresolved',
  'incomplete',
  'timeout',
  'aborted',
]);

/** The outcome a run item states (see the module comment), or undefined. */
export function outcomeOf(run: unknown): RunOutcome | undefined {
  if (typeof run !== 'object' || run === null || Array.isArray(run)) return undefined;
  const o = run as Record<string, unknown>;
  const reward = o.reward;
  if (typeof reward === 'number' && Number.isFinite(reward))
    return { success: reward >= 1, field: 'reward', value: reward };
  for (const field of FLAG_FIELDS) {
    const v = o[field];
    if (typeof v === 'boolean') return { success: v, field, value: v };
  }
  for (const field of STATUS_FIELDS) {
    const v = o[field];
    if (typeof v !== 'string') continue;
    const word = v.trim().toLowerCase();
    if (SUCCESS_WORDS.has(word)) return { success: true, field, value: v };
    if (FAILURE_WORDS.has(word)) return { success: false, field, value: v };
  }
  return undefined;
}

/** The outcome import kept in a record's `meta.outcome`, if it is one. */
export function recordOutcome(meta: Record<string, unknown> | undefined): RunOutcome | undefined {
  const parsed = RunOutcomeSchema.safeParse(meta?.outcome);
  return parsed.success ? parsed.data : undefined;
}
