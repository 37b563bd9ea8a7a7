import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import { executeWorkflow } from '../runtime/execute.js';
import { openStore } from '../store/open-store.js';
import { createToolRegistry } from '../tools/registry.js';
import type { ToolSpec } from '../contracts/tools.js';
import { HTTP_STATUS, isErrorCode, type ErrorCode } from '../errors/index.js';
import { startHttpServer, type RunningHttpServer } from './http-server.js';
import { toolNameFor } from './mcp-server.js';
import { createWorkflowService, type ServedRun } from './workflow-service.js';
import { sendRaw } from '../../test/support/http-send.js';

/**
 * `flowscout serve`'s servers in-process, driven by real clients: the MCP SDK's own client over
 * Streamable HTTP, and plain HTTP requests. (The CLI test runs the stdio transport in a child process.)
 */

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather of a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async (args) => ({ city: args.city, tempC: 7, sky: 'rain' }),
};
const explode: ToolSpec = {
  name: 'get_forecast',
  description: 'Forecast of a city (this one always throws).',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async () => {
    throw new Error('forecast service exploded');
  },
};
/** Waits until cancelled: a run over it ends only by the request timeout. */
const stall: ToolSpec = {
  name: 'get_history',
  description: 'Weather history of a city (never answers).',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (_args, ctx) =>
    new Promise((_resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('not cancelled')), 600_000);
      ctx.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new Error('cancelled'));
      });
    }),
};

/** Answers only once two calls are in flight at the same time: runs served one after another would never finish. */
let inFlight = 0;
const waiters: Array<() => void> = [];
const rendezvous: ToolSpec = {
  name: 'get_alerts',
  description: 'Weather alerts of a city (answers when a second request is in flight too).',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async (args) => {
    inFlight++;
    if (inFlight >= 2) for (const w of waiters.splice(0)) w();
    else await new Promise<void>((resolve) => waiters.push(resolve));
    inFlight--;
    return { city: args.city, alerts: [] };
  },
};

/** plan → lookup (a tool node on `tool`) → answer, the answer only when the lookup succeeded. */
function workflowOn(tool: string, name = `Weather via ${tool}`): Workflow {
  return {
    version: 1,
    name,
    description: `Answers weather questions with ${tool}.`,
    nodes: [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
      { id: 'lookup', kind: 'tool', task: 'Look up the weather of the city in the request', tools: [tool] },
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
      { from: 'lookup', to: 'answer', kind: 'data', when: { kind: 'status', status: 'ok' } },
    ],
  };
}

/** Answers when the test says so. */
let openGate: () => void = () => undefined;
const gate: ToolSpec = {
  name: 'get_radar',
  description: 'Radar image of a city (answers when the test opens the gate).',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => new Promise((resolve) => (openGate = () => resolve({ city: args.city, radar: 'clear' }))),
};

const specs = [weather, explode, stall, rendezvous, gate];
const descriptors = specs.map(({ execute: _e, ...d }) => d);

let server: RunningHttpServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.close();
  server = undefined;
});

async function serve(
  workflow: Workflow,
  opts: { maxBodyBytes?: number; requestTimeoutMs?: number; runs?: ServedRun[] } = {},
) {
  const service = createWorkflowService({
    workflow,
    policy: createOfflinePolicy({ tools: descriptors }),
    tools: createToolRegistry(specs),
    ...(opts.runs ? { onRun: (r: ServedRun) => void opts.runs!.push(r) } : {}),
  });
  server = await startHttpServer({
    service,
    http: true,
    mcp: { name: toolNameFor(workflow.name), description: workflow.description! },
    ...opts,
  });
  return server;
}

async function mcpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'serve-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  clients.push(client);
  return client;
}

const send = sendRaw;

describe('MCP over Streamable HTTP', () => {
  it('lists one tool named after the workflow and answers a query with the calls and per-node timings', async () => {
    const wf = workflowOn('get_weather');
    const { url } = await serve(wf);
    const client = await mcpClient(url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['weather_via_get_weather']);
    expect(tools[0]!.description).toBe('Answers weather questions with get_weather.');
    expect(tools[0]!.inputSchema.properties).toHaveProperty('query');

    const query = 'What is the weather in Oslo right now?';
    const result = await client.callTool({ name: 'weather_via_get_weather', arguments: { query } });
    const expected = await executeWorkflow(
      wf,
      { query },
      { policy: createOfflinePolicy({ tools: descriptors }), tools: createToolRegistry(specs) },
    );
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: expected.answer }]);
    expect(expected.answer).toContain('Oslo');
    const structured = result.structuredContent as Record<string, unknown>;
    expect(structured).toMatchObject({
      answer: expected.answer,
      status: 'ok',
      policy: 'offline policy (no LLM)',
      calls: [{ tool: 'get_weather', args: { city: 'Oslo' }, status: 'ok' }],
    });
    expect((structured.nodes as Array<{ id: string; durationMs: number }>).map((n) => n.id)).toEqual([
      'plan',
      'lookup',
      'answer',
    ]);
    for (const n of structured.nodes as Array<{ durationMs: number }>) expect(n.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('serves two calls at once; both succeed with their own answers', async () => {
    const runs: ServedRun[] = [];
    const { url } = await serve(workflowOn('get_weather'), { runs });
    const [a, b] = [await mcpClient(url), await mcpClient(url)];
    const [ra, rb] = await Promise.all([
      a.callTool({ name: 'weather_via_get_weather', arguments: { query: 'What is the weather in Oslo right now?' } }),
      b.callTool({ name: 'weather_via_get_weather', arguments: { query: 'What is the weather in Lima right now?' } }),
    ]);
    expect(ra.isError).toBeFalsy();
    expect(rb.isError).toBeFalsy();
    expect((ra.structuredContent as { calls: unknown[] }).calls).toEqual([
      { tool: 'get_weather', args: { city: 'Oslo' }, status: 'ok' },
    ]);
    expect((rb.structuredContent as { calls: unknown[] }).calls).toEqual([
      { tool: 'get_weather', args: { city: 'Lima' }, status: 'ok' },
    ]);
    expect(runs.map((r) => r.transport)).toEqual(['mcp-http', 'mcp-http']);
  });

  it('runs concurrent calls at the same time, not one after another', async () => {
    const { url } = await serve(workflowOn('get_alerts', 'Alerts'));
    const client = await mcpClient(url);
    const results = await Promise.all(
      ['Oslo', 'Lima'].map((city) =>
        client.callTool({ name: 'alerts', arguments: { query: `What are the weather alerts in ${city} right now?` } }),
      ),
    );
    expect(results.map((r) => (r.structuredContent as { calls: Array<{ args: unknown }> }).calls[0]!.args)).toEqual([
      { city: 'Oslo' },
      { city: 'Lima' },
    ]);
  });

  it('a tool that throws inside the workflow comes back as a tool error naming it, and the server keeps serving', async () => {
    const { url } = await serve(workflowOn('get_forecast', 'Forecast'));
    const client = await mcpClient(url);
    const result = await client.callTool({ name: 'forecast', arguments: { query: 'Forecast for Oslo?' } });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    // Why, in words: the tool by name, the request's own words, no node of the workflow.
    expect(text).toBe(
      [
        'the workflow run failed: no answer could be written: the steps it needs got no result',
        "  get_forecast: 'get_forecast' failed: forecast service exploded",
        'I could not get your request done: “Forecast for Oslo”.',
      ].join('\n'),
    );
    const again = await client.callTool({ name: 'forecast', arguments: { query: '' } });
    expect(again.isError).toBe(true);
    expect((again.content as Array<{ text: string }>)[0]!.text).toContain(
      'error [INVALID_INPUT]: $.query: `query` must be a non-empty string',
    );
    expect((await client.listTools()).tools).toHaveLength(1);
  });
});

describe('MCP over Streamable HTTP, guarded', () => {
  it('refuses an MCP request whose Host names another machine (DNS rebinding) while bound to 127.0.0.1', async () => {
    const { url, port } = await serve(workflowOn('get_weather'));
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const evil = await send(url, 'POST', '/mcp', init, { ...headers, host: `attacker.example:${port}` });
    expect(evil.status).toBe(403);
    const fine = await send(url, 'POST', '/mcp', init, headers);
    expect(fine.status).toBe(200);
  });
});

describe('the HTTP endpoint', () => {
  it('POST /run answers with the answer, calls, observations and usage; GET /health says what is served', async () => {
    const { url } = await serve(workflowOn('get_weather'));
    const health = await send(url, 'GET', '/health');
    expect(health).toEqual({
      status: 200,
      json: {
        status: 'ok',
        workflow: 'Weather via get_weather',
        policy: 'offline policy (no LLM)',
        runs: { waiting: 0, running: 0 },
      },
    });
    const res = await send(url, 'POST', '/run', JSON.stringify({ query: 'What is the weather in Oslo?' }));
    expect(res.status).toBe(200);
    expect(res.json.answer).toContain('Oslo');
    expect(res.json.calls).toEqual([
      { tool: 'get_weather', args: { city: 'Oslo' }, status: 'ok', output: { city: 'Oslo', tempC: 7, sky: 'rain' } },
    ]);
    expect(
      (res.json.observations as Array<{ nodeId: string; status: string }>).map((o) => [o.nodeId, o.status]),
    ).toEqual([
      ['plan', 'ok'],
      ['lookup', 'ok'],
      ['answer', 'ok'],
    ]);
    expect(res.json.usage).toMatchObject({ llmCalls: 0, toolCalls: 1 });
  });

  it('refuses a bad body with a JSON error and a code: not JSON, no query, wrong type, too large, unknown route', async () => {
    const { url } = await serve(workflowOn('get_weather'), { maxBodyBytes: 200 });
    const answered: Awaited<ReturnType<typeof send>>[] = [];
    const ask = async (...args: Parameters<typeof send>) => {
      const res = await send(...args);
      answered.push(res);
      return res;
    };
    expect(await ask(url, 'POST', '/run', '{"query": "Oslo"')).toMatchObject({
      status: 400,
      json: { error: { code: 'BAD_JSON' } },
    });
    expect(await ask(url, 'POST', '/run', JSON.stringify({ question: 'Oslo?' }))).toMatchObject({
      status: 400,
      json: {
        error: { code: 'INVALID_INPUT', message: expect.stringContaining('`query` must be a non-empty string') },
      },
    });
    expect(await ask(url, 'POST', '/run', JSON.stringify(['Oslo?']))).toMatchObject({
      status: 400,
      json: { error: { code: 'INVALID_INPUT' } },
    });
    expect(
      await ask(url, 'POST', '/run', 'query=Oslo', { 'content-type': 'application/x-www-form-urlencoded' }),
    ).toMatchObject({ status: 415, json: { error: { code: 'UNSUPPORTED_MEDIA_TYPE' } } });
    expect(await ask(url, 'POST', '/run', JSON.stringify({ query: 'x'.repeat(500) }))).toMatchObject({
      status: 413,
      json: { error: { code: 'BODY_TOO_LARGE', message: expect.stringContaining('at most 200') } },
    });
    expect(await ask(url, 'GET', '/run')).toMatchObject({
      status: 405,
      json: { error: { code: 'METHOD_NOT_ALLOWED' } },
    });
    expect(await ask(url, 'GET', '/nothing')).toMatchObject({ status: 404, json: { error: { code: 'NOT_FOUND' } } });
    // Every code it answered is one of ERROR_CODES, with the HTTP status that table gives it.
    for (const res of answered) {
      const code = (res.json.error as { code: string }).code;
      expect(isErrorCode(code), code).toBe(true);
      expect(res.status, code).toBe(HTTP_STATUS[code as ErrorCode]);
    }
    // The server is still there after all of that.
    expect((await send(url, 'POST', '/run', JSON.stringify({ query: 'Oslo?' }))).status).toBe(200);
  });

  it('cancels a run past the request timeout and answers 504; a failed run is 502 with its reason', async () => {
    const { url } = await serve(workflowOn('get_history', 'History'), { requestTimeoutMs: 300 });
    const slow = await send(url, 'POST', '/run', JSON.stringify({ query: 'History of Oslo?' }));
    expect(slow).toMatchObject({
      status: 504,
      json: {
        error: {
          code: 'TIMEOUT',
          message: expect.stringContaining('300 ms'),
          hint: expect.stringContaining('--timeout'),
        },
      },
    });
    await server!.close();
    const failing = await serve(workflowOn('get_forecast', 'Forecast'));
    const failed = await send(failing.url, 'POST', '/run', JSON.stringify({ query: 'Forecast for Oslo?' }));
    expect(failed.status).toBe(502);
    expect(failed.json).toMatchObject({
      error: { code: 'RUN_FAILED', message: expect.stringContaining('forecast service exploded') },
      status: 'error',
      answer: 'I could not get your request done: “Forecast for Oslo”.',
      unserved: ['Forecast for Oslo'],
    });
  });
});

describe('stopping', () => {
  it('lets a run in flight finish and answer before the server closes', async () => {
    const s = await serve(workflowOn('get_radar', 'Radar'));
    const pending = send(
      s.url,
      'POST',
      '/run',
      JSON.stringify({ query: 'What is the weather radar in Oslo right now?' }),
    );
    // Wait until the run is in flight (the tool holds it there until the gate opens).
    while (((await send(s.url, 'GET', '/health')).json.runs as { running: number }).running === 0)
      await new Promise((r) => setTimeout(r, 10));
    const closing = s.close(60_000);
    openGate();
    const res = await pending;
    await closing;
    server = undefined;
    expect(res.status).toBe(200);
    expect(res.json.calls).toEqual([
      { tool: 'get_radar', args: { city: 'Oslo' }, status: 'ok', output: { city: 'Oslo', radar: 'clear' } },
    ]);
  });
});

describe('served runs in the store', () => {
  it('records each run with its trace, newest first', () => {
    const store = openStore(':memory:');
    const id = store.recordServedRun({
      workflow: 'W',
      workflowHash: 'h1',
      transport: 'http',
      policyLabel: 'offline policy (no LLM)',
      query: 'q?',
      status: 'ok',
      answer: 'a',
      durationMs: 12.5,
      trace: { calls: [] },
    });
    store.recordServedRun({
      workflow: 'W',
      workflowHash: 'h2',
      transport: 'mcp-stdio',
      policyLabel: 'offline policy (no LLM)',
      query: 'q2?',
      status: 'error',
      answer: '',
      error: 'cancelled',
      durationMs: 3,
      trace: { calls: [1] },
    });
    expect(store.listServedRuns().map((r) => [r.query, r.transport, r.status, r.error])).toEqual([
      ['q2?', 'mcp-stdio', 'error', 'cancelled'],
      ['q?', 'http', 'ok', undefined],
    ]);
    expect(store.listServedRuns({ workflowHash: 'h1' })).toEqual([
      expect.objectContaining({ id, answer: 'a', durationMs: 12.5, trace: { calls: [] } }),
    ]);
    store.close();
  });
});
