import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Workflow } from '../../src/graph/schema.js';
import { exportLangGraph } from '../../src/export/to-langgraph.js';
import { compileWorkflow } from '../../src/runtime/compile.js';
import { executeWorkflow } from '../../src/runtime/execute.js';
import { ungroundedArgs } from '../../src/runtime/grounding.js';
import type { RunContext } from '../../src/runtime/run-state.js';
import type { Trace } from '../../src/runtime/trace.js';
import { createScriptedPolicy } from '../../src/testing/scripted-policy.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { initialOrders, orderState, resetOrders, tools, writesMade } from '../support/order-tools.js';

/**
 * Grounded writes in every runtime: the interpreter, a compiled module and a LangGraph export run
 * the same workflow with a policy that looks an order up and then cancels one — the one the request
 * names, or one it did not name. The check sits in the one hook all three pass through.
 */

const WORKFLOW: Workflow = {
  version: 1,
  name: 'Lookup then cancel',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
    { id: 'lookup', kind: 'tool', task: 'Look the order up', tools: ['get_order'] },
    { id: 'cancel', kind: 'tool', task: 'Cancel it', tools: ['cancel_order'] },
    {
      id: 'answer',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from:\n{{inputs}}',
      output: { type: 'text' },
    },
  ],
  edges: [
    { from: 'plan', to: 'lookup', kind: 'data' },
    { from: 'lookup', to: 'cancel', kind: 'data' },
    { from: 'cancel', to: 'answer', kind: 'data' },
  ],
};

/** Looks up `lookupId`, then cancels `cancelId` with the reason "damaged". */
const context = (lookupId: string, cancelId: string, extra: Partial<RunContext> = {}): RunContext => ({
  policy: createScriptedPolicy({
    tool: (req) =>
      req.node.id === 'lookup'
        ? [{ tool: 'get_order', args: { order_id: lookupId } }]
        : [{ tool: 'cancel_order', args: { order_id: cancelId, reason: 'damaged', refund_to: 'card-4242' } }],
  }),
  tools: createToolRegistry(tools),
  ...extra,
});

const QUERY = 'Order 1004 came damaged, please cancel it and refund to card-4242.';
const dir = mkdtempSync(join(tmpdir(), 'flowscout-grounded-'));

type Runner = (query: string, ctx: RunContext) => Promise<Trace>;
async function runners(): Promise<Array<[string, Runner]>> {
  const compiled = join(dir, 'compiled.ts');
  writeFileSync(
    compiled,
    compileWorkflow(WORKFLOW, {
      runtimeImport: pathToFileURL(fileURLToPath(new URL('../../src/runtime/compiled-support.ts', import.meta.url)))
        .href,
    }),
  );
  const graph = join(dir, 'graph.ts');
  writeFileSync(
    graph,
    exportLangGraph(WORKFLOW, {
      runtimeImport: pathToFileURL(fileURLToPath(new URL('../../src/export/langgraph-support.ts', import.meta.url)))
        .href,
    }),
  );
  const c = (await import(pathToFileURL(compiled).href)) as { run: Runner };
  const g = (await import(pathToFileURL(graph).href)) as { run: Runner };
  return [
    ['interpreter', (q, ctx) => executeWorkflow(WORKFLOW, { query: q }, ctx)],
    ['compiled module', c.run],
    ['LangGraph export', g.run],
  ];
}

beforeEach(() => resetOrders());

describe('grounded writes in every runtime', () => {
  it('withholds a cancel of an order neither the request nor an earlier output names, naming the argument; the orders are unchanged', async () => {
    for (const [name, run] of await runners()) {
      resetOrders();
      const trace = await run(QUERY, context('1004', '1001'));
      expect(trace.withheld, name).toEqual([
        {
          nodeId: 'cancel',
          tool: 'cancel_order',
          args: { order_id: '1001', reason: 'damaged', refund_to: 'card-4242' },
          reason: 'ungrounded',
          why: expect.stringContaining('ungrounded argument \'order_id\' ("1001")'),
        },
      ]);
      expect(trace.observations.find((o) => o.nodeId === 'cancel')!.error, name).toContain("'order_id'");
      expect(writesMade(), name).toEqual([]);
      expect(orderState(), name).toEqual(initialOrders());
    }
  });

  it('makes a grounded cancel (the id is in the request, "damaged" too); with destructive: withhold it is pending instead', async () => {
    for (const [name, run] of await runners()) {
      resetOrders();
      const made = await run(QUERY, context('1004', '1004'));
      expect(made.withheld, name).toBeUndefined();
      expect(orderState().find((o) => o.id === '1004')!.status, name).toBe('cancelled');
      resetOrders();
      const pending = await run(QUERY, context('1004', '1004', { destructive: 'withhold' }));
      expect(pending.withheld, name).toEqual([expect.objectContaining({ tool: 'cancel_order', reason: 'approval' })]);
      expect(orderState(), name).toEqual(initialOrders());
    }
  });

  it("a value only an earlier output shows is grounded when that call's own arguments were", async () => {
    // The lookup of 1004 (named in the request) answers its item; a reason taken from it is grounded.
    const policy = createScriptedPolicy({
      tool: (req) =>
        req.node.id === 'lookup'
          ? [{ tool: 'get_order', args: { order_id: '1004' } }]
          : [{ tool: 'cancel_order', args: { order_id: '1004', reason: 'headphones', refund_to: 'card-4242' } }],
    });
    const trace = await executeWorkflow(WORKFLOW, { query: QUERY }, { policy, tools: createToolRegistry(tools) });
    expect(trace.withheld).toBeUndefined();
    expect(orderState().find((o) => o.id === '1004')).toMatchObject({
      status: 'cancelled',
      cancelReason: 'headphones',
    });
  });

  it('a constant bound in the workflow is grounded; the same value unbound is not', async () => {
    const bound: Workflow = {
      ...WORKFLOW,
      nodes: WORKFLOW.nodes.map((n) =>
        n.id === 'cancel'
          ? {
              ...n,
              bind: [
                {
                  tool: 'cancel_order',
                  param: 'reason',
                  source: { from: 'const' as const, value: 'quality complaint' },
                },
              ],
            }
          : n,
      ),
    };
    const policy = (reason: string) =>
      createScriptedPolicy({
        tool: (req) =>
          req.node.id === 'lookup'
            ? [{ tool: 'get_order', args: { order_id: '1004' } }]
            : [{ tool: 'cancel_order', args: { order_id: '1004', reason, refund_to: 'card-4242' } }],
      });
    const unbound = await executeWorkflow(
      WORKFLOW,
      { query: QUERY },
      { policy: policy('quality complaint'), tools: createToolRegistry(tools) },
    );
    expect(unbound.withheld?.[0]?.why).toContain('\'reason\' ("quality complaint")');
    const made = await executeWorkflow(
      bound,
      { query: QUERY },
      { policy: policy('quality complaint'), tools: createToolRegistry(tools) },
    );
    expect(made.withheld).toBeUndefined();
    expect(orderState().find((o) => o.id === '1004')).toMatchObject({
      status: 'cancelled',
      cancelReason: 'quality complaint',
    });
  });

  it('a lookup filled with an id the request does not name is withheld too (an identifier argument of a read), and so is the cancel it would feed', async () => {
    // "my order" names no id; the policy would look up 1001 and cancel it.
    for (const [name, run] of await runners()) {
      resetOrders();
      const trace = await run(
        'My order came damaged, please cancel it and refund to card-4242.',
        context('1001', '1001'),
      );
      expect(trace.withheld, name).toEqual([
        expect.objectContaining({
          tool: 'get_order',
          reason: 'ungrounded',
          why: expect.stringMatching(
            /^not run: call withheld: read call get_order has ungrounded identifier argument 'order_id' \("1001"\)/,
          ),
        }),
        expect.objectContaining({
          tool: 'cancel_order',
          reason: 'ungrounded',
          why: expect.stringContaining('\'order_id\' ("1001")'),
        }),
      ]);
      expect(
        trace.calls.map((c) => c.status),
        name,
      ).toEqual(['error', 'error']);
      expect(orderState(), name).toEqual(initialOrders());
    }
  });

  it('a read whose identifier argument the request names is made; its other arguments need no grounding', async () => {
    const trace = await executeWorkflow(WORKFLOW, { query: QUERY }, context('1004', '1004'));
    expect(trace.calls[0]).toMatchObject({ tool: 'get_order', args: { order_id: '1004' }, status: 'ok' });
  });
});

describe('ungroundedArgs', () => {
  const sources = {
    query: 'Please ship order A-1003 to 12 Elm Street, I moved last week.',
    outputs: [{ order_id: 'A-1003', total: 42.5, items: ['kettle'] }],
  };
  it('finds values in the request and in earlier outputs as whole tokens, case and spacing aside', () => {
    expect(
      ungroundedArgs({ order_id: 'a-1003', address: '12  elm street', total: 42.5, item: 'Kettle' }, sources),
    ).toEqual([]);
    expect(ungroundedArgs({ order_id: 'A-100' }, sources)).toEqual([{ path: 'order_id', value: 'A-100' }]);
    expect(ungroundedArgs({ quantity: 10 }, sources)).toEqual([{ path: 'quantity', value: 10 }]);
  });
  it('grounds free text by its phrases, and nested values one by one', () => {
    expect(ungroundedArgs({ note: 'moved last week, ship to 12 Elm Street' }, sources)).toEqual([]);
    expect(ungroundedArgs({ note: 'customer requested a refund' }, sources)).toEqual([
      { path: 'note', value: 'customer requested a refund' },
    ]);
    expect(ungroundedArgs({ lines: [{ sku: 'kettle' }, { sku: 'lamp' }] }, sources)).toEqual([
      { path: 'lines[1].sku', value: 'lamp' },
    ]);
  });
  it('takes booleans, empty values, schema enums and defaults, and bound constants as grounded', () => {
    const schema = {
      type: 'object',
      properties: {
        mode: { type: 'string', enum: ['express', 'standard'] },
        currency: { type: 'string', default: 'EUR' },
      },
    };
    expect(
      ungroundedArgs(
        { notify: true, memo: '', mode: 'express', currency: 'EUR', channel: 'web' },
        { ...sources, constants: ['web'] },
        schema,
      ),
    ).toEqual([]);
  });
});
