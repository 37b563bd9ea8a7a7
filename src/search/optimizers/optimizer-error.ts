import { FlowScoutError } from '../../errors/index.js';
import type { Usage } from '../../llm/usage.js';

/**
 * An expansion that produced no valid edit plan (INVALID_EDIT): the LLM's plan failed the schema or
 * `applyEditPlan` twice, or the rule-based optimizer has no new edit for this node. The search
 * records it as a failed child with this message and goes on.
 */
export class OptimizerError extends FlowScoutError {
  readonly plans: unknown[];
  readonly usage: Usage | undefined;

  constructor(message: string, opts: { plans?: unknown[]; usage?: Usage } = {}) {
    super({
      code: 'INVALID_EDIT',
      message,
      hint: 'The search records this expansion as failed and continues.',
      details: { plans: opts.plans ?? [] },
    });
    this.plans = opts.plans ?? [];
    this.usage = opts.usage;
  }
}
