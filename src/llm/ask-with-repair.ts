import { isFlowScoutError, type FlowScoutError } from '../errors/index.js';
import type { LlmClient, LlmObjectRequest } from './client.js';
import { isInvalidModelOutput } from './llm-errors.js';
import { addUsage, type Usage } from './usage.js';

/**
 * The ask-and-repair loop every structured model request uses (a JSON LLM node, a tool plan, the
 * optimizer's edit plan): ask for an object; when the answer cannot be parsed, or parses but fails
 * the caller's `check`, ask again with a repair prompt naming the problems, up to `rounds` requests
 * in all (default 2: one repair round). Usage is summed over every request.
 *
 * It returns instead of throwing for the two ways a request can fail that callers record: `invalid`
 * (still no valid answer after the last round) and `model-error` (the model call itself failed after
 * its retries, MODEL_ERROR). Anything else (cancellation, an exhausted budget) is thrown on.
 */
export interface AskWithRepairRequest<T> {
  /** The first request (schema, name, system, stablePrompt, prompt, signal). */
  request: LlmObjectRequest<unknown>;
  /** Checks a parsed answer: the value to return, or what is wrong with it (shown to the model). */
  check: (value: unknown, round: number) => { ok: true; value: T } | { ok: false; problems: string[] };
  /**
   * The next request after a round that failed: `text` is the raw answer (or the parsed value as
   * text when the model gave no text), `problems` what was wrong. Returns the changed request parts
   * (at least the prompt).
   */
  repair: (failed: {
    text: string;
    problems: readonly string[];
    round: number;
  }) => Partial<LlmObjectRequest<unknown>> & { prompt: string };
  /** How an unparsable answer's problem is phrased (default: as the client says it). */
  describeUnparsable?: (problem: string) => string;
  /** Requests at most (default 2). */
  rounds?: number;
}

/** Every answer the model gave, in order: the parsed value, or the raw text when it did not parse. */
type Answers = unknown[];

export type AskWithRepairResult<T> =
  | { kind: 'ok'; value: T; usage: Usage; model: string; round: number; answers: Answers }
  | { kind: 'invalid'; problems: string[]; usage: Usage | undefined; answers: Answers }
  | { kind: 'model-error'; error: FlowScoutError; usage: Usage | undefined; answers: Answers };

/** Runs the loop (see the module comment). */
export async function askWithRepair<T>(
  client: LlmClient,
  ask: AskWithRepairRequest<T>,
): Promise<AskWithRepairResult<T>> {
  const rounds = ask.rounds ?? 2;
  let request = ask.request;
  let usage: Usage | undefined;
  let problems: string[] = [];
  const answers: Answers = [];
  for (let round = 1; round <= rounds; round++) {
    let text: string;
    try {
      const r = await client.object(request);
      usage = addUsage(usage, r.usage);
      answers.push(r.value);
      const checked = ask.check(r.value, round);
      if (checked.ok) return { kind: 'ok', value: checked.value, usage, model: r.model, round, answers };
      problems = checked.problems;
      text = r.text || asText(r.value);
    } catch (e) {
      if (isInvalidModelOutput(e)) {
        usage = addUsage(usage, e.usage);
        answers.push(e.text);
        problems = [ask.describeUnparsable ? ask.describeUnparsable(e.problem) : e.problem];
        text = e.text;
      } else if (isFlowScoutError(e) && e.code === 'MODEL_ERROR') {
        return { kind: 'model-error', error: e, usage, answers };
      } else throw e;
    }
    if (round < rounds) request = { ...request, ...ask.repair({ text, problems, round }) };
  }
  return { kind: 'invalid', problems, usage, answers };
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
