import { createLexicalJudge } from '../metrics/lexical-judge.js';
import { createLlmJudge, type JudgeMode } from '../metrics/llm-judge.js';
import type { Judge } from '../metrics/types.js';
import { createLlmClient, type LlmClient, type LlmClientOptions } from '../llm/client.js';
import { defaultModelSpec, parseModelSpec } from '../llm/model-spec.js';
import { resolveModel } from '../llm/resolve-model.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { createLlmPolicy } from '../policies/llm-policy.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import type { ExecutionPolicy } from '../policies/types.js';
import { createLlmOptimizer } from '../search/optimizers/llm-optimizer.js';
import { createRuleBasedOptimizer } from '../search/optimizers/rule-based.js';
import type { Optimizer } from '../search/optimizers/types.js';

/**
 * Turning one model string (a flag, `FLOWSCOUT_MODEL`, or nothing) into who decides (docs/DESIGN.md,
 * "Policies"): `offline` — the default when no model is configured — gives the
 * offline policy, the offline lexical judge and the rule-based optimizer; any other model string
 * gives the LLM policy / LLM judge / LLM optimizer through the registry and a client. The returned
 * label is what output shows. `wire-models.ts` calls these with one shared limiter and budget.
 */

/** `undefined`/empty → `FLOWSCOUT_MODEL` or `offline`; a string naming the offline provider → `offline`. */
export function chosenModel(spec: string | undefined, env: Record<string, string | undefined> = process.env): string {
  const chosen = (spec?.trim() || defaultModelSpec(env)).trim();
  return parseModelSpec(chosen).provider === 'offline' ? 'offline' : chosen;
}

/** Options of the client made for an LLM policy or judge (limiter, budget, prices, timeouts, …). */
export type ClientOptions = Omit<LlmClientOptions, 'model' | 'spec' | 'env'>;

export interface ResolvePolicyOptions {
  tools: readonly ToolDescriptor[];
  client?: ClientOptions;
  env?: Record<string, string | undefined>;
  /** `false`: a missing API key is no error (a command that sends nothing; see ResolveModelOptions). */
  requireKeys?: boolean;
  /** LLM policy: how many candidate tools a plan request lists (default DEFAULT_SHORTLIST_SIZE; 0 = all). */
  shortlist?: number;
}

/** What a model string resolved to: the policy, judge or optimizer itself, and what it runs on. */
export interface Resolved<T> {
  instance: T;
  /** The normalised model string, `offline` for the offline members. */
  spec: string;
  label: string;
  /** The client behind an LLM member (for its counters, and to share between members). */
  client?: LlmClient;
}

export type ResolvedPolicy = Resolved<ExecutionPolicy>;

/** `undefined` → `FLOWSCOUT_MODEL` or `offline`; `offline` → the offline policy; else the LLM policy. */
export async function resolvePolicy(spec: string | undefined, options: ResolvePolicyOptions): Promise<ResolvedPolicy> {
  const env = options.env ?? process.env;
  const chosen = (spec?.trim() || defaultModelSpec(env)).trim();
  if (parseModelSpec(chosen).provider === 'offline') {
    const policy = createOfflinePolicy({ tools: options.tools });
    return { instance: policy, spec: 'offline', label: policy.label };
  }
  const model = await resolveModel(chosen, { env, ...(options.requireKeys === false ? { requireKeys: false } : {}) });
  const client = createLlmClient({ ...options.client, model, env });
  const policy = createLlmPolicy({
    client,
    spec: model.spec,
    tools: options.tools,
    ...(options.shortlist !== undefined ? { shortlist: options.shortlist } : {}),
  });
  return { instance: policy, spec: model.spec, label: policy.label, client };
}

export interface ResolveJudgeOptions {
  client?: ClientOptions;
  /** How an LLM judge asks (default joint: llm-judge.ts; the offline judge ignores it). */
  mode?: JudgeMode;
  env?: Record<string, string | undefined>;
  /** `false`: a missing API key is no error (a command that sends nothing; see ResolveModelOptions). */
  requireKeys?: boolean;
}

export type ResolvedJudge = Resolved<Judge>;

/** `undefined` → `FLOWSCOUT_MODEL` or `offline`; `offline` → the lexical judge; else the LLM (G-Eval) judge. */
export async function resolveJudge(
  spec: string | undefined,
  options: ResolveJudgeOptions = {},
): Promise<ResolvedJudge> {
  const env = options.env ?? process.env;
  const chosen = (spec?.trim() || defaultModelSpec(env)).trim();
  if (parseModelSpec(chosen).provider === 'offline') {
    const judge = createLexicalJudge();
    return { instance: judge, spec: 'offline', label: judge.label };
  }
  const model = await resolveModel(chosen, { env, ...(options.requireKeys === false ? { requireKeys: false } : {}) });
  const client = createLlmClient({ ...options.client, model, env });
  const judge = createLlmJudge({ client, spec: model.spec, ...(options.mode ? { mode: options.mode } : {}) });
  return { instance: judge, spec: model.spec, label: judge.label, client };
}

export interface ResolveOptimizerOptions {
  client?: ClientOptions;
  env?: Record<string, string | undefined>;
  /** `false`: a missing API key is no error (a command that sends nothing; see ResolveModelOptions). */
  requireKeys?: boolean;
}

export type ResolvedOptimizer = Resolved<Optimizer>;

/** `undefined` → `FLOWSCOUT_MODEL` or `offline`; `offline` → the rule-based optimizer; else the LLM optimizer. */
export async function resolveOptimizer(
  spec: string | undefined,
  options: ResolveOptimizerOptions = {},
): Promise<ResolvedOptimizer> {
  const env = options.env ?? process.env;
  const chosen = (spec?.trim() || defaultModelSpec(env)).trim();
  if (parseModelSpec(chosen).provider === 'offline') {
    const optimizer = createRuleBasedOptimizer();
    return { instance: optimizer, spec: 'offline', label: optimizer.label };
  }
  const model = await resolveModel(chosen, { env, ...(options.requireKeys === false ? { requireKeys: false } : {}) });
  const client = createLlmClient({ ...options.client, model, env });
  const optimizer = createLlmOptimizer({ client, spec: model.spec });
  return { instance: optimizer, spec: model.spec, label: optimizer.label, client };
}
