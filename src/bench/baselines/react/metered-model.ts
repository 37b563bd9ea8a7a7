import { wrapLanguageModel, type LanguageModelMiddleware } from 'ai';
import { FlowScoutError } from '../../../errors/index.js';
import { createModelRequester, emptyCounters, type RequestOptions } from '../../../llm/model-request.js';
import { createRateLimiter } from '../../../llm/rate-limiter.js';
import type { ResolvedModel } from '../../../llm/resolve-model.js';
import type { Usage } from '../../../llm/usage.js';

/**
 * A model for the AI SDK's own tool loop (the ReAct baseline's `generateText({tools, stopWhen})`)
 * whose every request is sent the way FlowScout's LLM client sends one — through the same
 * `src/llm/model-request.ts`: the run's shared rate limiter and budget (a request is reserved before
 * it is sent, tokens and cost charged when it returns), a per-request timeout, the client's retry
 * policy (429 / 5xx / timeouts / network errors with backoff and the server's Retry-After; the SDK's
 * retries are off), MODEL_ERROR when retries run out, and usage counted per request. It is a
 * middleware around the provider model, so the loop itself stays the SDK's.
 */

type WrapGenerateOptions = Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0];
/** The provider-level model (`LanguageModelV3`), named through the `ai` package's own types. */
type ProviderModel = WrapGenerateOptions['model'];

/** The request rules of the metered model: the LLM client's (limiter, budget, prices, timeout, retries, log). */
export type MeterOptions = RequestOptions;

export interface MeteredModel {
  model: ProviderModel;
  /** Requests sent (retries included), tokens and cost so far. */
  usage(): Usage;
}

/** Wraps a resolved model (see the module comment). MODEL_CONFIG when the spec has no model (offline). */
export function meteredModel(resolved: ResolvedModel, opts: MeterOptions = {}): MeteredModel {
  const inner = resolved.model;
  if (!inner || typeof inner === 'string' || inner.specificationVersion !== 'v3') {
    throw new FlowScoutError({
      code: 'MODEL_CONFIG',
      message: `'${resolved.spec}' is not a language model the ReAct tool loop can call`,
      hint: 'Name a model such as openai:gpt-4o-mini; offline runs use the offline ReAct baseline.',
    });
  }
  const counters = emptyCounters();
  const requester = createModelRequester(
    resolved,
    { ...opts, limiter: opts.limiter ?? createRateLimiter({ concurrency: 4 }) },
    counters,
  );
  const model = wrapLanguageModel({
    model: inner,
    middleware: {
      specificationVersion: 'v3',
      wrapGenerate: async ({ params, model: m }) => {
        const { response } = await requester.send(async (signal) => m.doGenerate({ ...params, abortSignal: signal }), {
          ...(params.abortSignal ? { signal: params.abortSignal } : {}),
          tokens: (r) => ({
            inputTokens: r.usage.inputTokens.total ?? 0,
            outputTokens: r.usage.outputTokens.total ?? 0,
            cachedInputTokens: r.usage.inputTokens.cacheRead ?? 0,
            cacheWriteTokens: r.usage.inputTokens.cacheWrite ?? 0,
          }),
        });
        return response;
      },
    },
  });
  return {
    model,
    usage: () => ({
      llmCalls: counters.requests,
      inputTokens: counters.inputTokens,
      outputTokens: counters.outputTokens,
      costUsd: counters.costUsd,
      ...(counters.cachedInputTokens > 0 ? { cachedInputTokens: counters.cachedInputTokens } : {}),
    }),
  };
}
