import { jsonSchema } from 'ai';
import { isFlowScoutError } from '../../errors/index.js';
import { applyEditPlan } from '../../graph/edits/apply-edit-plan.js';
import type { EditPlan } from '../../graph/edits/edit-schema.js';
import type { LlmClient } from '../../llm/client.js';
import { isInvalidModelOutput } from '../../llm/llm-errors.js';
import { addUsage, type Usage } from '../../llm/usage.js';
import { EDIT_PLAN_JSON_SCHEMA, OPTIMIZER_SYSTEM, optimizerPrompt, repairPrompt } from './llm-optimizer-prompt.js';
import { OptimizerError } from './optimizer-error.js';
import type { Optimizer, Proposal, ProposeInput } from './types.js';

/**
 * The LLM optimizer (docs/DESIGN.md, "Search"): one structured-output call through the LLM
 * client with the workflow, the condensed feedback, the tools, the prompt-template library, the
 * siblings' edits and the edit-plan schema. The answer must parse, match the schema, apply
 * (`applyEditPlan`, which validates the result against T) and keep the variant's constraint; if it
 * does not, one repair round sends the answer and the exact problem back. A second failure throws
 * OptimizerError (the search records a failed expansion and goes on). Transport failures
 * (MODEL_ERROR after the client's retries) are failures of the expansion too; an exhausted budget
 * or a cancellation propagates.
 */
export function createLlmOptimizer(opts: { client: LlmClient; spec?: string }): Optimizer {
  const spec = opts.spec ?? opts.client.spec;
  const schema = jsonSchema<EditPlan>(EDIT_PLAN_JSON_SCHEMA as never);
  return {
    id: `llm:${spec}`,
    kind: 'llm',
    label: `LLM optimizer (${spec})`,
    async propose(input: ProposeInput): Promise<Proposal> {
      const first = optimizerPrompt({ ...input, toolNodesAllowed: input.toolNodesAllowed !== false });
      const tools = input.tools.map((t) => t.name);
      let usage: Usage | undefined;
      const plans: unknown[] = [];
      let prompt = first;
      let problem = '';
      for (let round = 1; round <= 2; round++) {
        let text = '';
        let value: unknown;
        try {
          const r = await opts.client.object({ schema, name: 'edit_plan', system: OPTIMIZER_SYSTEM, prompt, ...(input.signal ? { signal: input.signal } : {}) });
          usage = addUsage(usage, r.usage);
          text = r.text;
          value = r.value;
        } catch (e) {
          if (isInvalidModelOutput(e)) {
            usage = addUsage(usage, e.usage);
            text = e.text;
            problem = `the answer is not a usable JSON object: ${e.problem}`;
            plans.push(e.text);
            prompt = repairPrompt(first, text, problem);
            continue;
          }
          if (isFlowScoutError(e) && e.code === 'MODEL_ERROR') throw new OptimizerError(`the optimizer model failed: ${e.message}`, { plans, ...(usage ? { usage } : {}) });
          throw e;
        }
        plans.push(value);
        const applied = applyEditPlan(input.workflow, value, { tools });
        if (applied.ok) {
          const broken = input.constraint?.(applied.workflow);
          if (!broken) {
            const plan = value as EditPlan;
            const summary = plan.summary?.trim() || plan.edits.map((e) => e.op).join(', ');
            return { plan, workflow: applied.workflow, summary, ...(round > 1 ? { repaired: true } : {}), ...(usage ? { usage } : {}) };
          }
          problem = broken;
        } else problem = applied.error.message;
        prompt = repairPrompt(first, text || JSON.stringify(value), problem);
      }
      throw new OptimizerError(`the optimizer's edit plan was invalid after one repair round: ${problem}`, { plans, ...(usage ? { usage } : {}) });
    },
  };
}
