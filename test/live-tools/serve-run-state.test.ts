import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Workflow } from '../../src/graph/schema.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import { startHttpServer, type RunningHttpServer } from '../../src/serve/http-server.js';
import { toolNameFor } from '../../src/serve/mcp-server.js';
import { createWorkflowService } from '../../src/serve/workflow-service.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { initialOrders, orderState, resetOrders, tools } from '../support/order-tools.js';
import { planToolAnswer } from '../support/workflows.js';

/**
 * What `serve` tells a client about a run, with the offline policy over the stateful order tools:
 * a run whose every tool call failed is no `ok` answer (HTTP 502, `status: "error"`, an MCP tool
 * error), while a run with a good call is; and a destructive call held for approval is said to
 * await approval in the answer — not to have failed, and not to have been no call at all, even on
 * a node that retries its failures.
 */

const LOOKUP: Workflow = planToolAnswer({
  name: 'Order status',
  description: 'Looks an order up.',
  tool: { id: 'lookup', task: 'Look up the order the customer asks about', tools: ['get_order'] },
});

const CANCEL: Workflow = planToolAnswer({
  name: 'Order desk',
  description: 'Cancels orders.',
  tool: {
    id: 'cancel',
    task: 'Cancel the order the customer asks about',
    tools: ['cancel_order'],
    retry: { attempts: 2, on: 'error' },
  },
});

let server: RunningHttpServer | undefined;
const clients: Client[] = [];
beforeEach(() => resetOrders());
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.close();
  server = undefined;
});

async function serve(workflow: Workflow): Promise<RunningHttpServer> {
  const registry = createToolRegistry(tools);
  const service = createWorkflowService({
    workflow,
    policy: createOfflinePolicy({ tools: registry.list() }),
    tools: registry,
  });
  server = await startHttpServer({
    service,
    http: true,
    mcp: { name: toolNameFor(workflow.name), description: workflow.description! },
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

describe('the state serve answers for a run', () => {
  it('a run whose every tool call failed is not ok: HTTP 502 with status "error", and an MCP tool error', async () => {
    const { url } = await serve(LOOKUP);
    const failed = await post(url, 'What is the status of order 9999?');
    expect(failed.json.calls).toEqual([expect.objectContaining({ tool: 'get_order', status: 'error' })]);
    expect(failed.status).toBe(502);
    expect(failed.json.status).toBe('error');
    expect(failed.json.error).toMatchObject({ code: 'RUN_FAILED' });
    expect(failed.json.error.message).toContain(
      'the workflow run failed: nothing of the request was served: no call the run made returned a result',
    );
    expect(failed.json.answer).toMatch(/^I could not get your request done: “What is the status of order 9999”\./);
    expect(failed.json.error.message).toContain('no order 9999');
    // The answer still goes back with it, for a client that shows what it can.
    expect(typeof failed.json.answer).toBe('string');

    const client = new Client({ name: 'run-state-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    clients.push(client);
    const result = await client.callTool({
      name: toolNameFor(LOOKUP.name),
      arguments: { query: 'What is the status of order 9999?' },
    });
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { status: string }).status).toBe('error');

    const found = await post(url, 'What is the status of order 1004?');
    expect(found.status).toBe(200);
    expect(found.json.status).toBe('ok');
    expect(found.json.calls).toEqual([expect.objectContaining({ tool: 'get_order', status: 'ok' })]);
  });

  it('a destructive call held for approval is said to await approval in the answer, not to have failed; the run is ok', async () => {
    const { url } = await serve(CANCEL);
    const res = await post(url, 'Hi, please cancel order 1003, I ordered the wrong size. Refund to wallet-7731.');
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('ok');
    expect(res.json.pending).toEqual([expect.objectContaining({ tool: 'cancel_order' })]);
    // Not retried: a second attempt could not get the approval, and would leave the node without its call.
    expect(res.json.calls).toHaveLength(1);
    expect(res.json.answer).toMatch(/Cancel order \(.*order_id: 1003.*\): awaits approval: not made yet/);
    expect(res.json.answer).not.toContain('failed');
    expect(res.json.answer).not.toContain('made no call');
    expect(orderState()).toEqual(initialOrders());
  });
});
