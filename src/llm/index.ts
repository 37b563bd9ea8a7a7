/** Models: the registry of model strings, the reliable client, budgets, limits, prices, and the tool simulator. */
export {
  MODEL_ENV_VAR,
  MODEL_SPEC_FORMS,
  defaultModelSpec,
  parseModelSpec,
  type ModelProvider,
  type ModelSpec,
} from './model-spec.js';
export {
  OPENAI_COMPATIBLE_NAME,
  ollamaBaseURL,
  resolveModel,
  type ResolveModelOptions,
  type ResolvedModel,
} from './resolve-model.js';
export { NODE_LLAMA_CPP_INSTALL, NODE_LLAMA_CPP_VERSION } from './llama-cpp-model.js';
export {
  createLlmClient,
  type LlmCallRequest,
  type LlmClient,
  type LlmClientOptions,
  type LlmClientStats,
  type LlmObjectRequest,
  type LlmResult,
} from './client.js';
export { InvalidModelOutputError, isInvalidModelOutput } from './llm-errors.js';
export {
  BudgetExceededError,
  createBudget,
  type Budget,
  type BudgetLimits,
  type BudgetResource,
  type BudgetSpent,
} from './budget.js';
export { abortableSleep, createRateLimiter, type RateLimiter, type RateLimiterOptions } from './rate-limiter.js';
export {
  DEFAULT_PRICES,
  costUsd,
  loadPriceTable,
  lookupPrice,
  PriceTableSchema,
  type Price,
  type PriceLookup,
  type PriceTable,
} from './prices.js';
export { ZERO_USAGE, addUsage, type Usage } from './usage.js';
export { parseRetryAfter, retryDelayMs } from './retry.js';
export { REDACTED, SECRET_ENV_VARS, scrubHeaders, scrubSecrets } from './secrets.js';
export { extractLogprobs, weightedDigitScore, type TokenLogprob } from './logprobs.js';
export {
  createToolSimulator,
  renderSimulationPrompt,
  type ToolExample,
  type ToolSimulator,
  type ToolSimulatorOptions,
} from './simulate-tool.js';
