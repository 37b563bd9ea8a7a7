import { createLexicalJudge } from '../metrics/lexical-judge.js';
import { createLlmJudge } from '../metrics/llm-judge.js';
import type { Judge } from '../metrics/types.js';
import { createLlmClient, type LlmClient, type LlmClientOptions } from '../llm/client.js';
import { defaultModelSpec, parseModelSpec } from '../llm/model-spec.js';
import { resolveModel } from '../llm/resolve-model.js';
import type { TaskRecord } from '../records/schema.js';
import type { ToolDescriptor } from '../tools/types.js';
import { createLlmPolicy } from './llm-policy.js';
import { createOfflinePolicy } from './offline/offline-policy.js';
import type { ExecutionPolicy } from './types.js';

/**
 * One place that turns a model string (a flag, `FLOWSCOUT_MODEL`, or nothing) into who decides
 * (DESIGN.md, "Who decides at each node"): `offline` — the default when no model is configured —
 * gives the offline policy and the offline lexical judge; any other model string gives the LLM
 * policy / LLM judge through the registry and a client. The returned label is what output shows.
 */

/** Options of the client made for an LLM policy or judge (limiter, budget, prices, timeouts, …). */
export type ClientOptions = Omit<LlmClientOptions, 'model' | 'spec' | 'env'>;

export interface ResolvePolicyOptions {
  tools: readonly ToolDescriptor[];
  /** The optimisation records the offline policy learns from (never test records). */
  records?: readonly TaskRecord[];
  client?: ClientOptions;
  env?: Record<string, string | undefined>;
}

export interface ResolvedPolicy {
  policy: ExecutionPolicy;
  /** The normalised model string, `offline` for the offline policy. */
  spec: string;
  label: string;
  /** The client behind an LLM policy (for its counters, and to share with the judge). */
  client?: LlmClient;
}

/** `undefined` → `FLOWSCOUT_MODEL` or `offline`; `offline` → the offline policy; else the LLM policy. */
export async function resolvePolicy(spec: string | undefined, options: ResolvePolicyOptions): Promise<ResolvedPolicy> {
  const env = options.env ?? process.env;
  const chosen = (spec?.trim() || defaultModelSpec(env)).trim();
  if (parseModelSpec(chosen).provider === 'offline') {
    const policy = createOfflinePolicy({ tools: options.tools, ...(options.records ? { records: options.records } : {}) });
    return { policy, spec: 'offline', label: policy.label };
  }
  const model = await resolveModel(chosen, { env });
  const client = createLlmClient({ ...options.client, model, env });
  const policy = createLlmPolicy({ client, spec: model.spec, tools: options.tools });
  return { policy, spec: model.spec, label: policy.label, client };
}

export interface ResolveJudgeOptions {
  client?: ClientOptions;
  env?: Record<string, string | undefined>;
}

export interface ResolvedJudge {
  judge: Judge;
  spec: string;
  label: string;
  client?: LlmClient;
}

/** `undefined` → `FLOWSCOUT_MODEL` or `offline`; `offline` → the lexical judge; else the LLM (G-Eval) judge. */
export async function resolveJudge(spec: string | undefined, options: ResolveJudgeOptions = {}): Promise<ResolvedJudge> {
  const env = options.env ?? process.env;
  const chosen = (spec?.trim() || defaultModelSpec(env)).trim();
  if (parseModelSpec(chosen).provider === 'offline') {
    const judge = createLexicalJudge();
    return { judge, spec: 'offline', label: judge.label };
  }
  const model = await resolveModel(chosen, { env });
  const client = createLlmClient({ ...options.client, model, env });
  const judge = createLlmJudge({ client, spec: model.spec });
  return { judge, spec: model.spec, label: judge.label, client };
}
