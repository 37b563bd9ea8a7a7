import {
  generateText,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  type FlexibleSchema,
  type LanguageModel,
} from 'ai';
import { FlowScoutError } from '../errors/index.js';
import type { Usage } from './usage.js';
import { InvalidModelOutputError } from './llm-errors.js';
import { extractLogprobs, logprobProviderOptions, type TokenLogprob } from './logprobs.js';
import {
  createModelRequester,
  emptyCounters,
  firstLine,
  type RequestCounters,
  type RequestOptions,
} from './model-request.js';
import type { Price } from './prices.js';
import { createRateLimiter, type RateLimiter } from './rate-limiter.js';
import { resolveModel, type ResolvedModel } from './resolve-model.js';
import { scrubSecrets, secretsFromEnv } from './secrets.js';

/**
 * The one way FlowScout calls a model (docs/DESIGN.md, "Policies"). Wraps the AI SDK's
 * `generateText` (text, or `Output.object` for JSON) and sends it through `model-request.ts`: our
 * own retries (the SDK's are off), a per-call timeout combined with the caller's signal, the run's
 * shared rate limiter and budget, usage and cost per call, and scrubbing of API keys from everything
 * it throws or logs. Answers that are not the asked-for JSON become `InvalidModelOutputError`.
 *
 * Counting rule: `usage.llmCalls` and the budget count *requests sent* (retries included);
 * `stats().calls` counts logical calls and `stats().retries` the extra attempts.
 */

export interface LlmCallRequest {
  system?: string;
  /**
   * The part of the prompt that is the same on every record (a node's fixed instructions, tool
   * schemas). It is sent first, before `prompt`, so providers' prefix caches apply; on Anthropic
   * models the system text and this part are marked as cache breakpoints.
   */
  stablePrompt?: string;
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

export interface LlmClientStats extends RequestCounters {
  /** Logical calls that returned a value. */
  calls: number;
}

/** The reliable model client: text and JSON requests with retries, timeouts, the shared rate limiter, budget and cost. */
export interface LlmClient {
  /** The model string, shown in output. */
  readonly spec: string;
  readonly resolved: ResolvedModel;
  /** False when the price table has no entry for the model: its cost is counted as $0 and output should say "cost unknown". */
  readonly priced: boolean;
  /** The model's price (USD per million tokens; all zero when `priced` is false). */
  readonly price: Price;
  text(req: LlmCallRequest): Promise<LlmResult<string>>;
  object<T>(req: LlmObjectRequest<T>): Promise<LlmResult<T>>;
  /** A client for another model string sharing this one's limiter, budget, prices, options and stats. */
  forModel(spec: string): Promise<LlmClient>;
  /** Counters over this client and every client derived from it. */
  stats(): LlmClientStats;
}

export interface LlmClientOptions extends RequestOptions {
  /** A resolved model (from `resolveModel`) or any AI SDK model (then give `spec`). */
  model: ResolvedModel | LanguageModel;
  spec?: string;
  temperature?: number;
  /** For `forModel` and for scrubbing raw models' keys (default process.env). */
  env?: Record<string, string | undefined>;
}

/** Creates a client (see the file comment). */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const stats: LlmClientStats = { calls: 0, ...emptyCounters() };
  const shared = { ...options, limiter: options.limiter ?? createRateLimiter({ concurrency: 4 }) };
  return buildClient(toResolved(options.model, options.spec, options.env), shared, stats);
}

function toResolved(
  model: ResolvedModel | LanguageModel,
  spec: string | undefined,
  env: Record<string, string | undefined> | undefined,
): ResolvedModel {
  if (typeof model === 'object' && 'scrub' in model && 'spec' in model) return model as ResolvedModel;
  if (typeof model === 'string') {
    throw new FlowScoutError({
      code: 'MODEL_CONFIG',
      message: `pass a resolved model, not the string '${model}'`,
      hint: 'Call resolveModel(spec) first.',
    });
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
  const requester = createModelRequester(resolved, opts, stats);

  async function run<T>(req: LlmCallRequest, object: LlmObjectRequest<T> | undefined): Promise<LlmResult<T>> {
    if (!model) {
      throw new FlowScoutError({
        code: 'MODEL_CONFIG',
        message: `'${spec}' is not a language model`,
        hint: 'Name a model such as openai:gpt-4o-mini, or use the offline policy.',
      });
    }
    const providerOptions = buildProviderOptions(resolved, req, object !== undefined);
    const { response: result, usage } = await requester.send(
      (signal) =>
        generateText({
          model,
          ...promptFields(resolved, req),
          maxRetries: 0,
          abortSignal: signal,
          temperature: opts.temperature ?? 0,
          ...(req.maxOutputTokens ? { maxOutputTokens: req.maxOutputTokens } : {}),
          ...(providerOptions ? { providerOptions: providerOptions as never } : {}),
          ...(object
            ? { output: Output.object({ schema: object.schema, ...(object.name ? { name: object.name } : {}) }) }
            : {}),
        }),
      {
        ...(req.signal ? { signal: req.signal } : {}),
        tokens: (r) => ({
          inputTokens: r.totalUsage.inputTokens ?? 0,
          outputTokens: r.totalUsage.outputTokens ?? 0,
          cachedInputTokens: r.totalUsage.inputTokenDetails?.cacheReadTokens ?? 0,
          cacheWriteTokens: r.totalUsage.inputTokenDetails?.cacheWriteTokens ?? 0,
        }),
        // JSON that does not parse or fit is answered and paid for; the caller repairs it, not a retry.
        settle: (e, charge) =>
          NoObjectGeneratedError.isInstance(e)
            ? new InvalidModelOutputError({
                spec,
                text: e.text ?? '',
                problem: describeObjectProblem(e),
                usage: charge(e.usage?.inputTokens ?? 0, e.usage?.outputTokens ?? 0),
              })
            : undefined,
      },
    );
    let value: T;
    try {
      value = (object ? result.output : result.text) as T;
    } catch (e) {
      if (NoOutputGeneratedError.isInstance(e)) {
        stats.failures++;
        throw new InvalidModelOutputError({
          spec,
          text: result.text,
          problem: 'no content (the model answered with a tool call or nothing)',
          usage,
        });
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
  }

  return {
    spec,
    resolved,
    priced: requester.price.priced,
    price: requester.price.price,
    text: (req) => run<string>(req, undefined),
    object: <T>(req: LlmObjectRequest<T>) => run<T>(req, req),
    async forModel(other: string) {
      if (other.trim() === spec) return buildClient(resolved, opts, stats);
      return buildClient(await resolveModel(other, { env: opts.env ?? process.env }), opts, stats);
    },
    stats: () => ({ ...stats }),
  };
}

const ANTHROPIC_CACHE = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

/**
 * The system text and the prompt, stable part first. Anthropic models get a cache breakpoint after
 * the system text and after the stable part (Anthropic caches only marked prefixes); everyone else
 * gets one prompt text whose beginning is the same across records (OpenAI caches such prefixes on
 * its own).
 */
export function promptFields(
  resolved: Pick<ResolvedModel, 'provider'>,
  req: Pick<LlmCallRequest, 'system' | 'stablePrompt' | 'prompt'>,
) {
  const stable = req.stablePrompt?.trim() ? req.stablePrompt : undefined;
  if (resolved.provider !== 'anthropic') {
    return {
      ...(req.system ? { system: req.system } : {}),
      prompt: stable ? `${stable}\n\n${req.prompt}` : req.prompt,
    };
  }
  return {
    ...(req.system
      ? { system: { role: 'system' as const, content: req.system, providerOptions: ANTHROPIC_CACHE } }
      : {}),
    messages: [
      {
        role: 'user' as const,
        content: [
          ...(stable ? [{ type: 'text' as const, text: `${stable}\n\n`, providerOptions: ANTHROPIC_CACHE }] : []),
          { type: 'text' as const, text: req.prompt },
        ],
      },
    ],
  };
}

function buildProviderOptions(
  resolved: ResolvedModel,
  req: LlmCallRequest,
  json: boolean,
): Record<string, Record<string, unknown>> | undefined {
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
