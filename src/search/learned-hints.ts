import { applyEditPlanOrThrow } from '../graph/edits/apply-edit-plan.js';
import type { Workflow } from '../graph/schema.js';
import type { ToolDescriptor, ToolRegistry } from '../contracts/tools.js';
import { evaluateWorkflow } from '../evaluate/evaluate.js';
import type { Judge } from '../metrics/types.js';
import type { ExecutionPolicy } from '../policies/types.js';
import type { TaskRecord } from '../records/schema.js';

/**
 * A workflow with the hints the search learns first: it is run on `records` (the optimisation
 * split), and every hint the feedback proposes (evaluate/feedback-hints.ts) is set where it proposes
 * it, as the rule optimizer's first hint plan does. For benchmarks and tests that measure what the
 * hints give a workflow without running a whole search.
 */
export async function withLearnedHints(
  workflow: Workflow,
  records: readonly TaskRecord[],
  opts: { policy: ExecutionPolicy; tools: ToolRegistry; judge: Judge; descriptors: readonly ToolDescriptor[] },
): Promise<Workflow> {
  const ev = await evaluateWorkflow(workflow, records, {
    policy: opts.policy,
    tools: opts.tools,
    judge: opts.judge,
    concurrency: 4,
  });
  const proposals = ev.feedback?.patterns.flatMap((p) => (p.kind === 'hints' ? p.proposals : [])) ?? [];
  if (proposals.length === 0) return workflow;
  return applyEditPlanOrThrow(
    workflow,
    {
      edits: proposals.map(({ node, tool, hint }) => {
        const { tool: _tool, ...rest } = hint;
        return { op: 'set_hint' as const, id: node, tool, hint: rest };
      }),
    },
    { tools: opts.descriptors },
  );
}
