import { z } from 'zod';
import { FlowScoutError } from '../errors/index.js';
import { readJsonFile } from '../util/json-file.js';

/**
 * Cost accounting: a price per model in USD per million tokens, so every call, node and run can
 * say what it cost. Input tokens the provider read from its prompt cache are priced at its cached
 * rate (`cachedInput`), tokens written to an Anthropic cache at its write rate (`cacheWrite`); a
 * price without them charges those tokens as ordinary input. The defaults are public list prices
 * (standard tier) as of 2025; users override or extend them with a JSON file (`loadPriceTable`) or an option. A model not
 * in the table costs 0 and is reported as `priced: false`, so output can say the cost is unknown
 * rather than pretend it was free. Local models (ollama, llama-cpp) are free by definition.
 */

export const PriceSchema = z.strictObject({
  /** USD per million input tokens. */
  input: z.number().min(0),
  /** USD per million output tokens. */
  output: z.number().min(0),
  /** USD per million input tokens read from the provider's prompt cache (default: `input`). */
  cachedInput: z.number().min(0).optional(),
  /** USD per million input tokens written to the provider's prompt cache (Anthropic; default: `input`). */
  cacheWrite: z.number().min(0).optional(),
});
export type Price = z.infer<typeof PriceSchema>;

/** Keys are `provider:model` or a bare model id; a key also matches dated variants (`gpt-4o-mini-2024-07-18`). */
export const PriceTableSchema = z.record(z.string().min(1), PriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

export const DEFAULT_PRICES: PriceTable = {
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6, cachedInput: 0.075 },
  'openai:gpt-4o': { input: 2.5, output: 10, cachedInput: 1.25 },
  'openai:gpt-4.1': { input: 2, output: 8, cachedInput: 0.5 },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6, cachedInput: 0.1 },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4, cachedInput: 0.025 },
  'openai:gpt-5': { input: 1.25, output: 10, cachedInput: 0.125 },
  'openai:gpt-5-mini': { input: 0.25, output: 2, cachedInput: 0.025 },
  'openai:gpt-5-nano': { input: 0.05, output: 0.4, cachedInput: 0.005 },
  'openai:o3': { input: 2, output: 8, cachedInput: 0.5 },
  'openai:o4-mini': { input: 1.1, output: 4.4, cachedInput: 0.275 },
  'openai:gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  'anthropic:claude-3-5-haiku': { input: 0.8, output: 4, cachedInput: 0.08, cacheWrite: 1 },
  'anthropic:claude-3-5-sonnet': { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
  'anthropic:claude-3-7-sonnet': { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
  'anthropic:claude-sonnet-4': { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 },
  'anthropic:claude-opus-4': { input: 15, output: 75, cachedInput: 1.5, cacheWrite: 18.75 },
  'anthropic:claude-haiku-4-5': { input: 1, output: 5, cachedInput: 0.1, cacheWrite: 1.25 },
};

export interface PriceLookup {
  price: Price;
  /** False when no entry matched and the cost is counted as 0. */
  priced: boolean;
  /** The table key that matched. */
  key?: string;
}

const FREE: Price = { input: 0, output: 0 };

/**
 * The price of a model: the longest table key equal to `provider:modelId` or `modelId`, or a prefix
 * of it followed by `-` (dated variants). Local providers are free and priced.
 */
export function lookupPrice(provider: string, modelId: string, table: PriceTable = DEFAULT_PRICES): PriceLookup {
  const full = `${provider}:${modelId}`;
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const hit = [full, modelId].some((name) => name === key || name.startsWith(`${key}-`));
    if (hit && (best === undefined || key.length > best.length)) best = key;
  }
  if (best !== undefined) return { price: table[best] as Price, priced: true, key: best };
  if (provider === 'ollama' || provider === 'llama-cpp' || provider === 'offline') return { price: FREE, priced: true };
  return { price: FREE, priced: false };
}

/** Of a request's input tokens, those read from and written to the provider's prompt cache. */
export interface CacheTokens {
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
}

/** USD for a number of tokens at a price; `inputTokens` counts every input token, cached ones included. */
export function costUsd(price: Price, inputTokens: number, outputTokens: number, cache: CacheTokens = {}): number {
  const read = Math.min(inputTokens, Math.max(0, cache.cachedInputTokens ?? 0));
  const write = Math.min(inputTokens - read, Math.max(0, cache.cacheWriteTokens ?? 0));
  const plain = inputTokens - read - write;
  return (
    (plain * price.input +
      read * (price.cachedInput ?? price.input) +
      write * (price.cacheWrite ?? price.input) +
      outputTokens * price.output) /
    1_000_000
  );
}

/** Reads a price-table JSON file (`{"openai:gpt-4o-mini": {"input": 0.15, "output": 0.6}, …}`) merged over the defaults. */
export function loadPriceTable(file: string, base: PriceTable = DEFAULT_PRICES): PriceTable {
  const raw = readJsonFile(file);
  const parsed = PriceTableSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue
      ? `$${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`
      : '$';
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `price table: ${issue?.message ?? 'invalid'}`,
      hint: 'Write an object mapping "provider:model" to {"input": USD per 1M input tokens, "output": USD per 1M output tokens}.',
      location: { file, path },
    });
  }
  return { ...base, ...parsed.data };
}
