import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { ToolNode, Workflow } from '../../graph/schema.js';
import { validateWorkflow } from '../../graph/validate.js';
import type { TaskRecord } from '../../records/schema.js';
import { eventLogFromRecords } from '../event-log/from-records.js';
import { parseProcessTree } from '../process-tree/parse.js';
import { processTreeToWorkflow } from '../to-workflow.js';
import { toolReads } from './data-flow.js';

const tool = (name: string, ...params: string[]): ToolDescriptor => ({
  name,
  description: `The ${name.replace(/_/g, ' ')} tool.`,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])),
    required: params,
  },
});
const TOOLS = [
  tool('find_user', 'email'),
  tool('user_details', 'user_id'),
  tool('order_details', 'order_id'),
  tool('cancel_order', 'order_id'),
];

/**
 * A customer-service run: find the user by e-mail, read the user's details (which list the order
 * ids), read an order, cancel it. `orderFirst`: the order was read before the user's details (the
 * request wrote the order id), so the log alone shows the two lookups in either order.
 */
function run(n: number, orderFirst = false): TaskRecord {
  const user = `user_${n}00`;
  const order = `#W${n}000001`;
  const lookupUser = {
    tool: 'user_details',
    args: { user_id: user },
    output: JSON.stringify({ user_id: user, orders: [order] }),
  };
  const lookupOrder = {
    tool: 'order_details',
    args: { order_id: order },
    output: JSON.stringify({ order_id: order, user_id: user, status: 'pending' }),
  };
  return {
    id: `r${n}`,
    query: orderFirst
      ? `Cancel my order ${order}, my e-mail is u${n}@example.com.`
      : `Cancel my pending order, my e-mail is u${n}@example.com.`,
    reference: '',
    calls: [
      { tool: 'find_user', args: { email: `u${n}@example.com` }, output: user },
      ...(orderFirst ? [lookupOrder, lookupUser] : [lookupUser, lookupOrder]),
      { tool: 'cancel_order', args: { order_id: order }, output: 'cancelled' },
    ],
  };
}
const RECORDS = [run(1), run(2), run(3), run(4, true), run(5, true)];
const TREE = "->( 'find_user', +( 'user_details', 'order_details' ), 'cancel_order' )";
const mine = (reads?: Map<string, Set<string>>) =>
  processTreeToWorkflow(parseProcessTree(TREE), {
    tools: TOOLS,
    name: 'orders',
    log: eventLogFromRecords(RECORDS),
    ...(reads ? { reads } : {}),
  });
const stepOf = (w: Workflow, t: string) =>
  w.nodes.find((n): n is ToolNode => n.kind === 'tool' && (n.mined ?? n.tools ?? []).includes(t))!.id;
const inputsOf = (w: Workflow, id: string) => w.edges.filter((e) => e.to === id).map((e) => e.from);

describe('data flow between tools in the runs (docs/DESIGN.md, "Mining")', () => {
  it('finds which tool reads which: a value credited to the first call that returned it, none the request wrote', () => {
    const reads = toolReads(RECORDS);
    expect([...(reads.get('user_details') ?? [])]).toEqual(['find_user']);
    // The order id came from the user's details in three runs; in two the request wrote it.
    expect([...(reads.get('order_details') ?? [])]).toEqual(['user_details']);
    // The user id in the order details repeats one found earlier: the order lookup is no source of it.
    expect(reads.get('cancel_order')).toEqual(new Set(['user_details']));
    expect(reads.has('find_user')).toBe(false);
  });

  it('lays out a parallel block whose branches pass data as a sequence, the reading step last', () => {
    const parallel = mine();
    expect(validateWorkflow(parallel, TOOLS)).toEqual([]);
    const p = { user: stepOf(parallel, 'user_details'), order: stepOf(parallel, 'order_details') };
    // Without the data flow, both lookups hang off the user search side by side.
    expect(inputsOf(parallel, p.order)).not.toContain(p.user);

    const sequenced = mine(toolReads(RECORDS));
    expect(validateWorkflow(sequenced, TOOLS)).toEqual([]);
    const s = { user: stepOf(sequenced, 'user_details'), order: stepOf(sequenced, 'order_details') };
    // (Every step also reads the plan.)
    expect(inputsOf(sequenced, s.order).filter((x) => x !== 'plan')).toEqual([s.user]);
    expect(inputsOf(sequenced, s.user).filter((x) => x !== 'plan')).toEqual([stepOf(sequenced, 'find_user')]);
  });

  it('keeps a block parallel when its branches read each other both ways', () => {
    const both = new Map([
      ['order_details', new Set(['user_details'])],
      ['user_details', new Set(['order_details'])],
    ]);
    const w = mine(both);
    expect(inputsOf(w, stepOf(w, 'order_details'))).not.toContain(stepOf(w, 'user_details'));
    expect(inputsOf(w, stepOf(w, 'user_details'))).not.toContain(stepOf(w, 'order_details'));
  });
});
