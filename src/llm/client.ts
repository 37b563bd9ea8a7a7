import { generateText, NoObjectGeneratedError, NoOutputGeneratedError, Output, APICallError, type FlexibleSchema, type LanguageModel } from 'ai';
import { FlowScoutError, isFlowScoutError } from '../errors/index.js';
import type { Usage } from '../policies/types.js';
import type { Budget } from './budget.js';
import { InvalidModelOutputError } from './llm-errors.js';
import { extractLogprobs, logprobProviderOptions, type TokenLogprob } from './logprobs.js';
import { DEFAULT_PRICES, costUsd, lookupPrice, type PriceTable } from './prices.js';
import { abortableSleep, createRateLimiter, type RateLimiter } from './rate-limiter.js';
import { resolveModel, type ResolvedModel } from './resolve-model.js';
import { classifyFailure, retryDelayMs, type ClassifiedFailure } from './retry.js';
import { scrubHeaders, scrubSecrets, secretsFromEnv } from './secrets.js';

/**
 * The one way FlowScout calls a model (issue #5, "Reliability of model calls"). Wraps the AI SDK's
 * `generateText` (text, or `Output.object` for JSON) with: our own retries (the SDK's are off), a
 * per-call timeout combined with the caller's signal, the run's shared rate limiter and budget,
 * usage and cost per call, and scrubbing of API keys from everything it throws or logs.
 *
 * Counting rule: `usage.llmCalls` and the budget count *requests sent* (retries included);
 * `stats().calls` counts logical calls and `stats().retries` the extra attempts.
 */

export interface LlmCallRequest {
  system?: string;
  prompt: string;
  signal?: AbortSignal;
  /** Ask for this many alternatives per token (providers that support it; ignored otherwise). */
  logprobs?: number;
  maxOutputTokens?: number;
}

export interface LlmObjectRequest<T> extends LlmCallRequest {
  /** A zod schema or an AI SDK `jsonSchema(...)`. */
  schema: FlexibleSchema<T>;
  /** Name of the object, passed to providers that use it (e.g. OpenAI's json_schema name). */
  name?: string;
}

export interface LlmResult<T> {
  value: T;
  usage: Usage;
  /** The model string that produced it. */
  model: string;
  /** The raw text of the answer. */
  text: string;
  /** Token log-probabilities, when asked for and returned. */
  logprobs?: TokenLogprob[];
}

export interface LlmClientStats {
  /** Logical calls that returned a value. */
  calls: number;
  /** Requests sent (attempts, retries included). */
  requests: number;
  retries: number;
  /** Logical calls that ended in an error. */
  failures: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Requests whose model had no price (counted as $0). */
  unpricedRequests: number;
}

export interface LlmClient {
  /** The model string, shown in output. */
  readonly spec: string;
  readonly resolved: ResolvedModel;
  /** False when the price table has no entry for the model: its cost is counted as $0 and output should say "cost unknown". */
  readonly priced: boolean;
  text(req: LlmCallRequest): Promise<LlmResult<string>>;
  object<T>(req: LlmObjectRequest<T>): Promise<LlmResult<T>>;
  /** A client for another model string sharing this one's limiter, budget, prices, options and stats. */
  forModel(spec: string): Promise<LlmClient>;
  /** Counters over this client and every client derived from it. */
  stats(): LlmClientStats;
}

export interface LlmClientOptions {
  /** A resolved model (from `resolveModel`) or any AI SDK model (then give `spec`). */
  model: ResolvedModel | LanguageModel;
  spec?: string;
  limiter?: RateLimiter;
  budget?: Budget;
  prices?: PriceTable;
  /** Per-request timeout (default 60 000 ms). */
  timeoutMs?: number;
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  temperature?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Receives one scrubbed line per retry and per failure. */
  log?: (line: string) => void;
  /** For `forModel` and for scrubbing raw models' keys (default process.env). */
  env?: Record<string, string | undefined>;
}

/** Creates a client (see the file comment). */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const stats: LlmClientStats = { calls: 0, requests: 0, retries: 0, failures: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedRequests: 0 };
  const shared = { ...options, limiter: options.limiter ?? createRateLimiter({ concurrency: 4 }) };
  return buildClient(toResolved(options.model, options.spec, options.env), shared, stats);
}

function toResolved(model: ResolvedModel | LanguageModel, spec: string | undefined, env: Record<string, string | undefined> | undefined): ResolvedModel {
  if (typeof model === 'object' && 'scrub' in model && 'spec' in model) return model as ResolvedModel;
  if (typeof model === 'string') {
    throw new FlowScoutError({ code: 'MODEL_CONFIG', message: `pass a resolved model, not the string '${model}'`, hint: 'Call resolveModel(spec) first.' });
  }
  const providerKey = model.provider.split('.')[0] ?? model.provider;
  const secrets = secretsFromEnv(env ?? process.env);
  return {
    spec: spec ?? `${providerKey}:${model.modelId}`,
    provider: providerKey === 'openai' ? 'openai' : providerKey === 'anthropic' ? 'anthropic' : 'openai-compatible',
    modelId: model.modelId,
    model,
    providerOptionsKey: providerKey,
    supportsLogprobs: providerKey === 'openai' || providerKey === 'openaiCompatible',
    scrub: (text) => scrubSecrets(text, secrets),
  };
}

type SharedOptions = LlmClientOptions & { limiter: RateLimiter };

function buildClient(resolved: ResolvedModel, opts: SharedOptions, stats: LlmClientStats): LlmClient {
  const spec = resolved.spec;
  const model = resolved.model;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxRetries = Math.max(0, opts.maxRetries ?? 3);
  const sleep = opts.sleep ?? abortableSleep;
  const random = opts.random ?? Math.random;
  const now = opts.now ?? Date.now;
  const price = lookupPrice(resolved.provider, resolved.modelId, opts.prices ?? DEFAULT_PRICES);
  const log = (line: string) => opts.log?.(resolved.scrub(line));

  const usageOf = (inputTokens: number, outputTokens: number, requests: number): Usage => ({
    llmCalls: requests,
    inputTokens,
    outputTokens,
    costUsd: costUsd(price.price, inputTokens, outputTokens),
  });

  const account = (inputTokens: number, outputTokens: number) => {
    const cost = costUsd(price.price, inputTokens, outputTokens);
    stats.inputTokens += inputTokens;
    stats.outputTokens += outputTokens;
    stats.costUsd += cost;
    if (!price.priced) stats.unpricedRequests++;
    opts.budget?.charge(inputTokens + outputTokens, cost);
  };

  async function run<T>(req: LlmCallRequest, object: LlmObjectRequest<T> | undefined): Promise<LlmResult<T>> {
    if (!model) {
      throw new FlowScoutError({ code: 'MODEL_CONFIG', message: `'${spec}' is not a language model`, hint: 'Name a model such as openai:gpt-4o-mini, or use the offline policy.' });
    }
    const providerOptions = buildProviderOptions(resolved, req, object !== undefined);
    let requests = 0;
    for (let attempt = 1; ; attempt++) {
      const state = { timedOut: false, callerAborted: false };
      try {
        const result = await opts.limiter.run(async () => {
          opts.budget?.reserveCall();
          requests++;
          stats.requests++;
          const timeout = new AbortController();
          const timer = setTimeout(() => {
            state.timedOut = true;
            timeout.abort(new Error(`timed out after ${timeoutMs} ms`));
          }, timeoutMs);
          const signal = req.signal ? AbortSignal.any([req.signal, timeout.signal]) : timeout.signal;
          try {
            return await generateText({
              model,
              ...(req.system ? { system: req.system } : {}),
              prompt: req.prompt,
              maxRetries: 0,
              abortSignal: signal,
              temperature: opts.temperature ?? 0,
              ...(req.maxOutputTokens ? { maxOutputTokens: req.maxOutputTokens } : {}),
              ...(providerOptions ? { providerOptions: providerOptions as never } : {}),
              ...(object ? { output: Output.object({ schema: object.schema, ...(object.name ? { name: object.name } : {}) }) } : {}),
            });
          } finally {
            clearTimeout(timer);
            if (req.signal?.aborted) state.callerAborted = true;
          }
        }, req.signal);
        const inputTokens = result.totalUsage.inputTokens ?? 0;
        const outputTokens = result.totalUsage.outputTokens ?? 0;
        account(inputTokens, outputTokens);
        const usage = usageOf(inputTokens, outputTokens, requests);
        let value: T;
        try {
          value = (object ? result.output : result.text) as T;
        } catch (e) {
          if (NoOutputGeneratedError.isInstance(e)) {
            stats.failures++;
            throw new InvalidModelOutputError({ spec, text: result.text, problem: 'no content (the model answered with a tool call or nothing)', usage });
          }
          throw e;
        }
        if (object && value === undefined) {
          stats.failures++;
          throw new InvalidModelOutputError({ spec, text: result.text, problem: 'no JSON object in the answer', usage });
        }
        stats.calls++;
        const logprobs = req.logprobs ? extractLogprobs(result.providerMetadata) : undefined;
        return { value, usage, model: spec, text: result.text, ...(logprobs ? { logprobs } : {}) };
      } catch (e) {
        if (e instanceof InvalidModelOutputError || (isFlowScoutError(e) && (e.code === 'BUDGET_EXHAUSTED' || e.code === 'ABORTED'))) {
          if (!(e instanceof InvalidModelOutputError)) stats.failures++;
          throw e;
        }
        if (NoObjectGeneratedError.isInstance(e)) {
          const inputTokens = e.usage?.inputTokens ?? 0;
          const outputTokens = e.usage?.outputTokens ?? 0;
          account(inputTokens, outputTokens);
          stats.failures++;
          throw new InvalidModelOutputError({ spec, text: e.text ?? '', problem: describeObjectProblem(e), usage: usageOf(inputTokens, outputTokens, requests) });
        }
        if (req.signal?.aborted) state.callerAborted = true;
        const failure = classifyFailure(e, state, now);
        if (failure.kind === 'aborted') {
          stats.failures++;
          throw new FlowScoutError({ code: 'ABORTED', message: `the call to model '${spec}' was cancelled` });
        }
        if (failure.retryable && attempt <= maxRetries) {
          const delay = retryDelayMs(attempt, failure, { baseDelayMs: opts.baseDelayMs ?? 500, maxDelayMs: opts.maxDelayMs ?? 60_000, random });
          stats.retries++;
          log(`model ${spec}: ${describeFailure(failure, e, resolved, timeoutMs)}; retry ${attempt}/${maxRetries} in ${delay} ms`);
          await sleep(delay, req.signal);
          continue;
        }
        stats.failures++;
        const error = modelError(spec, failure, e, resolved, attempt, timeoutMs);
        log(error.message);
        throw error;
      }
    }
  }

  return {
    spec,
    resolved,
    priced: price.priced,
    text: (req) => run<string>(req, undefined),
    object: <T>(req: LlmObjectRequest<T>) => run<T>(req, req),
    async forModel(other: string) {
      if (other.trim() === spec) return buildClient(resolved, opts, stats);
      return buildClient(await resolveModel(other, { env: opts.env ?? process.env }), opts, stats);
    },
    stats: () => ({ ...stats }),
  };
}

function buildProviderOptions(resolved: ResolvedModel, req: LlmCallRequest, json: boolean): Record<string, Record<string, unknown>> | undefined {
  const key = resolved.providerOptionsKey;
  if (!key) return undefined;
  const out: Record<string, Record<string, unknown>> = {};
  // Node schemas and tool schemas have optional fields, which OpenAI's strict mode rejects.
  if (json && (key === 'openai' || key === 'openaiCompatible')) out[key] = { strictJsonSchema: false };
  if (req.logprobs && resolved.supportsLogprobs) {
    const lp = logprobProviderOptions(key, req.logprobs);
    for (const [k, v] of Object.entries(lp ?? {})) out[k] = { ...out[k], ...v };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function describeObjectProblem(e: NoObjectGeneratedError): string {
  const cause = e.cause instanceof Error ? e.cause.message : '';
  if (/could not parse/i.test(e.message)) return `the answer is not valid JSON (${firstLine(cause) || 'parse error'})`;
  return `the JSON does not match the schema (${firstLine(cause) || e.message})`;
}

function firstLine(s: string): string {
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
    default:
      return resolved.scrub(firstLine(e instanceof Error ? e.message : String(e)));
  }
}

function modelError(spec: string, f: ClassifiedFailure, e: unknown, resolved: ResolvedModel, attempts: number, timeoutMs: number): FlowScoutError {
  const api = APICallError.isInstance(e) ? e : undefined;
  const hints: Record<string, string> = {
    'rate-limit': 'The provider kept rate-limiting; lower --concurrency or set --rpm, or wait and resume.',
    server: 'The provider kept failing; try again later or use another model.',
    timeout: 'Raise the per-call timeout (--timeout) or use a faster model.',
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
      ...(api?.responseHeaders ? { responseHeaders: mapValues(scrubHeaders(api.responseHeaders), resolved.scrub) } : {}),
      ...(api?.responseBody ? { responseBody: resolved.scrub(api.responseBody.slice(0, 500)) } : {}),
    },
  });
}

function mapValues(obj: Record<string, string>, f: (v: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)]));
}
