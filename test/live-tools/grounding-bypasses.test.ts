import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Workflow } from '../../src/graph/schema.js';
import type { ExecutionPolicy } from '../../src/policies/types.js';
import type { TaskRecord } from '../../src/records/schema.js';
import { exportLangGraph } from '../../src/export/to-langgraph.js';
import { runCli } from '../../src/cli/program.js';
import { compileWorkflow } from '../../src/runtime/compile.js';
import { createScriptedPolicy } from '../../src/testing/scripted-policy.js';
import { executeWorkflow } from '../../src/runtime/execute.js';
import type { RunContext } from '../../src/runtime/run-state.js';
import type { Trace } from '../../src/runtime/trace.js';
import { startHttpServer, type RunningHttpServer } from '../../src/serve/http-server.js';
import { createWorkflowService } from '../../src/serve/workflow-service.js';
import { loadToolConfig } from '../../src/tools/load-tool-config.js';
import type { ToolRegistry } from '../../src/contracts/tools.js';
import { createModelWiring } from '../../src/wiring/wire-models.js';
import { captureIO } from '../support/cli-io.js';
import { startTestLlmServer, type TestLlmServer } from '../support/llm-server.js';
import { scriptedModel } from '../support/scripted-model.js';
import { initialOrders, orderState, resetOrders, writesMade } from '../support/order-tools.js';
import { planToolAnswer } from '../support/workflows.js';
import { writeOrderFixture } from './order-fixture.js';

/**
 * The two ways round grounded writes that common tool shapes opened, closed in every runtime (the
 * interpreter behind `run` and `serve`, a compiled module, a LangGraph export), with a model that
 * plans the calls (the scripted model behind the OpenAI-compatible test server, told which calls to
 * plan by the records below) over live function tools (test/support/order-tools.ts):
 *
 * - a map-shaped argument: asked by Ada Byron to hold her order 1001, the model holds 1001, 1007
 *   and 1009 in one `hold_orders {"orders": {"<id>": "<reason>"}}` call; the keys are values;
 * - "list, then act": the model lists the open orders (`{"status": "open"}`, a word of the request)
 *   and re-addresses Ben Okafor's order 1007, which only the listing showed; a listing grounds only
 *   the items the request names (Ada's, by her name or e-mail).
 *
 * Ada Byron's orders are 1001 and 1011 (test/support/order-tools.ts `initialOrders`).
 */

const ADA = 'Hi, this is Ada Byron (ada.1@example.com).';
const HOLD = `${ADA} Please put my order 1001 on hold, I am travelling until May.`;
const MOVE_OTHER = `${ADA} Please ship my open order to 12 Harbour Road instead.`;
const MOVE_OWN = `${ADA} Please send my open kettle order to 12 Harbour Road.`;
const REASON = 'I am travelling until May';

const call = (tool: string, args: Record<string, unknown>) => ({ tool, args, status: 'ok' as const });
/** What the scripted model plans for each request: its calls, in order, one per tool node. */
const RECORDS: TaskRecord[] = [
  {
    id: 'hold-three',
    query: HOLD,
    reference: 'Order 1001 is on hold.',
    calls: [call('hold_orders', { orders: { '1001': REASON, '1007': REASON, '1009': REASON } })],
  },
  {
    id: 'move-other',
    query: MOVE_OTHER,
    reference: 'Your order now ships to 12 Harbour Road.',
    calls: [
      call('list_orders', { status: 'open' }),
      call('change_order_address', { order_id: '1007', address: '12 Harbour Road' }),
    ],
  },
  {
    id: 'move-own',
    query: MOVE_OWN,
    reference: 'Your order 1001 now ships to 12 Harbour Road.',
    calls: [
      call('list_orders', { status: 'open' }),
      call('change_order_address', { order_id: '1001', address: '12 Harbour Road' }),
    ],
  },
];

const HOLD_WF: Workflow = planToolAnswer({
  name: 'Hold desk',
  tool: { id: 'hold', task: 'Put the orders the customer asks about on hold', tools: ['hold_orders'] },
});

const MOVE_WF: Workflow = {
  version: 1,
  name: 'Address desk',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
    { id: 'list', kind: 'tool', task: 'List the open orders', tools: ['list_orders'] },
    { id: 'move', kind: 'tool', task: "Change the customer's order address", tools: ['change_order_address'] },
    {
      id: 'answer',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from {{inputs}}',
      output: { type: 'text' },
    },
  ],
  edges: [
    { from: 'plan', to: 'list', kind: 'data' },
    { from: 'list', to: 'move', kind: 'data' },
    { from: 'move', to: 'answer', kind: 'data' },
  ],
};

const fixture = writeOrderFixture();
const dir = mkdtempSync(join(tmpdir(), 'flowscout-bypass-'));
let server: TestLlmServer;
let registry: ToolRegistry;
let policy: ExecutionPolicy;

beforeAll(async () => {
  server = await startTestLlmServer({ script: scriptedModel(RECORDS) });
  registry = await loadToolConfig(fixture.tools);
  policy = (await createModelWiring().policy(server.spec(), { tools: registry.list() })).instance;
});
afterAll(async () => {
  await registry.close();
  await server.close();
});
beforeEach(() => resetOrders());

type Runner = (query: string, ctx: RunContext) => Promise<Trace>;
async function moduleRunners(workflow: Workflow, name: string): Promise<Array<[string, Runner]>> {
  const compiled = join(dir, `${name}.compiled.ts`);
  writeFileSync(
    compiled,
    compileWorkflow(workflow, {
      runtimeImport: pathToFileURL(fileURLToPath(new URL('../../src/runtime/compiled-support.ts', import.meta.url)))
        .href,
    }),
  );
  const graph = join(dir, `${name}.graph.ts`);
  writeFileSync(
    graph,
    exportLangGraph(workflow, {
      runtimeImport: pathToFileURL(fileURLToPath(new URL('../../src/export/langgraph-support.ts', import.meta.url)))
        .href,
    }),
  );
  const c = (await import(pathToFileURL(compiled).href)) as { run: Runner };
  const g = (await import(pathToFileURL(graph).href)) as { run: Runner };
  return [
    ['interpreter', (q, ctx) => executeWorkflow(workflow, { query: q }, ctx)],
    ['compiled module', c.run],
    ['LangGraph export', g.run],
  ];
}

const heldOrMoved = () =>
  orderState().filter((o) => o.status !== 'open' || o.address !== initialOrders().find((i) => i.id === o.id)!.address);

describe('a map-shaped argument is checked key by key', () => {
  it('in the interpreter, a compiled module and a LangGraph export: the hold of 1001, 1007 and 1009 is withheld naming the two keys the request never named; no order changes', async () => {
    for (const [name, run] of await moduleRunners(HOLD_WF, 'hold')) {
      resetOrders();
      const trace = await run(HOLD, { policy, tools: registry });
      expect(trace.withheld, name).toEqual([
        expect.objectContaining({ tool: 'hold_orders', reason: 'ungrounded', args: RECORDS[0]!.calls[0]!.args }),
      ]);
      const why = trace.withheld![0]!.why;
      expect(why, name).toContain(`a key of 'orders' ("1007")`);
      expect(why, name).toContain(`a key of 'orders' ("1009")`);
      expect(why, name).not.toContain('"1001"');
      expect(writesMade(), name).toEqual([]);
      expect(orderState(), name).toEqual(initialOrders());
    }
  });
});

describe('a listing grounds only the items the request names', () => {
  it("in the interpreter, a compiled module and a LangGraph export: re-addressing another customer's order seen only in the listing is withheld; the customer's own order (named by her name and e-mail) is changed", async () => {
    for (const [name, run] of await moduleRunners(MOVE_WF, 'move')) {
      resetOrders();
      const other = await run(MOVE_OTHER, { policy, tools: registry });
      expect(other.calls[0], name).toMatchObject({ tool: 'list_orders', args: { status: 'open' }, status: 'ok' });
      expect(other.withheld, name).toEqual([
        expect.objectContaining({
          tool: 'change_order_address',
          reason: 'ungrounded',
          why: expect.stringContaining(`ungrounded argument 'order_id' ("1007")`),
        }),
      ]);
      expect(orderState(), name).toEqual(initialOrders());

      const own = await run(MOVE_OWN, { policy, tools: registry });
      expect(own.withheld, name).toBeUndefined();
      expect(heldOrMoved(), name).toEqual([expect.objectContaining({ id: '1001', address: '12 Harbour Road' })]);
    }
  });
});

describe('reads may look up what the run found; writes may not act on it', () => {
  it('in one node (calls: many): after a listing, the lookup of an order it showed is made, the write on that order is withheld', async () => {
    const oneNode = planToolAnswer({
      name: 'List, look, act',
      tool: {
        id: 'desk',
        task: 'Handle the request',
        tools: ['list_orders', 'get_order', 'change_order_address'],
        calls: 'many',
      },
    });
    const scripted = createScriptedPolicy({
      tool: () => [
        { tool: 'list_orders', args: {} },
        { tool: 'get_order', args: { order_id: '1007' } },
        { tool: 'change_order_address', args: { order_id: '1007', address: '12 Harbour Road' } },
      ],
    });
    const trace = await executeWorkflow(oneNode, { query: MOVE_OTHER }, { policy: scripted, tools: registry });
    expect(trace.calls.map((c) => [c.tool, c.status])).toEqual([
      ['list_orders', 'ok'],
      ['get_order', 'ok'],
      ['change_order_address', 'error'],
    ]);
    expect(trace.withheld).toEqual([
      expect.objectContaining({ tool: 'change_order_address', why: expect.stringContaining(`'order_id' ("1007")`) }),
    ]);
    expect(orderState()).toEqual(initialOrders());
  });
});

describe('flowscout run and serve (default flags) with the model', () => {
  let http: RunningHttpServer | undefined;
  afterAll(async () => http?.close());

  it('run: both bypasses are withheld and say so in the run status; the orders are unchanged', async () => {
    for (const [wf, query, arg] of [
      [HOLD_WF, HOLD, `a key of 'orders' ("1007")`],
      [MOVE_WF, MOVE_OTHER, `'order_id' ("1007")`],
    ] as const) {
      const file = join(dir, `${wf.name}.workflow.json`);
      writeFileSync(file, JSON.stringify(wf));
      const io = captureIO();
      const code = await runCli(
        ['run', file, '--query', query, '--tools', fixture.tools, '--model', server.spec()],
        io,
      );
      expect(code, io.errors()).toBe(0);
      expect(io.text()).toMatch(/status: 1 write call withheld \(not made\):/);
      expect(io.text()).toContain(`ungrounded argument`);
      expect(io.text()).toContain(arg);
      expect(writesMade()).toEqual([]);
      expect(orderState()).toEqual(initialOrders());
    }
  });

  it('serve over HTTP: both bypasses come back as withheld (not pending, not made), naming the argument; the orders are unchanged', async () => {
    for (const [wf, query, arg] of [
      [HOLD_WF, HOLD, `a key of 'orders' ("1009")`],
      [MOVE_WF, MOVE_OTHER, `'order_id' ("1007")`],
    ] as const) {
      const service = createWorkflowService({ workflow: wf, policy, tools: registry, destructive: 'withhold' });
      http = await startHttpServer({ service, http: true });
      const res = await fetch(`${http.url}/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      const json = (await res.json()) as { withheld?: Array<{ why: string }>; pending?: unknown };
      await http.close();
      http = undefined;
      expect(res.status).toBe(200);
      expect(json.pending).toBeUndefined();
      expect(json.withheld).toHaveLength(1);
      expect(json.withheld![0]!.why).toContain(arg);
      expect(writesMade()).toEqual([]);
      expect(orderState()).toEqual(initialOrders());
    }
  });
});
