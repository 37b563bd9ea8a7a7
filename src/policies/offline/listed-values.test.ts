import { describe, expect, it } from 'vitest';
import type { ToolHint, Workflow } from '../../graph/schema.js';
import { lookupChain, lookupTool, USER_LOOKUPS } from '../../../test/support/lookup-chain.js';
import { executeWorkflow } from '../../runtime/execute.js';
import { createToolRegistry } from '../../tools/registry.js';
import { createOfflinePolicy } from './offline-policy.js';

// A repeating step over a list an earlier step returned (docs/DESIGN.md, "Policies"): the user lookup
// lists the user's orders, and the step the hint says repeats over `order_id`, with values from
// earlier outputs, looks up each of them.
const TOOLS = [
  ...USER_LOOKUPS,
  lookupTool(
    'get_order_details',
    'Get the status and items of an order.',
    'order_id',
    "The order id, such as '#W0000000'.",
  ),
];
const OUTPUTS: Record<string, (args: Record<string, unknown>) => unknown> = {
  find_user_id_by_email: () => 'ana_lee_101',
  get_user_details: () => JSON.stringify({ name: { first_name: 'Ana' }, orders: ['#W1001', '#W1002', '#W1003'] }),
  get_order_details: (args) => JSON.stringify({ order_id: args.order_id, status: 'pending' }),
};

const chain = (orderHint?: ToolHint): Workflow =>
  lookupChain([
    { tool: 'find_user_id_by_email' },
    { tool: 'get_user_details' },
    { tool: 'get_order_details', calls: 'many', ...(orderHint ? { hints: [orderHint] } : {}) },
  ]);

async function orderLookups(workflow: Workflow, query: string): Promise<string[]> {
  const registry = createToolRegistry(TOOLS.map((t) => ({ ...t, execute: async (args) => OUTPUTS[t.name]!(args) })));
  const trace = await executeWorkflow(
    workflow,
    { query },
    { policy: createOfflinePolicy({ tools: TOOLS }), tools: registry },
  );
  return trace.calls.filter((c) => c.tool === 'get_order_details').map((c) => String(c.args.order_id));
}

const fromLookups = (from: { upstream?: number; request?: number }): ToolHint => ({
  tool: 'get_order_details',
  repeat: 'order_id',
  params: { order_id: { from, keys: { orders: 1 } } },
});

describe('a repeating step over a list an earlier output gives, under the offline policy', () => {
  const query = 'Find my account by my email ana@example.com. Then tell me the status and items of each of my orders.';

  it('looks up every listed value when the hint says repeated calls vary it and it comes from earlier outputs', async () => {
    expect(await orderLookups(chain(fromLookups({ upstream: 0.9, request: 0.1 })), query)).toEqual([
      '#W1001',
      '#W1002',
      '#W1003',
    ]);
  });

  it('does so as well when the step is handed several parts of the request', async () => {
    const parts =
      'Find my account by my email ana@example.com. Then tell me the status of each of my orders. Also list the items of my orders.';
    expect(await orderLookups(chain(fromLookups({ upstream: 0.9, request: 0.1 })), parts)).toEqual([
      '#W1001',
      '#W1002',
      '#W1003',
    ]);
  });

  it('makes one call without such a hint, or when the values mostly came from requests', async () => {
    expect(await orderLookups(chain(), query)).toEqual(['#W1001']);
    expect(await orderLookups(chain(fromLookups({ upstream: 0.2, request: 0.8 })), query)).toEqual(['#W1001']);
  });
});
