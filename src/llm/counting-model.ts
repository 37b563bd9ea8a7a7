import { AsyncLocalStorage } from 'node:async_hooks';
import type { LanguageModel } from 'ai';
import { FlowScoutError } from '../errors/index.js';

/**
 * A model that sends nothing and counts (the cost projection's model, `search/project-cost.ts`):
 * the real LLM policy, judge and optimizer run on it unchanged, so what it counts are the requests
 * they build — system text, prompt and the answer's JSON schema, as a provider receives them.
 * Each request is answered with what the caller put in scope with `answeringWith` (the projection
 * answers with what the offline policy, the lexical judge and the rule-based optimizer decide, so a
 * run proceeds as it would with a model that decides alike). Tokens are estimated at TOKEN_CHARS
 * characters a token, the rule of thumb for English text and JSON that the test LLM server uses too.
 */

type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
type CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>;

/** Characters per token of the estimate. */
export const TOKEN_CHARS = 4;

/** Tokens of a text at TOKEN_CHARS characters a token. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / TOKEN_CHARS);

/** A request as the counting model saw it: the text a provider reads, in order, and the answer. */
export interface CountedRequest {
  /** Who asked, and about what (the scope's `role` and `group`). */
  role: string;
  group: string;
  /**
   * The answer's JSON schema (when JSON is asked for: OpenAI reads it before the system text), the
   * system text, then every message's text.
   */
  input: string;
  /** Characters of the system text and of the JSON schema (parts of `input`). */
  systemChars: number;
  schemaChars: number;
  output: string;
  inputTokens: number;
  outputTokens: number;
}

/** What a request is answered with: a text, or a function of the request's text. */
export type CountingAnswer = string | ((request: { system: string; prompt: string; json: boolean }) => string);

const scope = new AsyncLocalStorage<{ role: string; group: string; answer: CountingAnswer }>();

/**
 * Runs `fn` with the counting model answering every request it sends with `answer`, counted under
 * `role`; `group` names what the requests are about (a record, a proposal: see cachedPrefixTokens).
 */
export function answeringWith<T>(
  scoped: { role: string; group: string },
  answer: CountingAnswer,
  fn: () => Promise<T>,
): Promise<T> {
  return scope.run({ ...scoped, answer }, fn);
}

export interface CountingModel extends LanguageModelV3 {
  /** Every request answered so far, in order. */
  readonly requests: readonly CountedRequest[];
}

/** The texts of a model call a provider reads: the system text, the messages' text and the answer's JSON schema. */
export function readCall(options: CallOptions): { system: string; prompt: string; schema: string } {
  const system = options.prompt
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const prompt = options.prompt
    .filter((m) => m.role !== 'system')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : m.content.map((p) => (p.type === 'text' || p.type === 'reasoning' ? p.text : '')).join(''),
    )
    .join('\n\n');
  const format = options.responseFormat;
  const schema = format?.type === 'json' && format.schema ? JSON.stringify(format.schema) : '';
  return { system, prompt, schema };
}

/** A call's texts in the order a provider reads them (OpenAI reads the response format's schema first). */
export function requestInput(call: { system: string; prompt: string; schema: string }): string {
  return `${call.schema}${call.system}${call.prompt}`;
}

/** A counting model (see the module comment); `provider` and `modelId` are the model it stands for. */
export function createCountingModel(opts: { provider: string; modelId: string }): CountingModel {
  const requests: CountedRequest[] = [];
  const doGenerate = async (options: CallOptions): Promise<GenerateResult> => {
    const current = scope.getStore();
    if (!current) {
      throw new FlowScoutError({
        code: 'INTERNAL',
        message: 'the counting model was asked outside answeringWith(): it has no answer to give',
        hint: 'Send requests to the counting model inside answeringWith(role, answer, fn).',
      });
    }
    const { system, prompt, schema } = readCall(options);
    const json = options.responseFormat?.type === 'json';
    const text = typeof current.answer === 'string' ? current.answer : current.answer({ system, prompt, json });
    const input = requestInput({ system, prompt, schema });
    const counted: CountedRequest = {
      role: current.role,
      group: current.group,
      input,
      systemChars: system.length,
      schemaChars: schema.length,
      output: text,
      inputTokens: estimateTokens(input),
      outputTokens: Math.max(1, estimateTokens(text)),
    };
    requests.push(counted);
    return {
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: {
          total: counted.inputTokens,
          noCache: counted.inputTokens,
          cacheRead: undefined,
          cacheWrite: undefined,
        },
        outputTokens: { total: counted.outputTokens, text: counted.outputTokens, reasoning: undefined },
      },
      warnings: [],
    };
  };
  return {
    specificationVersion: 'v3',
    provider: opts.provider,
    modelId: opts.modelId,
    supportedUrls: {},
    requests,
    doGenerate,
    async doStream(): Promise<StreamResult> {
      throw new FlowScoutError({
        code: 'INTERNAL',
        message: 'the counting model answers generate requests only (FlowScout streams nothing)',
      });
    },
  };
}

/** The shortest prefix OpenAI's automatic prefix cache serves (tokens). */
export const CACHED_PREFIX_MIN_TOKENS = 1024;

/**
 * Input tokens of each request (in the order sent) that a provider's automatic prefix cache would
 * serve in a long run, by OpenAI's rule: the longest prefix the request shares with one sent before
 * it, from 1,024 tokens on, in steps of 128. A prefix it shares with a request about something else
 * (another record, another proposal) counts too, even when that one comes later in the sample: in
 * the run, requests about many other records precede each one. A prefix only requests of the same
 * group share (a record's own text) is served only to the ones after the first.
 */
export function cachedPrefixTokens(requests: readonly Pick<CountedRequest, 'input' | 'group'>[]): number[] {
  return requests.map((r, i) => {
    let shared = 0;
    for (let j = 0; j < requests.length; j++) {
      if (j === i || (j > i && requests[j]!.group === r.group)) continue;
      shared = Math.max(shared, commonPrefix(r.input, requests[j]!.input));
    }
    const t = Math.floor(shared / TOKEN_CHARS);
    return t >= CACHED_PREFIX_MIN_TOKENS
      ? CACHED_PREFIX_MIN_TOKENS + Math.floor((t - CACHED_PREFIX_MIN_TOKENS) / 128) * 128
      : 0;
  });
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
