import type { Command, OptionValues } from '@commander-js/extra-typings';
import { FlowScoutError } from '../errors/index.js';
import { DEFAULT_BREAKER_THRESHOLD } from '../llm/circuit-breaker.js';
import { DEFAULT_MODEL_TIMEOUT_MS } from '../llm/model-request.js';
import type { FlagsOf } from './commands/register.js';
import type { CliIO } from './output.js';
import { wholeNumberArg } from './parse-number.js';

/**
 * The flags every command that calls models shares: the per-request timeout (`--model-timeout`,
 * seconds) and, for the long-running ones, the circuit breaker (`--breaker`). Retries and failures
 * of model requests are printed on stderr as they happen, so waiting is never silent.
 */
/** Adds `--model-timeout` (seconds, parsed to milliseconds) to `cmd`. */
export function addModelFlags<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd.option(
    '--model-timeout <seconds>',
    `per-request timeout of model calls (default ${DEFAULT_MODEL_TIMEOUT_MS / 1000}); each attempt waits at most this long`,
    parseModelTimeout,
  );
}

/** Adds `--breaker` (the long-running commands) to `cmd`. */
export function addBreakerFlag<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd.option(
    '--breaker <n>',
    `stop when this many model calls in a row fail the same way (default ${DEFAULT_BREAKER_THRESHOLD}; 0 = never)`,
    wholeNumberArg('--breaker', 0, DEFAULT_BREAKER_THRESHOLD),
  );
}

/**
 * The model flags as an action receives them, typed from their declarations: `--model-timeout` in
 * ms, and `--breaker` a count where the command has it.
 */
export type ModelFlags = FlagsOf<typeof addModelFlags<[], {}, {}>> &
  Partial<FlagsOf<typeof addBreakerFlag<[], {}, {}>>>;

/** `--model-timeout` in milliseconds, or INVALID_INPUT. */
function parseModelTimeout(text: string): number {
  const s = Number(text);
  if (!Number.isFinite(s) || s <= 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--model-timeout must be a positive number of seconds, got '${text}'`,
      hint: 'For example --model-timeout 20.',
    });
  }
  return Math.round(s * 1000);
}

/** The options of model calls from the flags: timeout in ms, breaker threshold, and stderr for retry lines. */
export function modelCallOptions(
  flags: ModelFlags,
  io: CliIO,
): { timeoutMs?: number; breakerThreshold?: number; log: (line: string) => void } {
  return {
    log: (line) => io.err(line),
    ...(flags.modelTimeout !== undefined ? { timeoutMs: flags.modelTimeout } : {}),
    ...(flags.breaker !== undefined ? { breakerThreshold: flags.breaker } : {}),
  };
}
