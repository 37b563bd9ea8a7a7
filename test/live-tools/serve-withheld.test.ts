import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Workflow } from '../../src/graph/schema.js';
import type { ExecutionPolicy } from '../../src/policies/types.js';
import type { TaskRecord } from '../../src/records/schema.js';
import { createModelWiring } from '../../src/wiring/wire-models.js';
import { startTestLlmServer, type TestLlmServer } from '../support/llm-server.js';
import { scriptedModel } from '../support/scripted-model.js';
import { executeWorkflow } from '../../src/runtime/execute.js';
import { startHttpServer, type RunningHttpServer } from '../../src/serve/http-server.js';
import { toolNameFor } from '../../src/serve/mcp-server.js';
import { createWorkflowService } from '../../src/serve/workflow-service.js';
import { loadToolConfig } from '../../src/tools/load-tool-config.js';
import type { ToolRegistry } from '../../src/contracts/tools.js';
import { initialOrders, orderState, PAYMENT_METHODS, resetOrders, writesMade } from '../support/order-tools.js';
import { writeOrderFixture } from './order-fixture.js';
import { planToolAnswer } from '../support/workflows.js';

/**
 * `serve` over the stateful order tools (a functions source: live tools) with a model that guesses:
 * asked to cancel an order without saying where the refund goes, it fills `refund_to` with another
 * customer's payment method (the scripted model behind the OpenAI-compatible test server plans the
 * calls of `GUESSES`); the call is withheld, the response names the argument, and the store of
 * orders is unchanged. Over plain HTTP and over the MCP SDK's client, and in `flowscout run`.
 */

const WORKFLOW: Workflow = planToolAnswer({
  name: 'Order desk',
  description: 'Cancels orders.',
  tool: { id: 'cancel', task: 'Cancel the order the customer asks about', tools: ['cancel_order'] },
  answer: { prompt: 'Answer {{query}} from:\n{{inputs}}' },
});

const UNSPECIFIED = 'Please cancel my order 1005, it arrived broken.';
const SPECIFIED = 'Hi, please cancel order 1003, I ordered the wrong size. Refund to wallet-7731.';

/** What the model plans for each request. */
const GUESSES: TaskRecord[] = [
  {
    id: 'guess',
    query: UNSPECIFIED,
    reference: '',
    calls: [{ tool: 'cancel_order', args: { order_id: '1005', reason: 'it arrived broken', refund_to: 'card-4242' } }],
  },
  {
    id: 'stated',
    query: SPECIFIED,
    reference: '',
    calls: [
      {
        tool: 'cancel_order',
        args: { order_id: '1003', reason: 'I ordered the wrong size', refund_to: 'wallet-7731' },
      },
    ],
  },
];
let llm: TestLlmServer;
let policy: ExecutionPolicy;
beforeAll(async () => {
  llm = await startTestLlmServer({ script: scriptedModel(GUESSES) });
});
afterAll(async () => llm.close());

let registry: ToolRegistry;
let server: RunningHttpServer | undefined;
const clients: Client[] = [];
beforeEach(async () => {
  resetOrders();
  registry = await loadToolConfig(writeOrderFixture().tools);
  policy = (await createModelWiring().policy(llm.spec(), { tools: registry.list() })).instance;
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.close();
  server = undefined;
  await registry.close();
});

async function serve(destructive?: 'allow' | 'withhold'): Promise<RunningHttpServer> {
  const service = createWorkflowService({
    workflow: WORKFLOW,
    policy,
    tools: registry,
    ...(destructive ? { destructive } : {}),
  });
  server = await startHttpServer({
    service,
    http: true,
    mcp: { name: toolNameFor(WORKFLOW.name), description: WORKFLOW.description! },
  });
  return server;
}

async function post(url: string, query: string): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(`${url}/run`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

describe('serve withholds write calls it cannot ground, and destructive calls by default', () => {
  it("without the grounding check the guessing model would refund to another customer's payment method (what the check prevents)", async () => {
    const trace = await executeWorkflow(
      WORKFLOW,
      { query: UNSPECIFIED },
      {
        policy,
        tools: registry,
        groundWrites: false,
      },
    );
    expect(trace.calls[0]).toMatchObject({ tool: 'cancel_order', status: 'ok' });
    const copied = trace.calls[0]!.args.refund_to as string;
    expect(PAYMENT_METHODS).toContain(copied);
    expect(UNSPECIFIED).not.toContain(copied);
    expect(orderState().find((o) => o.id === '1005')).toMatchObject({ status: 'cancelled', refundTo: copied });
  });

  it('over HTTP: the call is withheld, the response names the ungrounded argument, the orders are unchanged', async () => {
    const { url } = await serve();
    const res = await post(url, UNSPECIFIED);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('ok');
    expect(res.json.withheld).toHaveLength(1);
    expect(res.json.withheld[0]).toMatchObject({ tool: 'cancel_order' });
    expect(res.json.withheld[0].why).toMatch(
      /^not run: write withheld: destructive call cancel_order has ungrounded argument 'refund_to' \("(card-4242|wallet-7731)"\)/,
    );
    expect(res.json.withheld[0].why).not.toContain("'order_id'");
    expect(res.json.withheld[0].why).not.toContain("'reason'");
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
  });

  it('over the MCP SDK client: the tool result names the ungrounded argument in its text and structured content; the orders are unchanged', async () => {
    const { url } = await serve();
    const client = new Client({ name: 'withheld-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    clients.push(client);
    const result = await client.callTool({ name: toolNameFor(WORKFLOW.name), arguments: { query: UNSPECIFIED } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      withheld: Array<{ tool: string; why: string }>;
      pending?: unknown;
    };
    expect(structured.withheld[0]!.tool).toBe('cancel_order');
    expect(structured.withheld[0]!.why).toContain("ungrounded argument 'refund_to'");
    expect(structured.pending).toBeUndefined();
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(text).toMatch(/withheld \(not made\): cancel_order .*ungrounded argument 'refund_to'/);
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
  });

  it('a grounded destructive call is returned as pending, not made; with --allow destructive it is made', async () => {
    const query = SPECIFIED;
    const { url } = await serve();
    const res = await post(url, query);
    expect(res.json.withheld).toBeUndefined();
    expect(res.json.pending).toEqual([
      {
        tool: 'cancel_order',
        args: { order_id: '1003', reason: 'I ordered the wrong size', refund_to: 'wallet-7731' },
        why: expect.stringContaining('not run: destructive call awaiting approval'),
      },
    ]);
    expect(orderState()).toEqual(initialOrders());
    await server!.close();
    server = undefined;

    const allowed = await serve('allow');
    const made = await post(allowed.url, query);
    expect(made.json.pending).toBeUndefined();
    expect(made.json.calls).toEqual([
      expect.objectContaining({
        tool: 'cancel_order',
        args: { order_id: '1003', reason: 'I ordered the wrong size', refund_to: 'wallet-7731' },
        status: 'ok',
      }),
    ]);
    expect(orderState().find((o) => o.id === '1003')).toMatchObject({
      status: 'cancelled',
      cancelReason: 'I ordered the wrong size',
      refundTo: 'wallet-7731',
    });
    expect(writesMade()).toHaveLength(1);
  });
});

describe('flowscout run on live tools', () => {
  it('withholds the ungrounded cancel, says so in the run status, and leaves the orders as they were', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { runCli } = await import('../../src/cli/program.js');
    const { captureIO } = await import('../support/cli-io.js');
    const fx = writeOrderFixture();
    const wf = join(fx.dir, 'orders.workflow.json');
    writeFileSync(wf, JSON.stringify(WORKFLOW));
    const io = captureIO();
    expect(
      await runCli(['run', wf, '--query', UNSPECIFIED, '--tools', fx.tools, '--model', llm.spec()], io),
      io.errors(),
    ).toBe(0);
    expect(io.text()).toMatch(
      /status: 1 write call withheld \(not made\):\n {2}cancel_order \{.*\} — not run: write withheld: destructive call cancel_order has ungrounded argument 'refund_to'/,
    );
    expect(writesMade()).toEqual([]);
    expect(orderState()).toEqual(initialOrders());
  });
});
