import type { Command } from 'commander';
import { FlowScoutError } from '../errors/index.js';
import { DEFAULT_BREAKER_THRESHOLD } from '../llm/circuit-breaker.js';
import { DEFAULT_MODEL_TIMEOUT_MS } from '../llm/model-request.js';
import type { CliIO } from './output.js';
import { wholeNumber } from './parse-number.js';

/**
 * The flags every command that calls models shares: the per-request timeout (`--model-timeout`,
 * seconds) and, for the long-running ones, the circuit breaker (`--breaker`). Retries and failures
 * of model requests are printed on stderr as they happen, so waiting is never silent.
 */
export interface ModelFlags {
  modelTimeout?: string;
  breaker?: string;
}

/** Adds `--model-timeout` (and `--breaker` when `breaker`) to `cmd`. */
export function addModelFlags(cmd: Command, opts: { breaker?: boolean } = {}): Command {
  cmd.option(
    '--model-timeout <seconds>',
    `per-request timeout of model calls (default ${DEFAULT_MODEL_TIMEOUT_MS / 1000}); each attempt waits at most this long`,
  );
  if (opts.breaker)
    cmd.option(
      '--breaker <n>',
      `stop when this many model calls in a row fail the same way (default ${DEFAULT_BREAKER_THRESHOLD}; 0 = never)`,
    );
  return cmd;
}

/** The options of model calls from the flags: timeout in ms, breaker threshold, and stderr for retry lines. */
export function modelCallOptions(
  flags: ModelFlags,
  io: CliIO,
): { timeoutMs?: number; breakerThreshold?: number; log: (line: string) => void } {
  const out: { timeoutMs?: number; breakerThreshold?: number; log: (line: string) => void } = {
    log: (line) => io.err(line),
  };
  if (flags.modelTimeout !== undefined) {
    const s = Number(flags.modelTimeout);
    if (!Number.isFinite(s) || s <= 0) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `--model-timeout must be a positive number of seconds, got '${flags.modelTimeout}'`,
        hint: 'For example --model-timeout 20.',
      });
    }
    out.timeoutMs = Math.round(s * 1000);
  }
  if (flags.breaker !== undefined)
    out.breakerThreshold = wholeNumber(flags.breaker, '--breaker', 0, DEFAULT_BREAKER_THRESHOLD);
  return out;
}
