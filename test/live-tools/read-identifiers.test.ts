import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../src/contracts/tools.js';
import { executeWorkflow } from '../../src/runtime/execute.js';
import { createScriptedPolicy } from '../../src/testing/scripted-policy.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { tools as lookupTools } from '../support/order-lookup-tools.js';
import { readsMade, resetOrders, tools as orderTools } from '../support/order-tools.js';
import { planToolAnswer } from '../support/workflows.js';

/**
 * A read whose identifier the request never gave must not go out, whatever its parameter is
 * called: a scripted model (the `flowscout/testing` policy) plans each read below for a customer,
 * Ada Byron, who asks about her own order 1001, over live function tools holding every customer's
 * orders (test/support/order-tools.ts, order-lookup-tools.ts). Order 1007 is Gus Lindqvist's; his
 * booking code is XKQWPL. Each read reaches no tool (the store notes every read that does) and the
 * run lists it as withheld, naming the argument. A documented set of ordinary reads
 * (test/fixtures/identifiers/ordinary-reads.json: dates, amounts, cities, codes the request writes
 * or a reader works out) still goes out.
 */

const ADA = 'Hi, this is Ada Byron (ada.1@example.com). Where is my order 1001? It is the desk lamp.';
const registry = createToolRegistry([...orderTools, ...lookupTools]);

async function plan(query: string, tool: string, args: Record<string, unknown>) {
  const workflow = planToolAnswer({ name: 'Desk', tool: { id: 'desk', task: 'Answer the customer', tools: [tool] } });
  const policy = createScriptedPolicy({ tool: () => [{ tool, args }] });
  return executeWorkflow(workflow, { query }, { policy, tools: registry });
}

beforeEach(() => resetOrders());

/** The seven reads that went out, then same-shape variants of each (another order, another customer, another code). */
const OTHER_CUSTOMER: Array<[string, string, Record<string, unknown>]> = [
  ['an id in a parameter not named like one', 'lookup_order', { order: '1007' }],
  ['a bare id in free text', 'search_orders', { q: '1007' }],
  ['an id among words in free text', 'search_orders', { q: 'order 1007' }],
  ['a URL query string', 'shop_api', { path: '/orders?id=1007' }],
  ['a relative URL path', 'shop_api', { path: '/orders/1007' }],
  ['a lower-case name', 'find_orders', { customer: 'gus lindqvist' }],
  ['an id without digits', 'get_booking', { pnr: 'XKQWPL' }],
  // Same shapes.
  ['variant: another order, as a number', 'lookup_order', { order: 1007 }],
  ['variant: another order', 'lookup_order', { order: '1017' }],
  ['variant: a sentence around an id', 'search_orders', { q: 'status of order 1012 please' }],
  ['variant: a name in free text', 'search_orders', { q: 'orders of hana sato' }],
  ['variant: a query string of two fields', 'shop_api', { path: '/orders?id=1012&full=true' }],
  ['variant: a path without its leading slash', 'shop_api', { path: 'orders/1017' }],
  ['variant: another lower-case name', 'find_orders', { customer: 'ben okafor' }],
  ['variant: a capitalised surname alone', 'find_orders', { customer: 'Lindqvist' }],
  ['variant: another code without digits', 'get_booking', { pnr: 'ZXCVBN' }],
  ['variant: a code without digits in lower case', 'get_booking', { pnr: 'plmkoj' }],
];
/** The five reads that were withheld before, and stay so. */
const CONTROLS: Array<[string, string, Record<string, unknown>]> = [
  ['order_id', 'get_order', { order_id: '1007' }],
  ['an absolute URL path', 'shop_api', { path: 'https://shop.example/orders/1007' }],
  ['a capitalised name', 'find_orders', { customer: 'Gus Lindqvist' }],
  ['an e-mail', 'orders_by_email', { email: 'gus.7@example.com' }],
  ['an id with a digit', 'get_booking', { pnr: 'XKQ4PL' }],
];

describe("a read of another customer's record is withheld by what its value is", () => {
  it.each([...OTHER_CUSTOMER, ...CONTROLS])('%s: %s %j reaches no tool', async (_what, tool, args) => {
    const trace = await plan(ADA, tool, args);
    expect(readsMade()).toEqual([]);
    expect(trace.calls).toEqual([expect.objectContaining({ tool, status: 'error' })]);
    expect(trace.withheld).toEqual([
      expect.objectContaining({
        tool,
        reason: 'ungrounded',
        why: expect.stringMatching(
          new RegExp(
            `^not run: call withheld: read call ${tool} has ungrounded identifier argument '${Object.keys(args)[0]}'`,
          ),
        ),
      }),
    ]);
  });

  it('the observation names the part of a value that came from nowhere', async () => {
    const trace = await plan(ADA, 'search_orders', { q: 'order 1007' });
    expect(trace.withheld![0]!.why).toContain(`'q' ("order 1007", from nowhere: "1007")`);
    const name = await plan(ADA, 'find_orders', { customer: 'gus lindqvist' });
    expect(name.withheld![0]!.why).toContain(`'customer' ("gus lindqvist", from nowhere: "lindqvist")`);
  });

  it('the same reads of what the request names go out', async () => {
    const own: Array<[string, Record<string, unknown>]> = [
      ['lookup_order', { order: '1001' }],
      ['search_orders', { q: 'order 1001' }],
      ['search_orders', { q: 'desk lamp' }],
      ['shop_api', { path: '/orders?id=1001' }],
      ['shop_api', { path: '/orders/1001' }],
      ['find_orders', { customer: 'ada byron' }],
      ['orders_by_email', { email: 'ada.1@example.com' }],
    ];
    for (const [tool, args] of own) {
      resetOrders();
      const trace = await plan(ADA, tool, args);
      expect([tool, trace.withheld]).toEqual([tool, undefined]);
      expect(readsMade()).toEqual([{ tool, args }]);
    }
    const booking = await plan('Gus Lindqvist here, what is on my booking XKQWPL?', 'get_booking', { pnr: 'XKQWPL' });
    expect(booking.withheld).toBeUndefined();
  });
});

interface OrdinaryRead {
  id: string;
  kind: string;
  request: string;
  tool: { name: string; description: string; inputSchema: Record<string, unknown> };
  args: Record<string, unknown>;
  why: string;
}
const ORDINARY = JSON.parse(
  readFileSync(new URL('../fixtures/identifiers/ordinary-reads.json', import.meta.url), 'utf8'),
) as OrdinaryRead[];

describe('ordinary reads go out (the documented set of test/fixtures/identifiers/ordinary-reads.json)', () => {
  it('the set covers dates, amounts, cities, codes and words', () => {
    expect(new Set(ORDINARY.map((r) => r.kind))).toEqual(new Set(['dates', 'amounts', 'cities', 'codes', 'words']));
    expect(ORDINARY.length).toBeGreaterThanOrEqual(30);
  });

  it.each(ORDINARY.map((r) => [r.id, r.why, r] as const))('%s (%s) is made', async (_id, _why, read) => {
    const made: Array<Record<string, unknown>> = [];
    const spec: ToolSpec = defineTool({
      ...read.tool,
      effect: 'read',
      execute: (args) => {
        made.push(args);
        return { ok: true };
      },
    });
    const tools = createToolRegistry([spec]);
    const workflow = planToolAnswer({ name: 'Read', tool: { id: 'read', task: 'Answer', tools: [read.tool.name] } });
    const policy = createScriptedPolicy({ tool: () => [{ tool: read.tool.name, args: read.args }] });
    const trace = await executeWorkflow(workflow, { query: read.request }, { policy, tools });
    expect(trace.withheld).toBeUndefined();
    expect(made).toEqual([read.args]);
  });
});
