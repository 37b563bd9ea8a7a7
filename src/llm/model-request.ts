import { APICallError } from 'ai';
import { FlowScoutError, isFlowScoutError } from '../errors/index.js';
import type { Usage } from './usage.js';
import type { Budget } from './budget.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { isInvalidModelOutput } from './llm-errors.js';
import { DEFAULT_PRICES, costUsd, lookupPrice, type CacheTokens, type PriceLookup, type PriceTable } from './prices.js';
import { abortableSleep, type RateLimiter } from './rate-limiter.js';
import type { ResolvedModel } from './resolve-model.js';
import { classifyFailure, retryDelayMs, type ClassifiedFailure } from './retry.js';
import { scrubHeaders } from './secrets.js';

/**
 * One model request, sent the way every model request of a run is sent (docs/DESIGN.md,
 * "Policies"): through the run's shared rate limiter, reserved against its budget
 * right before it goes out, with a per-request timeout combined with the caller's signal, retried
 * on 429 / 408 / 5xx / timeouts / network errors with backoff and the server's Retry-After (the AI
 * SDK's own retries are off), and with its tokens and cost counted and charged to the budget when it
 * returns. The LLM client (`client.ts`, `generateText` per call) and the ReAct baseline's metered
 * model (the AI SDK tool loop, one `doGenerate` per step) both send through `send`, so the two
 * cannot drift apart.
 *
 * Errors: BUDGET_EXHAUSTED and ABORTED pass through untouched; a caller's signal that fired gives
 * ABORTED; a failure that is not retried, or still fails after `maxRetries`, gives MODEL_ERROR
 * naming the attempts, with the provider's status, headers and body scrubbed of keys.
 */

/** The rules a model request follows; the client's options and the metered model's are these. */
export interface RequestOptions {
  /** The run's shared limiter (callers create one when none is given). */
  limiter?: RateLimiter;
  budget?: Budget;
  prices?: PriceTable;
  /** Per-request timeout (default DEFAULT_MODEL_TIMEOUT_MS; `--model-timeout` in the CLI). */
  timeoutMs?: number;
  /** The run's circuit breaker: stops every call once the same failure repeated (circuit-breaker.ts). */
  breaker?: CircuitBreaker;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Receives one scrubbed line per retry (`retrying <model> in 4 s (HTTP 429)`) and per failure. */
  log?: (line: string) => void;
}

/**
 * Per-request timeout of model calls unless set: the whole answer of a non-streamed request must
 * arrive within it, so a server that accepts and never answers costs at most this per attempt.
 */
export const DEFAULT_MODEL_TIMEOUT_MS = 30_000;

/** Counters a requester adds to (a client's stats hold these and more). */
export interface RequestCounters {
  /** Requests sent (attempts, retries included). */
  requests: number;
  retries: number;
  /** Logical requests that ended in an error. */
  failures: number;
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache. */
  cachedInputTokens: number;
  costUsd: number;
  /** Requests whose model had no price (counted as $0). */
  unpricedRequests: number;
}

/** Fresh counters. */
export function emptyCounters(): RequestCounters {
  return {
    requests: 0,
    retries: 0,
    failures: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    costUsd: 0,
    unpricedRequests: 0,
  };
}

/** How to read one kind of response, and which failures are final. */
export interface SendOptions<R> {
  /** The caller's signal: cancels the wait, the request and the backoff (never retried). */
  signal?: AbortSignal;
  /** The tokens a response cost (input tokens include the cached ones, which are priced at the cached rate). */
  tokens: (response: R) => { inputTokens: number; outputTokens: number } & CacheTokens;
  /**
   * A failure the provider answered and charged for, which a retry would not fix (e.g. JSON that
   * does not parse): return the error to throw; `charge` counts the tokens and gives the usage.
   */
  settle?: (error: unknown, charge: (inputTokens: number, outputTokens: number) => Usage) => Error | undefined;
}

/** Sends model requests for one model under one set of rules. */
export interface ModelRequester {
  readonly price: PriceLookup;
  /** Runs `attempt` (one provider request, given the signal to obey) under the rules; the usage counts every request it took. */
  send<R>(attempt: (signal: AbortSignal) => Promise<R>, opts: SendOptions<R>): Promise<{ response: R; usage: Usage }>;
}

/** A requester for `resolved` that adds to `counters` (see the module comment). */
export function createModelRequester(
  resolved: ResolvedModel,
  opts: RequestOptions & { limiter: RateLimiter },
  counters: RequestCounters,
): ModelRequester {
  const spec = resolved.spec;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
  const maxRetries = Math.max(0, opts.maxRetries ?? 3);
  const sleep = opts.sleep ?? abortableSleep;
  const random = opts.random ?? Math.random;
  const now = opts.now ?? Date.now;
  const price = lookupPrice(resolved.provider, resolved.modelId, opts.prices ?? DEFAULT_PRICES);
  const log = (line: string) => opts.log?.(resolved.scrub(line));

  const charge = (inputTokens: number, outputTokens: number, requests: number, cache: CacheTokens = {}): Usage => {
    const cost = costUsd(price.price, inputTokens, outputTokens, cache);
    const cached = Math.min(inputTokens, cache.cachedInputTokens ?? 0);
    counters.inputTokens += inputTokens;
    counters.outputTokens += outputTokens;
    counters.cachedInputTokens += cached;
    counters.costUsd += cost;
    if (!price.priced) counters.unpricedRequests++;
    opts.budget?.charge(inputTokens + outputTokens, cost);
    return {
      llmCalls: requests,
      inputTokens,
      outputTokens,
      costUsd: cost,
      ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    };
  };

  async function send<R>(
    attempt: (signal: AbortSignal) => Promise<R>,
    o: SendOptions<R>,
  ): Promise<{ response: R; usage: Usage }> {
    let requests = 0;
    opts.breaker?.check();
    for (let n = 1; ; n++) {
      const state = { timedOut: false, callerAborted: false };
      try {
        const response = await opts.limiter.run(async () => {
          opts.budget?.reserveCall();
          requests++;
          counters.requests++;
          const timeout = new AbortController();
          const timer = setTimeout(() => {
            state.timedOut = true;
            timeout.abort(new Error(`timed out after ${timeoutMs} ms`));
          }, timeoutMs);
          const signal = o.signal ? AbortSignal.any([o.signal, timeout.signal]) : timeout.signal;
          try {
            return await attempt(signal);
          } finally {
            clearTimeout(timer);
            if (o.signal?.aborted) state.callerAborted = true;
          }
        }, o.signal);
        const { inputTokens, outputTokens, ...cache } = o.tokens(response);
        opts.breaker?.success();
        return { response, usage: charge(inputTokens, outputTokens, requests, cache) };
      } catch (e) {
        if (
          isInvalidModelOutput(e) ||
          (isFlowScoutError(e) && (e.code === 'BUDGET_EXHAUSTED' || e.code === 'ABORTED'))
        ) {
          counters.failures++;
          throw e;
        }
        const settled = o.settle?.(e, (i, out) => charge(i, out, requests));
        if (settled) {
          counters.failures++;
          throw settled;
        }
        if (o.signal?.aborted) state.callerAborted = true;
        const failure = classifyFailure(e, state, now);
        if (failure.kind === 'aborted') {
          counters.failures++;
          throw new FlowScoutError({ code: 'ABORTED', message: `the call to model '${spec}' was cancelled` });
        }
        if (failure.retryable && n <= maxRetries) {
          const delay = retryDelayMs(n, failure, {
            baseDelayMs: opts.baseDelayMs ?? 500,
            maxDelayMs: opts.maxDelayMs ?? 60_000,
            random,
          });
          counters.retries++;
          log(
            `retrying ${spec} in ${formatDelay(delay)} (${describeFailure(failure, e, resolved, timeoutMs)}; retry ${n} of ${maxRetries})`,
          );
          await sleep(delay, o.signal);
          continue;
        }
        counters.failures++;
        const error = modelError(spec, failure, e, resolved, n, timeoutMs);
        log(error.message);
        opts.breaker?.failure(
          `${failure.kind}:${failure.statusCode ?? ''}:${describeFailure(failure, e, resolved, timeoutMs)}`,
          error,
          failure.kind,
        );
        throw opts.breaker?.tripped() ?? error;
      }
    }
  }

  return { price, send };
}

/** A retry delay as people read it: `800 ms`, `4 s`, `1.5 s`. */
export function formatDelay(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s < 10 ? Number(s.toFixed(1)) : Math.round(s)} s`;
}

/** The first non-blank line of a message, at most 300 characters. */
export function firstLine(s: string): string {
  return (s.split('\n').find((l) => l.trim()) ?? '').slice(0, 300);
}

function describeFailure(f: ClassifiedFailure, e: unknown, resolved: ResolvedModel, timeoutMs: number): string {
  switch (f.kind) {
    case 'rate-limit':
      return `rate limited (HTTP 429${f.retryAfterMs !== undefined ? `, retry after ${f.retryAfterMs} ms` : ''})`;
    case 'server':
      return `server error (HTTP ${f.statusCode ?? '?'})`;
    case 'timeout':
      return `no answer within ${timeoutMs} ms`;
    case 'network':
      return `network error (${resolved.scrub(firstLine(e instanceof Error ? e.message : String(e)))})`;
    case 'client':
      return `HTTP ${f.statusCode ?? '?'}: ${resolved.scrub(firstLine(e instanceof Error ? e.message : String(e)))}`;
    default:
      return resolved.scrub(firstLine(e instanceof Error ? e.message : String(e)));
  }
}

function modelError(
  spec: string,
  f: ClassifiedFailure,
  e: unknown,
  resolved: ResolvedModel,
  attempts: number,
  timeoutMs: number,
): FlowScoutError {
  const api = APICallError.isInstance(e) ? e : undefined;
  const hints: Record<string, string> = {
    'rate-limit': 'The provider kept rate-limiting; lower --concurrency or set --rpm, or wait and resume.',
    server: 'The provider kept failing; try again later or use another model.',
    timeout: 'Raise the per-request timeout (--model-timeout <seconds>) or use a faster model.',
    network: 'Check the network and the base URL of the model.',
    client:
      f.statusCode === 401 || f.statusCode === 403
        ? 'The provider rejected the credentials; check the API key variable for this provider.'
        : 'The provider rejected the request; check the model name and the base URL.',
    other: 'See the message above; run with --debug for details.',
  };
  return new FlowScoutError({
    code: 'MODEL_ERROR',
    message: `model '${spec}' failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${describeFailure(f, e, resolved, timeoutMs)}`,
    hint: hints[f.kind] ?? hints.other,
    details: {
      spec,
      kind: f.kind,
      attempts,
      ...(f.statusCode !== undefined ? { statusCode: f.statusCode } : {}),
      ...(api?.responseHeaders
        ? { responseHeaders: mapValues(scrubHeaders(api.responseHeaders), resolved.scrub) }
        : {}),
      ...(api?.responseBody ? { responseBody: resolved.scrub(api.responseBody.slice(0, 500)) } : {}),
    },
  });
}

function mapValues(obj: Record<string, string>, f: (v: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)]));
}
