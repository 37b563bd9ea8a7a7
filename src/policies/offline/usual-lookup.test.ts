import { describe, expect, it } from 'vitest';
import type { ToolNode, Workflow } from '../../graph/schema.js';
import { lookupChain, lookupTool, USER_LOOKUPS } from '../../../test/support/lookup-chain.js';
import { executeWorkflow } from '../../runtime/execute.js';
import { createToolRegistry } from '../../tools/registry.js';
import { createOfflinePolicy } from './offline-policy.js';

// A chain of lookups the request does not name (docs/DESIGN.md, "Policies": usual lookups): the
// request says who the user is and what to do, and the step between needs only what the first found.
const TOOLS = [
  ...USER_LOOKUPS,
  lookupTool('cancel_pending_order', 'Cancel a pending order.', 'order_id', "The order id, such as '#W0000000'."),
];
const OUTPUTS: Record<string, unknown> = {
  find_user_id_by_email: 'ana_lee_101',
  get_user_details: JSON.stringify({ name: { first_name: 'Ana' }, orders: ['#W1001'] }),
  cancel_pending_order: JSON.stringify({ order_id: '#W1001', status: 'cancelled' }),
};

const chain = (middle: Partial<ToolNode> = {}): Workflow =>
  lookupChain([
    { tool: 'find_user_id_by_email' },
    { tool: 'get_user_details', ...middle },
    { tool: 'cancel_pending_order' },
  ]);

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
    // The optional step makes no call of its own (a later step may still look the user up).
    const registry = createToolRegistry(TOOLS.map((t) => ({ ...t, execute: async () => OUTPUTS[t.name] })));
    const optional = await executeWorkflow(
      chain({ optional: true, calls: 'many' }),
      { query },
      { policy: createOfflinePolicy({ tools: TOOLS }), tools: registry },
    );
    expect(optional.observations.find((o) => o.nodeId === 'step_2')).toMatchObject({ status: 'ok', calls: [] });
    expect(await calls(chain(), 'Find my account by my email ana@example.com.')).toEqual([
      'find_user_id_by_email(ana@example.com)',
    ]);
  });
});
