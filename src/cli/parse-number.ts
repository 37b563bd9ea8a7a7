import { FlowScoutError } from '../errors/index.js';

/**
 * A flag's value as a whole number ≥ `min`, or INVALID_INPUT naming the flag, the rule, what was
 * given and an example (`For example <flag> <example>`, by default the larger of `min` and 3). The
 * commands' counts (iterations, runs, seeds, concurrency, budgets) all go through here.
 */
export function wholeNumber(text: string, flag: string, min: number, example = Math.max(min, 3)): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${flag} must be a whole number ≥ ${min}, got '${text}'`,
      hint: `For example ${flag} ${example}.`,
    });
  }
  return n;
}
