import type { Agent } from '../baselines/agent.js';
import { createLlmReact } from '../baselines/react/react-llm.js';
import { createOfflineReact } from '../baselines/react/react-offline.js';
import { createToolShortlister, DEFAULT_SHORTLIST_SIZE } from '../../policies/tool-shortlist.js';
import type { ModelWiring } from '../../wiring/wire-models.js';
import type { DomainEnv } from './domain-env.js';

/**
 * ReAct over a benchmark domain's tools: the AI SDK tool loop over `model` (through the run's one
 * rate limiter, offered the same tool shortlist as the workflows' tool nodes), or the part-by-part
 * loop offline.
 */
export async function reactAgent(env: DomainEnv, model: string, wiring: ModelWiring): Promise<Agent> {
  if (model === 'offline') return createOfflineReact({ tools: env.tools, policy: env.policy.instance });
  // The same tool shortlist as the LLM policy's tool nodes (T and the request alone).
  const shortlist = {
    shortlister: createToolShortlister({ tools: env.tools.list() }),
    size: DEFAULT_SHORTLIST_SIZE,
  };
  return createLlmReact({
    model: await wiring.languageModel(model),
    tools: env.tools,
    limiter: wiring.limiter,
    shortlist,
  });
}
