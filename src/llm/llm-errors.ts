import { FlowScoutError } from '../errors/index.js';
import type { Usage } from './usage.js';

/**
 * A model answered, but not with what was asked (unparsable JSON, an object that does not fit the
 * schema, a tool call instead of content). Distinct from transport failures because callers react
 * differently: the LLM policy sends the problem back in a repair round, the judge retries once.
 * The tokens the bad answer cost are on `usage` so callers still account for them.
 */
export class InvalidModelOutputError extends FlowScoutError {
  /** The raw text the model returned (may be empty). */
  readonly text: string;
  /** What was wrong with it, phrased for the model to read in a repair prompt. */
  readonly problem: string;
  readonly usage: Usage;

  constructor(opts: { spec: string; text: string; problem: string; usage: Usage }) {
    super({
      code: 'MODEL_ERROR',
      message: `model '${opts.spec}' returned unusable output: ${opts.problem}`,
      hint: 'The output is recorded as an error; a stronger model or a clearer prompt usually fixes this.',
      details: { spec: opts.spec, problem: opts.problem, text: opts.text.slice(0, 500) },
    });
    this.text = opts.text;
    this.problem = opts.problem;
    this.usage = opts.usage;
  }
}

/** True for InvalidModelOutputError (also across module copies). */
export function isInvalidModelOutput(e: unknown): e is InvalidModelOutputError {
  return (
    e instanceof InvalidModelOutputError ||
    (e instanceof Error && typeof (e as { problem?: unknown }).problem === 'string' && 'usage' in e)
  );
}
