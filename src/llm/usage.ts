/**
 * Token and cost accounting of model calls: the one contract the client, the policies, the judges,
 * the optimizers and the reports share (cost comes from `prices.ts`). At the bottom of `llm/` so
 * that everything above imports it from here.
 */

/** Token and cost accounting of one or more model calls. */
export interface Usage {
  llmCalls: number;
  /** Every input token, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Of `inputTokens`, those the provider read from its prompt cache (priced at its cached rate). */
  cachedInputTokens?: number;
}

export const ZERO_USAGE: Usage = Object.freeze({ llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });

/** Adds usages (either may be missing). */
export function addUsage(a: Usage | undefined, b: Usage | undefined): Usage {
  const cached = (a?.cachedInputTokens ?? 0) + (b?.cachedInputTokens ?? 0);
  return {
    llmCalls: (a?.llmCalls ?? 0) + (b?.llmCalls ?? 0),
    inputTokens: (a?.inputTokens ?? 0) + (b?.inputTokens ?? 0),
    outputTokens: (a?.outputTokens ?? 0) + (b?.outputTokens ?? 0),
    costUsd: (a?.costUsd ?? 0) + (b?.costUsd ?? 0),
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
  };
}
