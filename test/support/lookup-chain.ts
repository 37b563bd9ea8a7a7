import type { ToolDescriptor } from '../../src/contracts/tools.js';
import { makeLlmNode } from '../../src/graph/prompt-templates.js';
import type { ToolNode, Workflow } from '../../src/graph/schema.js';

/**
 * A chain of lookups for the offline policy's tests (usual lookups, repeats over listed values):
 * tools that each take one required string, and a workflow plan → step_1 … step_n → synthesize
 * whose steps are generic positions mined with one tool each, in order.
 */

/** A tool with one required string parameter, described as the tool's documentation would. */
export function lookupTool(name: string, description: string, param: string, about: string): ToolDescriptor {
  return {
    name,
    description,
    inputSchema: { type: 'object', properties: { [param]: { type: 'string', description: about } }, required: [param] },
  };
}

/** A user lookup by e-mail (it answers with the user id itself) and the user's details (with their orders). */
export const USER_LOOKUPS: readonly ToolDescriptor[] = [
  lookupTool('find_user_id_by_email', 'Find a user id by email.', 'email', "The email, such as 'a@b.com'."),
  lookupTool(
    'get_user_details',
    'Get the details of a user, with their orders.',
    'user_id',
    "The user id, such as 'sara_doe_496'.",
  ),
];

/** plan → one step per entry (its tool in `mined`, the rest of the entry set on the node) → synthesize; every step also feeds synthesize. */
export function lookupChain(steps: ReadonlyArray<{ tool: string } & Partial<ToolNode>>): Workflow {
  const ids = steps.map((_, k) => `step_${k + 1}`);
  return {
    version: 1,
    name: 'chain',
    nodes: [
      makeLlmNode('plan', 'plan'),
      ...steps.map(({ tool, ...extra }, k): ToolNode => ({
        id: ids[k]!,
        kind: 'tool',
        task: `Step ${k + 1}: look up what this step of the request needs.`,
        mined: [tool],
        ...extra,
      })),
      makeLlmNode('synthesize', 'synthesize'),
    ],
    edges: [
      ...ids.map((id, k) => ({ from: k === 0 ? 'plan' : ids[k - 1]!, to: id, kind: 'data' as const })),
      ...ids.map((id) => ({ from: id, to: 'synthesize', kind: 'data' as const })),
    ],
  };
}
