import { jsonSchema } from 'ai';
import { applyEditPlan } from '../../graph/edits/apply-edit-plan.js';
import type { EditPlan } from '../../graph/edits/edit-schema.js';
import type { LlmClient } from '../../llm/client.js';
import { askWithRepair } from '../../llm/ask-with-repair.js';
import { EDIT_PLAN_JSON_SCHEMA, OPTIMIZER_SYSTEM, optimizerPromptParts, repairPrompt } from './llm-optimizer-prompt.js';
import { OptimizerError } from './optimizer-error.js';
import type { Optimizer, Proposal, ProposeInput } from './types.js';

/**
 * The LLM optimizer (docs/DESIGN.md, "Search"): one structured-output call through the LLM
 * client with the workflow, the condensed feedback, the tools, the prompt-template library and the
 * siblings' edits, the edit-plan schema as its response format (stable part of the prompt first:
 * llm-optimizer-prompt.ts). The answer must parse, match the schema, apply
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
      const { stable, variable: first } = optimizerPromptParts({
        ...input,
        toolNodesAllowed: input.toolNodesAllowed !== false,
      });
      const tools = input.tools.map((t) => t.name);
      const result = await askWithRepair(opts.client, {
        request: {
          schema,
          name: 'edit_plan',
          system: OPTIMIZER_SYSTEM,
          stablePrompt: stable,
          prompt: first,
          ...(input.signal ? { signal: input.signal } : {}),
        },
        check: (value) => {
          const applied = applyEditPlan(input.workflow, value, { tools });
          if (!applied.ok) return { ok: false, problems: [applied.error.message] };
          const broken = input.constraint?.(applied.workflow);
          return broken
            ? { ok: false, problems: [broken] }
            : { ok: true, value: { plan: value as EditPlan, workflow: applied.workflow } };
        },
        describeUnparsable: (problem) => `the answer is not a usable JSON object: ${problem}`,
        repair: ({ text, problems }) => ({ prompt: repairPrompt(first, text, problems.join('; ')) }),
      });
      const { usage } = result;
      if (result.kind === 'ok') {
        const { plan, workflow } = result.value;
        const summary = plan.summary?.trim() || plan.edits.map((e) => e.op).join(', ');
        return { plan, workflow, summary, ...(result.round > 1 ? { repaired: true } : {}), usage };
      }
      const plans = result.answers;
      if (result.kind === 'model-error')
        throw new OptimizerError(`the optimizer model failed: ${result.error.message}`, {
          plans,
          ...(usage ? { usage } : {}),
        });
      const problem = result.problems.join('; ');
      throw new OptimizerError(`the optimizer's edit plan was invalid after one repair round: ${problem}`, {
        plans,
        ...(usage ? { usage } : {}),
      });
    },
  };
}
