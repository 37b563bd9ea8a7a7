import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { makeLlmNode } from '../../graph/prompt-templates.js';
import type { ToolNode, Workflow } from '../../graph/schema.js';
import { executeWorkflow } from '../../runtime/execute.js';
import { createToolRegistry } from '../../tools/registry.js';
import { createOfflinePolicy } from './offline-policy.js';

// A chain of lookups the request does not name (docs/DESIGN.md, "Policies": usual lookups): the
// request says who the user is and what to do, and the step between needs only what the first found.
const tool = (name: string, description: string, param: string, about: string): ToolDescriptor => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { [param]: { type: 'string', description: about } }, required: [param] },
});
const TOOLS = [
  tool('find_user_id_by_email', 'Find a user id by email.', 'email', "The email, such as 'a@b.com'."),
  tool(
    'get_user_details',
    'Get the details of a user, with their orders.',
    'user_id',
    "The user id, such as 'sara_doe_496'.",
  ),
  tool('cancel_pending_order', 'Cancel a pending order.', 'order_id', "The order id, such as '#W0000000'."),
];
const OUTPUTS: Record<string, unknown> = {
  find_user_id_by_email: 'ana_lee_101',
  get_user_details: JSON.stringify({ name: { first_name: 'Ana' }, orders: ['#W1001'] }),
  cancel_pending_order: JSON.stringify({ order_id: '#W1001', status: 'cancelled' }),
};

function chain(middle: Partial<ToolNode> = {}): Workflow {
  const step = (k: number, t: string, extra: Partial<ToolNode> = {}): ToolNode => ({
    id: `step_${k}`,
    kind: 'tool',
    task: `Step ${k}: look up what this step of the request needs.`,
    mined: [t],
    ...extra,
  });
  return {
    version: 1,
    name: 'chain',
    nodes: [
      makeLlmNode('plan', 'plan'),
      step(1, 'find_user_id_by_email'),
      step(2, 'get_user_details', middle),
      step(3, 'cancel_pending_order'),
      makeLlmNode('synthesize', 'synthesize'),
    ],
    edges: [
      { from: 'plan', to: 'step_1', kind: 'data' },
      { from: 'step_1', to: 'step_2', kind: 'data' },
      { from: 'step_2', to: 'step_3', kind: 'data' },
      ...[1, 2, 3].map((k) => ({ from: `step_${k}`, to: 'synthesize', kind: 'data' as const })),
    ],
  };
}

async function calls(workflow: Workflow, query: string): Promise<string[]> {
  const registry = createToolRegistry(TOOLS.map((t) => ({ ...t, execute: async () => OUTPUTS[t.name] })));
  const trace = await executeWorkflow(
    workflow,
    { query },
    { policy: createOfflinePolicy({ tools: TOOLS }), tools: registry },
  );
  return trace.calls.map((c) => `${c.tool}(${Object.values(c.args).join(', ')})`);
}

describe('usual lookups under the offline policy', () => {
  const query = 'Find my account by my email ana@example.com, then cancel my pending order.';

  it('a step most runs made, handed no part, looks up what a later step needs from what the earlier one found', async () => {
    expect(await calls(chain(), query)).toEqual([
      'find_user_id_by_email(ana@example.com)',
      'get_user_details(ana_lee_101)',
      'cancel_pending_order(#W1001)',
    ]);
  });

  it('an optional step, or one with no later step handed a part, makes no such call', async () => {
    const optional = await calls(chain({ optional: true, calls: 'many' }), query);
    expect(optional).not.toContain('get_user_details(ana_lee_101)');
    expect(await calls(chain(), 'Find my account by my email ana@example.com.')).toEqual([
      'find_user_id_by_email(ana@example.com)',
    ]);
  });
});
