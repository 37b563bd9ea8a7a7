import { applyEditPlan } from '../../graph/edits/apply-edit-plan.js';
import { OptimizerError } from './optimizer-error.js';
import { ruleEdits } from './rule-edits.js';
import type { Optimizer, Proposal, ProposeInput } from './types.js';

/**
 * The offline rule-based optimizer (docs/DESIGN.md, "Policies": the optimizer follows the same pattern
 * as the policies — LLM, or offline rule-based). It turns the node's feedback into candidate edits
 * (rule-edits.ts), ranks them by score, a candidate's bindings first (ties broken by the
 * iteration's seeded random order), and proposes the best one that no sibling already made, that
 * applies to a valid workflow, that keeps the variant's constraint and that does not give a workflow
 * the run already has. So each child of a node gets a *different* edit, bindings and then the best
 * evidence first. Deterministic given the feedback and seed.
 */
export const RULE_BASED_LABEL = 'rule-based optimizer (offline)';

/**
 * Bindings are proposed before any other edit. They change only where a parameter's value comes
 * from, each program was checked on the optimisation records' reference calls, and the validation
 * split decides whether the search keeps them; ranked by their evidence (a few calls each) they came
 * after every structural and prompt edit and a search stopped before it tried them.
 */
const first = (e: { group?: string }) => (e.group === 'bind' ? 1 : 0);

/** Creates the rule-based optimizer (`id: rules`, kind offline). */
export function createRuleBasedOptimizer(): Optimizer {
  return {
    id: 'rules',
    kind: 'offline',
    label: RULE_BASED_LABEL,
    async propose(input: ProposeInput): Promise<Proposal> {
      const tools = new Map(input.tools.map((t) => [t.name, t]));
      const allowToolNodes = input.toolNodesAllowed !== false;
      const candidates = input.random
        .shuffle(ruleEdits({ workflow: input.workflow, feedback: input.feedback, tools, allowToolNodes }))
        .map((e, i) => ({ e, i }))
        .sort((a, b) => first(b.e) - first(a.e) || b.e.score - a.e.score || a.i - b.i)
        .map((x) => x.e);
      const siblings = new Set(input.siblings);
      let tried = 0;
      for (const c of candidates) {
        if (c.score <= 0 || siblings.has(c.summary)) continue;
        tried++;
        const applied = applyEditPlan(input.workflow, c.plan, { tools: input.tools });
        if (!applied.ok) continue;
        if (input.constraint?.(applied.workflow)) continue;
        if (input.isKnown?.(applied.workflow)) continue;
        return { plan: c.plan, workflow: applied.workflow, summary: c.summary };
      }
      throw new OptimizerError(
        candidates.length === 0
          ? 'the rule-based optimizer found no edit in this feedback'
          : `the rule-based optimizer has no new edit for this candidate (${candidates.length} edits from its feedback: ${tried} tried were invalid or give known workflows, the rest are its siblings)`,
      );
    },
  };
}
