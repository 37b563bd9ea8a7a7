import { defineTool } from '../../src/tools/define-tool.js';
import type { TaskRecord } from '../../src/records/schema.js';

/**
 * A small stateful tool set for the tests of tool effects: function tools over an in-memory store
 * of orders that can be looked up (`get_order`, read), listed (`list_orders`, read: every order,
 * or those of one status), changed (`change_order_address`, write), put on hold in bulk
 * (`hold_orders`, write, a map-shaped argument `{orders: {"<order id>": "<reason>"}}`) and
 * cancelled (`cancel_order`, destructive). A withheld or a made write shows in the store's state,
 * not only in a trace; the calls that reached the store are kept (`writesMade`, `readsMade`).
 *
 * The store lives on `globalThis`, so the copy of this module a tool config loads (the functions
 * source imports it by file URL) and the copy a test imports share it within one process.
 * `orderRecords()` are synthetic records of customers asking to cancel or re-address their orders,
 * made up for these tests (no dataset).
 */

export interface Order {
  id: string;
  customer: string;
  email: string;
  item: string;
  address: string;
  status: 'open' | 'held' | 'cancelled';
  cancelReason?: string;
  holdReason?: string;
  refundTo?: string;
}

interface OrderStore {
  orders: Map<string, Order>;
  /** Every write or destructive call that reached the store, in order. */
  writes: Array<{ tool: string; args: Record<string, unknown> }>;
  /** Every read call that reached the store, in order. */
  reads: Array<{ tool: string; args: Record<string, unknown> }>;
}

const KEY = Symbol.for('flowscout.test.orderStore');

function store(): OrderStore {
  const g = globalThis as unknown as Record<symbol, OrderStore | undefined>;
  return (g[KEY] ??= { orders: new Map(), writes: [], reads: [] });
}

const NAMES = [
  'Ada Byron',
  'Ben Okafor',
  'Chen Wei',
  'Dara Singh',
  'Eli Novak',
  'Fay Moreau',
  'Gus Lindqvist',
  'Hana Sato',
  'Ivo Petrov',
  'Jun Park',
];
const ITEMS = ['desk lamp', 'kettle', 'backpack', 'headphones', 'yoga mat'];
const STREETS = ['Elm Street', 'Harbour Road', 'Mill Lane', 'Station Avenue', 'Kings Way'];

/** The initial orders: 1001 … 10NN, each with its own customer, e-mail, item and address. */
export function initialOrders(count = 20): Order[] {
  return Array.from({ length: count }, (_, i) => {
    const customer = NAMES[i % NAMES.length]!;
    return {
      id: String(1001 + i),
      customer,
      email: `${customer.split(' ')[0]!.toLowerCase()}.${i + 1}@example.com`,
      item: ITEMS[i % ITEMS.length]!,
      address: `${10 + i} ${STREETS[i % STREETS.length]}`,
      status: 'open',
    };
  });
}

/** Puts the store back to `orders` (default: `initialOrders()`) and forgets the writes made. */
export function resetOrders(orders: readonly Order[] = initialOrders()): void {
  const s = store();
  s.orders = new Map(orders.map((o) => [o.id, { ...o }]));
  s.writes = [];
  s.reads = [];
}

/** A copy of every order, by id. */
export function orderState(): Order[] {
  return [...store().orders.values()].map((o) => ({ ...o })).sort((a, b) => a.id.localeCompare(b.id));
}

/** The write and destructive calls that reached the store since the last reset. */
export function writesMade(): Array<{ tool: string; args: Record<string, unknown> }> {
  return store().writes.map((w) => ({ tool: w.tool, args: { ...w.args } }));
}

/** The read calls that reached the store since the last reset. */
export function readsMade(): Array<{ tool: string; args: Record<string, unknown> }> {
  return store().reads.map((r) => ({ tool: r.tool, args: { ...r.args } }));
}

/** Notes a read call that reached the store (for read tools defined beside this tool set). */
export function noteRead(tool: string, args: Record<string, unknown>): void {
  store().reads.push({ tool, args: { ...args } });
}

function orderOf(id: unknown): Order {
  const order = store().orders.get(String(id));
  if (!order) throw new Error(`no order ${String(id)}`);
  return order;
}

export const getOrder = defineTool({
  name: 'get_order',
  description: 'Look up an order by its id: item, delivery address and status.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: { order_id: { type: 'string', description: 'the order id, e.g. 1001' } },
    required: ['order_id'],
  },
  execute: (args) => {
    store().reads.push({ tool: 'get_order', args: { ...args } });
    const o = orderOf(args.order_id);
    return { order_id: o.id, item: o.item, address: o.address, status: o.status };
  },
});

export const changeOrderAddress = defineTool({
  name: 'change_order_address',
  description: 'Change the delivery address of an open order.',
  effect: 'write',
  idempotent: true,
  inputSchema: {
    type: 'object',
    properties: { order_id: { type: 'string' }, address: { type: 'string', description: 'the new delivery address' } },
    required: ['order_id', 'address'],
  },
  execute: (args) => {
    const o = orderOf(args.order_id);
    store().writes.push({ tool: 'change_order_address', args: { ...args } });
    if (o.status !== 'open') throw new Error(`order ${o.id} is ${o.status}`);
    o.address = String(args.address);
    return { order_id: o.id, address: o.address, status: o.status };
  },
});

export const cancelOrder = defineTool({
  name: 'cancel_order',
  description: 'Cancel an open order (cannot be undone).',
  effect: 'destructive',
  inputSchema: {
    type: 'object',
    properties: {
      order_id: { type: 'string' },
      reason: { type: 'string', description: 'why the customer cancels' },
      refund_to: { type: 'string', description: 'the payment method the refund goes to' },
    },
    required: ['order_id', 'reason', 'refund_to'],
  },
  execute: (args) => {
    const o = orderOf(args.order_id);
    store().writes.push({ tool: 'cancel_order', args: { ...args } });
    if (o.status !== 'open') throw new Error(`order ${o.id} is already ${o.status}`);
    o.status = 'cancelled';
    o.cancelReason = String(args.reason);
    o.refundTo = String(args.refund_to);
    return { order_id: o.id, status: o.status, refund_to: o.refundTo };
  },
});

export const listOrders = defineTool({
  name: 'list_orders',
  description:
    "List the shop's orders (id, customer, e-mail, item, address, status), optionally only those of one status.",
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['open', 'held', 'cancelled'], description: 'only orders of this status' },
    },
  },
  execute: (args) => {
    store().reads.push({ tool: 'list_orders', args: { ...args } });
    return [...store().orders.values()]
      .filter((o) => args.status === undefined || o.status === args.status)
      .map((o) => ({
        order_id: o.id,
        customer: o.customer,
        email: o.email,
        item: o.item,
        address: o.address,
        status: o.status,
      }));
  },
});

export const holdOrders = defineTool({
  name: 'hold_orders',
  description: 'Put open orders on hold, each with its reason: {"orders": {"<order id>": "<reason>"}}.',
  effect: 'write',
  idempotent: true,
  inputSchema: {
    type: 'object',
    properties: {
      orders: {
        type: 'object',
        description: 'order id -> why it is held',
        additionalProperties: { type: 'string' },
        minProperties: 1,
      },
    },
    required: ['orders'],
  },
  execute: (args) => {
    const orders = args.orders as Record<string, string>;
    const held = Object.keys(orders).map((id) => orderOf(id));
    store().writes.push({ tool: 'hold_orders', args: { orders: { ...orders } } });
    for (const o of held) {
      if (o.status !== 'open') throw new Error(`order ${o.id} is ${o.status}`);
      o.status = 'held';
      o.holdReason = orders[o.id]!;
    }
    return held.map((o) => ({ order_id: o.id, status: o.status }));
  },
});

export const tools = [getOrder, listOrders, changeOrderAddress, holdOrders, cancelOrder];

const REASONS = [
  'it arrived broken',
  'I ordered the wrong size',
  'it is too late for the trip',
  'I found it cheaper elsewhere',
];
/** Payment methods the refunds of the records go to: each recurs in several records (another customer's, for any new request). */
export const PAYMENT_METHODS = ['card-4242', 'wallet-7731'];

/**
 * Synthetic records over `initialOrders(count)`: even ones cancel their order (look it up, then
 * cancel it with the reason given, refunded to the payment method the customer names), odd ones
 * move it to a new address (look it up, then change it).
 * The calls' outputs are what the tools answer on a fresh store.
 */
export function orderRecords(count = 20): TaskRecord[] {
  return initialOrders(count).map((o, i) => {
    const lookup = {
      tool: 'get_order',
      args: { order_id: o.id },
      output: { order_id: o.id, item: o.item, address: o.address, status: 'open' },
      status: 'ok' as const,
    };
    if (i % 2 === 0) {
      const reason = REASONS[(i / 2) % REASONS.length]!;
      const refund = PAYMENT_METHODS[(i / 2) % PAYMENT_METHODS.length]!;
      return {
        id: `cancel-${o.id}`,
        query: `Hi, this is ${o.customer} (${o.email}). Please look up my order ${o.id}. Then cancel order ${o.id}, ${reason}. Refund to ${refund}.`,
        reference: `Order ${o.id} (${o.item}) is cancelled; the refund goes to ${refund}.`,
        calls: [
          lookup,
          {
            tool: 'cancel_order',
            args: { order_id: o.id, reason, refund_to: refund },
            output: { order_id: o.id, status: 'cancelled', refund_to: refund },
            status: 'ok' as const,
          },
        ],
      };
    }
    const address = `${100 + i} ${STREETS[(i + 2) % STREETS.length]}`;
    return {
      id: `move-${o.id}`,
      query: `Hello, ${o.customer} here (${o.email}). Please look up my order ${o.id}. Then ship order ${o.id} to ${address} instead.`,
      reference: `Order ${o.id} (${o.item}) now ships to ${address}.`,
      calls: [
        lookup,
        {
          tool: 'change_order_address',
          args: { order_id: o.id, address },
          output: { order_id: o.id, address, status: 'open' },
          status: 'ok' as const,
        },
      ],
    };
  });
}
