import { describe, expect, it } from 'vitest';
import { executeWorkflow } from '../../src/runtime/execute.js';
import { createScriptedPolicy } from '../../src/testing/scripted-policy.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { planToolAnswer } from '../support/workflows.js';

/**
 * A write whose free-text argument comes from nowhere must not reach a live tool, even when the
 * word is a field name of an earlier output. The case found on real runs (tau-bench's retail tool
 * set, `transfer_to_human_agents(summary: "IDs")`): an order lookup answers JSON text with an
 * `item_ids` field, and the word `IDs` of the summary was taken as written there. A field name is
 * the tool's vocabulary, not a record's value: it grounds nothing. The lookup's output is shaped as
 * the retail tool set's `get_order_details` answers (values made up for this test).
 */

const ORDER = {
  order_id: '#W2378156',
  user_id: 'yusuf_rossi_9620',
  items: [{ name: 'Mechanical Keyboard', product_id: '1656367028', item_id: '1151293680', price: 272.33 }],
  fulfillments: [{ tracking_id: ['843053632392'], item_ids: ['1151293680'] }],
  status: 'delivered',
};

function tools(transfers: string[]) {
  return createToolRegistry([
    defineTool({
      name: 'get_order_details',
      description: 'Get the status and details of an order.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      execute: () => JSON.stringify(ORDER),
    }),
    defineTool({
      name: 'transfer_to_human_agents',
      description: "Transfer the user to a human agent, with a summary of the user's issue.",
      effect: 'write',
      inputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
      execute: (args) => {
        transfers.push(String(args.summary));
        return 'Transfer successful';
      },
    }),
  ]);
}

const QUERY = 'I am Yusuf Rossi. My order #W2378156 arrived broken, I want to talk to a person.';
const WORKFLOW = planToolAnswer({
  name: 'Desk',
  tool: {
    id: 'desk',
    task: 'Help the customer',
    tools: ['get_order_details', 'transfer_to_human_agents'],
    calls: 'many',
  },
});

async function run(summary: string): Promise<{ transfers: string[]; why: string | undefined }> {
  const transfers: string[] = [];
  const policy = createScriptedPolicy({
    tool: () => [
      { tool: 'get_order_details', args: { order_id: '#W2378156' } },
      { tool: 'transfer_to_human_agents', args: { summary } },
    ],
  });
  const trace = await executeWorkflow(WORKFLOW, { query: QUERY }, { policy, tools: tools(transfers) });
  expect(trace.calls[0]).toMatchObject({ tool: 'get_order_details', status: 'ok' });
  return { transfers, why: trace.withheld?.[0]?.why };
}

describe('field names of earlier outputs ground no value', () => {
  it('transfer_to_human_agents(summary: "IDs") after a lookup answering `item_ids` is withheld and reaches no tool', async () => {
    const { transfers, why } = await run('IDs');
    expect(transfers).toEqual([]);
    expect(why).toMatch(
      /^not run: write withheld: write call transfer_to_human_agents has ungrounded argument 'summary' \("IDs"\)/,
    );
    // Other field names of the output fare alike.
    expect((await run('fulfillments')).transfers).toEqual([]);
    expect((await run('tracking')).transfers).toEqual([]);
  });

  it('a summary made of the request and the lookup’s values is made', async () => {
    const { transfers, why } = await run('order #W2378156 arrived broken, mechanical keyboard');
    expect(why).toBeUndefined();
    expect(transfers).toEqual(['order #W2378156 arrived broken, mechanical keyboard']);
  });
});
