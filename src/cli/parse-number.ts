import { FlowScoutError } from '../errors/index.js';

/**
 * Flag values that must be numbers or one of a few words, each refused with INVALID_INPUT naming the
 * flag, the rule, what was given and an example.
 */

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

/** A flag's value as one of `options`, or INVALID_INPUT naming the flag, the options and an example. */
export function oneOf<T extends string>(value: string, options: readonly T[], flag: string): T {
  if ((options as readonly string[]).includes(value)) return value as T;
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `${flag} must be one of ${options.join(', ')}, got '${value}'`,
    hint: `For example ${flag} ${options[0]}.`,
  });
}

/** A flag's value as a number ≥ 0 (fractions allowed), or INVALID_INPUT naming the flag and an example. */
export function nonNegativeNumber(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0)
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${flag} must be a number ≥ 0, got '${text}'`,
      hint: `For example ${flag} 2.5.`,
    });
  return n;
}

/**
 * The same rules as commander argument parsers, so a flag's declaration says how its value is read:
 * `.option('--runs <n>', '…', wholeNumberArg('--runs', 1))` gives a number or the error above.
 */
export const wholeNumberArg =
  (flag: string, min: number, example?: number) =>
  (text: string): number =>
    wholeNumber(text, flag, min, example);

/** `oneOf` as a commander argument parser. */
export const oneOfArg =
  <T extends string>(options: readonly T[], flag: string) =>
  (value: string): T =>
    oneOf(value, options, flag);

/** `nonNegativeNumber` as a commander argument parser. */
export const nonNegativeArg =
  (flag: string) =>
  (text: string): number =>
    nonNegativeNumber(text, flag);
