import { describe, expect, it } from 'vitest';
import { groundedOutputs, listingItems, selects, ungroundedArgs, type RunCall } from './grounding.js';
import { dataTexts, SourceText } from './grounding-match.js';

// The rules of runtime/grounding.ts, one by one (the runtimes are covered in test/live-tools/).

const ORDERS = [
  { order_id: '1001', customer: 'Ada Byron', email: 'ada.1@example.com', item: 'desk lamp', status: 'open' },
  { order_id: '1007', customer: 'Ben Okafor', email: 'ben.7@example.com', item: 'kettle', status: 'open' },
  { order_id: '1009', customer: 'Chen Wei', email: 'chen.9@example.com', item: 'backpack', status: 'open' },
];
const HOLD_SCHEMA = {
  type: 'object',
  properties: { orders: { type: 'object', additionalProperties: { type: 'string' } } },
};

describe('object keys are values', () => {
  const query = 'Please hold my order 1001, I am travelling.';
  it('a map-shaped argument (additionalProperties) is checked key by key', () => {
    expect(
      ungroundedArgs({ orders: { '1001': 'travelling', '1007': 'travelling' } }, { query, outputs: [] }, HOLD_SCHEMA),
    ).toEqual([{ path: 'orders', value: '1007', key: true }]);
    expect(ungroundedArgs({ orders: { '1001': 'travelling' } }, { query, outputs: [] }, HOLD_SCHEMA)).toEqual([]);
  });

  it('so is an object whose schema names no properties; keys the schema names are parameter names', () => {
    const loose = { type: 'object', properties: { orders: { type: 'object' } } };
    expect(ungroundedArgs({ orders: { '1009': 'travelling' } }, { query, outputs: [] }, loose)).toEqual([
      { path: 'orders', value: '1009', key: true },
    ]);
    const named = {
      type: 'object',
      properties: { line: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } } } },
    };
    expect(
      ungroundedArgs({ line: { sku: '1001', qty: 1 } }, { query: 'order 1001, one of it: 1', outputs: [] }, named),
    ).toEqual([]);
  });

  it('with no schema at all, a key shaped like an identifier is checked and a word key is not', () => {
    expect(ungroundedArgs({ notes: { '#W6390527': 'travelling' } }, { query, outputs: [] })).toEqual([
      { path: 'notes', value: '#W6390527', key: true },
    ]);
    expect(ungroundedArgs({ notes: { reason: 'travelling' } }, { query, outputs: [] })).toEqual([]);
  });

  it('reads check only identifier-shaped values, keys included', () => {
    expect(
      ungroundedArgs({ status: 'closed', orders: { '1007': 'x' } }, { query, outputs: [] }, HOLD_SCHEMA, 'identifiers'),
    ).toEqual([{ path: 'orders', value: '1007', key: true }]);
    expect(
      ungroundedArgs({ order_id: '1009', status: 'closed' }, { query, outputs: [] }, undefined, 'identifiers'),
    ).toEqual([{ path: 'order_id', value: '1009' }]);
  });
});

describe('free text keeps short words and word order', () => {
  const sources = { query: 'Please ship order 1003 to 12 Harbour Road, I moved last week.', outputs: [] };
  it('"7 Harbour Road" does not pass for "12 Harbour Road", nor does the same words in another order', () => {
    expect(ungroundedArgs({ address: '7 Harbour Road' }, sources)).toEqual([
      { path: 'address', value: '7 Harbour Road' },
    ]);
    expect(ungroundedArgs({ address: 'Harbour Road 12' }, sources)).toEqual([
      { path: 'address', value: 'Harbour Road 12' },
    ]);
    expect(ungroundedArgs({ address: '12 Harbour Road' }, sources)).toEqual([]);
  });
  it('a reworded sentence of the request (its phrases in another order) is grounded', () => {
    expect(ungroundedArgs({ note: 'moved last week, ship to 12 Harbour Road' }, sources)).toEqual([]);
    expect(ungroundedArgs({ note: 'moved last month, ship to 12 Harbour Road' }, sources)).toEqual([
      { path: 'note', value: 'moved last month, ship to 12 Harbour Road' },
    ]);
  });
  it('a phrase may come from an earlier output, but must stay within one source', () => {
    const text = new SourceText('cancel order 1003');
    text.add({ reason: 'arrived broken in 2 pieces' });
    expect(text.coversText('cancel order 1003, arrived broken in 2 pieces')).toBe(true);
    expect(text.coversText('cancel order 2 broken')).toBe(false);
  });
});

describe('field names of outputs are no values', () => {
  it('an output grounds its values and the keys shaped like identifiers, not its field names; JSON text is read as JSON', () => {
    const output = { item_ids: ['1151293680'], payment_methods: { paypal_3024827: { source: 'paypal' } } };
    expect(dataTexts(output)).toEqual(['1151293680', 'paypal_3024827', 'paypal']);
    expect(dataTexts(JSON.stringify(output))).toEqual(['1151293680', 'paypal_3024827', 'paypal']);
    // Text that is not JSON stays text, whatever it holds.
    expect(dataTexts("{'item_ids': [1]}")).toEqual(["{'item_ids': [1]}"]);
    const sources = { query: 'Please pass me to a person.', outputs: [JSON.stringify(output)] };
    expect(ungroundedArgs({ summary: 'IDs' }, sources)).toEqual([{ path: 'summary', value: 'IDs' }]);
    expect(ungroundedArgs({ refund_to: 'paypal_3024827' }, sources)).toEqual([]);
  });
});

describe("a read's values are judged by what they are", () => {
  const query = 'Hi, this is Ada Byron. Where is my order 1001?';
  const read = (args: Record<string, unknown>, schema?: Record<string, unknown>) =>
    ungroundedArgs(args, { query, outputs: [] }, schema, 'identifiers');
  it('a key part from nowhere is named, whatever the parameter is called', () => {
    expect(read({ q: 'order 1007' })).toEqual([{ path: 'q', value: 'order 1007', parts: ['1007'] }]);
    expect(read({ order: '1007' })).toEqual([{ path: 'order', value: '1007' }]);
    expect(read({ customer: 'ada lindqvist' })).toEqual([
      { path: 'customer', value: 'ada lindqvist', parts: ['lindqvist'] },
    ]);
    expect(read({ q: 'order 1001 of ada byron' })).toEqual([]);
  });
  it('a value the schema documents passes: its default in prose, a quoted value', () => {
    const schema = {
      type: 'object',
      properties: { rad: { type: 'string', description: 'search radius in metres, default 1000' } },
    };
    expect(read({ rad: '1000' }, schema)).toEqual([]);
    expect(read({ rad: '1500' }, schema)).toEqual([{ path: 'rad', value: '1500' }]);
  });
});

describe('what earlier calls ground', () => {
  const listing = (args: Record<string, unknown>): RunCall => ({ tool: 'list_orders', args, output: ORDERS });
  const ids = (parts: unknown[]) => JSON.stringify(parts).match(/10\d\d/g) ?? [];

  it('a listing (no arguments, or only words such as a status) grounds only the items the request names', () => {
    expect(groundedOutputs('I am Ada Byron, please ship my open order to Mill Lane.', [listing({})])).toEqual([
      ORDERS[0],
    ]);
    expect(groundedOutputs('Please ship my open order to Mill Lane.', [listing({ status: 'open' })])).toEqual([]);
    expect(
      ids(groundedOutputs('My e-mail is ben.7@example.com, cancel the open one.', [listing({ status: 'open' })])),
    ).toEqual(['1007']);
  });

  it('a call that selected with a grounded identifier grounds its whole output; one with an ungrounded identifier grounds nothing', () => {
    const get: RunCall = { tool: 'get_customer_orders', args: { customer_id: 'cus-7781' }, output: ORDERS };
    expect(groundedOutputs('I am customer cus-7781.', [get])).toEqual([ORDERS]);
    expect(groundedOutputs('I am a customer.', [get])).toEqual([]);
    expect(selects({ customer_id: 'cus-7781' }, undefined)).toBe(true);
    expect(selects({ status: 'open', limit: 20 }, undefined)).toBe(false);
  });

  it('a grounded source names items of a later listing (the chain of lookups stays grounded)', () => {
    const profile: RunCall = { tool: 'get_user', args: { user_id: 'usr_8f3k2' }, output: { orders: ['1009'] } };
    expect(ids(groundedOutputs('User usr_8f3k2 here.', [profile, listing({})]))).toEqual(['1009', '1009']);
  });

  it('map-shaped outputs, name fields, JSON text and plain text lines', () => {
    const named = new SourceText('order #W1002 for Oslo');
    expect(listingItems({ '#W1001': { total: 5 }, '#W1002': { total: 7 } }, named)).toEqual([
      { '#W1002': { total: 7 } },
    ]);
    expect(
      listingItems(
        {
          results: [
            { id: 42, name: 'Oslo' },
            { id: 7, name: 'Bergen' },
          ],
        },
        named,
      ),
    ).toEqual([{ id: 42, name: 'Oslo' }]);
    expect(listingItems(JSON.stringify([{ order_id: '#W1002' }, { order_id: '#W1003' }]), named)).toEqual([
      { order_id: '#W1002' },
    ]);
    expect(listingItems('#W1001 open kettle\n#W1002 open lamp\n', named)).toEqual(['#W1002 open lamp']);
    // A status shared by every item names none of them.
    expect(listingItems([{ status: 'open', order_id: '1' }], new SourceText('my open order'))).toEqual([]);
  });
});
