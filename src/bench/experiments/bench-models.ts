import { createLlmClient } from '../../llm/client.js';
import { defaultModelSpec, parseModelSpec } from '../../llm/model-spec.js';
import type { RateLimiter } from '../../llm/rate-limiter.js';
import { resolveModel } from '../../llm/resolve-model.js';
import { resolveJudge, type ResolvedJudge } from '../../policies/resolve-policy.js';
import { createLlmOptimizer } from '../../search/optimizers/llm-optimizer.js';
import { createRuleBasedOptimizer } from '../../search/optimizers/rule-based.js';
import type { Optimizer } from '../../search/optimizers/types.js';
import type { Agent } from '../baselines/agent.js';
import { createLlmReact } from '../baselines/react/react-llm.js';
import { createOfflineReact } from '../baselines/react/react-offline.js';
import type { DomainEnv } from './domain-env.js';

/**
 * Who decides in a benchmark run, from model strings (the same rules as `flowscout search`): no
 * model → the offline policy, the offline lexical judge and the rule-based optimizer; a model →
 * the LLM policy, the LLM optimizer, and the LLM judge unless `--judge-model offline`. One rate
 * limiter is shared by every model client of the run, the ReAct tool loop included.
 */

/** `undefined`/empty → FLOWSCOUT_MODEL or `offline`. */
export function chosenModel(spec: string | undefined, env: Record<string, string | undefined>): string {
  const chosen = (spec?.trim() || defaultModelSpec(env)).trim();
  return parseModelSpec(chosen).provider === 'offline' ? 'offline' : chosen;
}

export async function benchJudge(judgeModel: string | undefined, model: string, limiter: RateLimiter, env: Record<string, string | undefined>): Promise<ResolvedJudge> {
  return resolveJudge(chosenModel(judgeModel ?? model, env), { client: { limiter }, env });
}

export async function benchOptimizer(model: string, limiter: RateLimiter, env: Record<string, string | undefined>): Promise<Optimizer> {
  if (model === 'offline') return createRuleBasedOptimizer();
  const resolved = await resolveModel(model, { env });
  return createLlmOptimizer({ client: createLlmClient({ model: resolved, env, limiter }), spec: resolved.spec });
}

/** ReAct over the domain's tools: the AI SDK tool loop with a model, the clause-by-clause loop offline. */
export async function benchReact(env: DomainEnv, model: string, limiter: RateLimiter, vars: Record<string, string | undefined>): Promise<Agent> {
  if (model === 'offline') return createOfflineReact({ tools: env.tools, policy: env.policy.policy, opt: env.split.opt });
  return createLlmReact({ model: await resolveModel(model, { env: vars }), tools: env.tools, limiter });
}
