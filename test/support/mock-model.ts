import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

/**
 * Unit-test support: a model at the AI SDK's contract (`MockLanguageModelV3` from `ai/test`), for
 * tests of code that takes an `LlmClient`. Replies are scripted as a queue or as a function of the
 * structured call (its response format, its messages); tests assert on `model.doGenerateCalls`, the
 * structured requests the code sent. End-to-end paths (HTTP faults, Retry-After, provider
 * resolution) stay on the HTTP test server (`llm-server.ts`).
 */

export type MockCall = MockLanguageModelV3['doGenerateCalls'][number];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/** One scripted answer: text, a JSON value (sent as its text), native tool calls, or an HTTP-like failure. */
export type MockReply =
  | { text: string; logprobs?: unknown[] }
  | { json: unknown }
  | { toolCalls: Array<{ name: string; arguments: unknown }> }
  | { fail: number };

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function toResult(reply: MockReply, provider: string): GenerateResult {
  if ('fail' in reply) {
    throw new APICallError({
      message: `HTTP ${reply.fail}`,
      url: 'mock://model',
      requestBodyValues: {},
      statusCode: reply.fail,
      isRetryable: reply.fail === 429 || reply.fail >= 500,
    });
  }
  if ('toolCalls' in reply) {
    return {
      content: reply.toolCalls.map((c, i) => ({
        type: 'tool-call' as const,
        toolCallId: `call-${i}`,
        toolName: c.name,
        input: JSON.stringify(c.arguments),
      })),
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: USAGE,
      warnings: [],
    };
  }
  const text = 'json' in reply ? JSON.stringify(reply.json) : reply.text;
  const logprobs =
    'logprobs' in reply && reply.logprobs
      ? { providerMetadata: { [provider.split('.')[0]!]: { logprobs: reply.logprobs } } }
      : {};
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: USAGE,
    warnings: [],
    ...logprobs,
  } as GenerateResult;
}

/**
 * A mock model answering from `script`: a queue (one reply per request, in order; running out is an
 * error) or a function of the call. `provider` sets the provider id the client derives its options
 * from (e.g. 'openai.chat' for a model that supports log-probabilities).
 */
export function mockModel(
  script: MockReply[] | ((call: MockCall, index: number) => MockReply),
  options: { provider?: string; modelId?: string } = {},
): MockLanguageModelV3 {
  const provider = options.provider ?? 'mock-provider';
  let n = 0;
  return new MockLanguageModelV3({
    provider,
    modelId: options.modelId ?? 'mock-model',
    doGenerate: async (call) => {
      const i = n++;
      const reply = typeof script === 'function' ? script(call, i) : script[i];
      if (!reply) throw new Error(`mock model: no scripted reply for request ${i + 1}`);
      return toResult(reply, provider);
    },
  });
}

/** The text of a call's user messages (the prompt the code built), joined by newlines. */
export function userText(call: MockCall): string {
  return call.prompt
    .filter((m) => m.role === 'user')
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .map((p) => ('text' in p ? p.text : ''))
    .join('\n');
}

/** The roles of a call's messages, in order. */
export const roles = (call: MockCall): string[] => call.prompt.map((m) => m.role);
