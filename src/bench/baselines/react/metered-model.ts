import { wrapLanguageModel, type LanguageModelMiddleware } from 'ai';
import { FlowScoutError } from '../../../errors/index.js';
import type { Budget } from '../../../llm/budget.js';
import { costUsd, DEFAULT_PRICES, lookupPrice, type PriceTable } from '../../../llm/prices.js';
import { abortableSleep, createRateLimiter, type RateLimiter } from '../../../llm/rate-limiter.js';
import type { ResolvedModel } from '../../../llm/resolve-model.js';
import { classifyFailure, retryDelayMs } from '../../../llm/retry.js';
import type { Usage } from '../../../policies/types.js';

/**
 * A model for the AI SDK's own tool loop (the ReAct baseline's `generateText({tools, stopWhen})`)
 * that keeps the rules of FlowScout's LLM client (src/llm/client.ts) for every request the loop
 * sends: the run's shared rate limiter and budget (a request is reserved before it is sent, tokens
 * and cost charged when it returns), a per-request timeout, the client's retry policy (429 / 5xx /
 * timeouts / network errors with backoff and the server's Retry-After; the SDK's retries are off)
 * and usage counted per request. It is a middleware around the provider model, so the loop itself
 * stays the SDK's.
 */

type WrapGenerateOptions = Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0];
/** The provider-level model (`LanguageModelV3`), named through the `ai` package's own types. */
type ProviderModel = WrapGenerateOptions['model'];
type CallOptions = WrapGenerateOptions['params'];

export interface MeterOptions {
  limiter?: RateLimiter;
  budget?: Budget;
  prices?: PriceTable;
  /** Per-request timeout (default 60 000 ms). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Receives one scrubbed line per retry. */
  log?: (line: string) => void;
}

export interface MeteredModel {
  model: ProviderModel;
  /** Requests sent (retries included), tokens and cost so far. */
  usage(): Usage;
}

/** Wraps a resolved model (see the module comment). MODEL_CONFIG when the spec has no model (offline). */
export function meteredModel(resolved: ResolvedModel, opts: MeterOptions = {}): MeteredModel {
  const inner = resolved.model;
  if (!inner || typeof inner === 'string' || inner.specificationVersion !== 'v3') {
    throw new FlowScoutError({ code: 'MODEL_CONFIG', message: `'${resolved.spec}' is not a language model the ReAct tool loop can call`, hint: 'Name a model such as openai:gpt-4o-mini; offline runs use the offline ReAct baseline.' });
  }
  const limiter = opts.limiter ?? createRateLimiter({ concurrency: 4 });
  const price = lookupPrice(resolved.provider, resolved.modelId, opts.prices ?? DEFAULT_PRICES);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxRetries = Math.max(0, opts.maxRetries ?? 3);
  const sleep = opts.sleep ?? abortableSleep;
  const now = opts.now ?? Date.now;
  const totals: Usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };

  const model = wrapLanguageModel({
    model: inner,
    middleware: {
      specificationVersion: 'v3',
      wrapGenerate: async ({ params, model: m }) => {
        for (let attempt = 1; ; attempt++) {
          const state = { timedOut: false, callerAborted: false };
          try {
            const result = await limiter.run(async () => {
              opts.budget?.reserveCall();
              totals.llmCalls++;
              return withTimeout(m, params, timeoutMs, state);
            }, params.abortSignal);
            const input = result.usage.inputTokens.total ?? 0;
            const output = result.usage.outputTokens.total ?? 0;
            const cost = costUsd(price.price, input, output);
            totals.inputTokens += input;
            totals.outputTokens += output;
            totals.costUsd += cost;
            opts.budget?.charge(input + output, cost);
            return result;
          } catch (e) {
            if (e instanceof FlowScoutError && (e.code === 'BUDGET_EXHAUSTED' || e.code === 'ABORTED')) throw e;
            if (params.abortSignal?.aborted) state.callerAborted = true;
            const failure = classifyFailure(e, state, now);
            if (!failure.retryable || attempt > maxRetries) throw e;
            const delay = retryDelayMs(attempt, failure, { baseDelayMs: opts.baseDelayMs ?? 500, maxDelayMs: opts.maxDelayMs ?? 60_000, random: opts.random ?? Math.random });
            opts.log?.(resolved.scrub(`model ${resolved.spec}: ${failure.kind}${failure.statusCode ? ` (HTTP ${failure.statusCode})` : ''}; retry ${attempt}/${maxRetries} in ${delay} ms`));
            await sleep(delay, params.abortSignal);
          }
        }
      },
    },
  });
  return { model, usage: () => ({ ...totals }) };
}

async function withTimeout(m: ProviderModel, params: CallOptions, timeoutMs: number, state: { timedOut: boolean }) {
  const timeout = new AbortController();
  const timer = setTimeout(() => {
    state.timedOut = true;
    timeout.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  const signal = params.abortSignal ? AbortSignal.any([params.abortSignal, timeout.signal]) : timeout.signal;
  try {
    return await m.doGenerate({ ...params, abortSignal: signal });
  } finally {
    clearTimeout(timer);
  }
}
