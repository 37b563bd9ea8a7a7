import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../src/contracts/tools.js';
import type { Workflow } from '../../src/graph/schema.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import { startHttpServer, type RunningHttpServer } from '../../src/serve/http-server.js';
import { createWorkflowService } from '../../src/serve/workflow-service.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { isFlowScoutError } from '../../src/errors/index.js';
import { spawnCli, type ChildCli } from '../support/child-cli.js';
import { cli } from '../support/cli-io.js';
import { sendRaw } from '../support/http-send.js';

/**
 * `flowscout serve` exposed: every route checks the Host header (DNS rebinding) and, with a token,
 * the bearer token; a non-loopback --host needs a token or --insecure and warns either way; a tool
 * that throws from a timer fails its call instead of the process; SIGTERM ends the process even
 * with a tool's timer pending; a busy port is a named error.
 */

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather of a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async (args) => ({ city: args.city, tempC: 7 }),
};
/** Throws from a timer: no promise of the call ever rejects. */
const timerBomb: ToolSpec = {
  name: 'get_forecast',
  description: 'Forecast of a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: () =>
    new Promise(() => {
      setTimeout(() => {
        throw new Error('forecast timer exploded');
      }, 5);
    }),
};

function workflowOn(tool: string): Workflow {
  return {
    version: 1,
    name: `Weather via ${tool}`,
    description: 'Answers weather questions.',
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

const specs = [weather, timerBomb];
const descriptors = specs.map(({ execute: _e, ...d }) => d);
let server: RunningHttpServer | undefined;
const children: ChildCli[] = [];
afterEach(async () => {
  await server?.close(0);
  server = undefined;
  for (const c of children.splice(0))
    if (c.child.exitCode === null && c.child.signalCode === null) await c.stop('SIGKILL');
});

async function serve(tool: string, opts: { token?: string; host?: string; allowedHosts?: string[] } = {}) {
  const service = createWorkflowService({
    workflow: workflowOn(tool),
    policy: createOfflinePolicy({ tools: descriptors }),
    tools: createToolRegistry(specs),
  });
  server = await startHttpServer({ service, http: true, mcp: { name: 'weather', description: 'Weather.' }, ...opts });
  return server;
}

const send = (url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  sendRaw(url, method, path, body, headers);

const run = JSON.stringify({ query: 'What is the weather in Oslo?' });

describe('Host check on every route (DNS rebinding)', () => {
  it('/run and /health refuse a Host naming another machine, and answer the loopback names', async () => {
    const { url, port } = await serve('get_weather');
    for (const evil of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1.nip.io:${port}`]) {
      expect(await send(url, 'GET', '/health', { host: evil })).toMatchObject({
        status: 403,
        json: { error: { code: 'FORBIDDEN_HOST' } },
      });
      expect(await send(url, 'POST', '/run', { host: evil }, run)).toMatchObject({
        status: 403,
        json: { error: { code: 'FORBIDDEN_HOST' } },
      });
    }
    for (const good of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`])
      expect((await send(url, 'GET', '/health', { host: good })).status).toBe(200);
    expect((await send(url, 'POST', '/run', {}, run)).status).toBe(200);
  });

  it('--allowed-host adds a name', async () => {
    const { url, port } = await serve('get_weather', { allowedHosts: ['flows.example.com'] });
    expect((await send(url, 'GET', '/health', { host: `flows.example.com:${port}` })).status).toBe(200);
    expect((await send(url, 'GET', '/health', { host: `other.example.com:${port}` })).status).toBe(403);
  });
});

describe('bearer token', () => {
  const token = 'a-long-enough-secret-token-0123456789';
  it('every route needs Authorization: Bearer <token> when one is set', async () => {
    const { url } = await serve('get_weather', { token });
    const mcpInit = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const mcpHeaders = { accept: 'application/json, text/event-stream' };
    expect(await send(url, 'GET', '/health')).toMatchObject({ status: 401, json: { error: { code: 'UNAUTHORIZED' } } });
    expect(await send(url, 'POST', '/run', { authorization: 'Bearer wrong-token' }, run)).toMatchObject({
      status: 401,
    });
    expect(await send(url, 'POST', '/mcp', mcpHeaders, mcpInit)).toMatchObject({ status: 401 });
    const auth = { authorization: `Bearer ${token}` };
    expect((await send(url, 'GET', '/health', auth)).status).toBe(200);
    expect((await send(url, 'POST', '/run', auth, run)).status).toBe(200);
    expect((await send(url, 'POST', '/mcp', { ...auth, ...mcpHeaders }, mcpInit)).status).toBe(200);
    // The token is in no answer.
    expect(JSON.stringify(await send(url, 'POST', '/run', { authorization: 'Bearer nope' }, run))).not.toContain(token);
  });

  it('a non-loopback --host without a token is refused before anything starts; the token must not be short', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-serve-host-'));
    const wf = join(dir, 'wf.json');
    writeFileSync(wf, JSON.stringify(workflowOn('get_weather')));
    const res = await cli(['serve', wf, '--tools', join(dir, 'missing.json'), '--http', '--host', '0.0.0.0']);
    expect(res.status).toBe(2);
    expect(res.err).toMatch(
      /error \[INVALID_INPUT\]: .*--host 0\.0\.0\.0 serves the workflow \(and its tools\) to other machines, and no token was given/,
    );
    expect(res.err).toContain('--token');
    const short = await cli(['serve', wf, '--tools', join(dir, 'missing.json'), '--http', '--token', 'abc']);
    expect(short.status).toBe(2);
    expect(short.err).toContain('use at least 16');
  });
});

describe('exposed serve from the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fs-serve-cli-'));
  // A tool whose module leaves a timer of a minute behind on every call.
  writeFileSync(
    join(dir, 'tools.mjs'),
    `export const get_weather = { name: 'get_weather', description: 'Current weather of a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async (args) => { setTimeout(() => {}, 60_000); return { city: args.city, tempC: 7 }; } };
export const get_forecast = { name: 'get_forecast', description: 'Forecast of a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: () => new Promise(() => { setTimeout(() => { throw new Error('forecast timer exploded'); }, 5); }) };\n`,
  );
  writeFileSync(join(dir, 'wf-bomb.json'), JSON.stringify(workflowOn('get_forecast')));
  writeFileSync(
    join(dir, 'tools.config.json'),
    JSON.stringify({ version: 1, sources: [{ type: 'functions', module: './tools.mjs' }] }),
  );
  writeFileSync(join(dir, 'wf.json'), JSON.stringify(workflowOn('get_weather')));
  const args = (...extra: string[]) => [
    'serve',
    join(dir, 'wf.json'),
    '--tools',
    join(dir, 'tools.config.json'),
    '--http',
    ...extra,
  ];

  it('warns on a non-loopback --host with --insecure, and with a token', async () => {
    const insecure = spawnCli(args('--host', '0.0.0.0', '--insecure'));
    children.push(insecure);
    await insecure.waitFor(/HTTP: POST/, 60_000);
    expect(insecure.output()).toContain(
      'warning: serving on 0.0.0.0 with --insecure: anyone who can reach this port can run the workflow',
    );
    const secret = 'env-token-0123456789abcdef';
    const withToken = spawnCli(args('--host', '0.0.0.0'), { FLOWSCOUT_SERVE_TOKEN: secret });
    children.push(withToken);
    const [, url] = await withToken.waitFor(/HTTP: POST (http:\/\/\S+)\/run/, 60_000);
    expect(withToken.output()).toContain(
      'warning: serving on 0.0.0.0: reachable from other machines; requests need the bearer token',
    );
    expect(withToken.output()).not.toContain(secret);
    const port = new URL(url!).port;
    expect((await send(`http://127.0.0.1:${port}`, 'GET', '/health')).status).toBe(401);
    expect(
      (await send(`http://127.0.0.1:${port}`, 'GET', '/health', { authorization: `Bearer ${secret}` })).status,
    ).toBe(200);
  }, 120_000);

  it('after SIGTERM serve exits even with a tool timer pending (before: it lived until the timer ended)', async () => {
    const child = spawnCli(args());
    children.push(child);
    const [, url] = await child.waitFor(/HTTP: POST (http:\/\/\S+)\/run/, 60_000);
    expect((await send(url!, 'POST', '/run', {}, run)).status).toBe(200);
    child.child.kill('SIGTERM');
    // The test's own time limit (well under the tool's minute) is the measure.
    expect(await child.exited).toBe(0);
    expect(child.output()).toContain('stopping: no new requests');
  }, 40_000);

  it('a tool that throws from a timer does not end the server process', async () => {
    const child = spawnCli(['serve', join(dir, 'wf-bomb.json'), '--tools', join(dir, 'tools.config.json'), '--http']);
    children.push(child);
    const [, url] = await child.waitFor(/HTTP: POST (http:\/\/\S+)\/run/, 60_000);
    const res = await send(url!, 'POST', '/run', {}, JSON.stringify({ query: 'Forecast for Oslo?' }));
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.json)).toContain('forecast timer exploded');
    expect((await send(url!, 'GET', '/health')).status).toBe(200);
    expect(child.child.exitCode).toBe(null);
  }, 60_000);

  it('a busy port is a named error (exit 2), not "a bug" (exit 70)', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as AddressInfo).port;
    try {
      const res = await cli(args('--port', String(port)));
      expect(res.status).toBe(2);
      expect(res.err).toMatch(/error \[INVALID_INPUT\]: /);
      expect(res.err).toContain(`port ${port} on 127.0.0.1 is in use`);
      expect(res.err).not.toContain('bug');
      const e = await startHttpServer({
        service: createWorkflowService({
          workflow: workflowOn('get_weather'),
          policy: createOfflinePolicy({ tools: descriptors }),
          tools: createToolRegistry(specs),
        }),
        port,
      }).catch((x: unknown) => x);
      expect(isFlowScoutError(e) && e.code).toBe('INVALID_INPUT');
    } finally {
      await new Promise((r) => busy.close(r));
    }
  }, 60_000);
});

describe('a tool that throws from a timer', () => {
  it('fails its call (502 naming the error), and the server keeps serving', async () => {
    const { url } = await serve('get_forecast');
    const res = await send(url, 'POST', '/run', {}, JSON.stringify({ query: 'Forecast for Oslo?' }));
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.json)).toContain('forecast timer exploded');
    expect((await send(url, 'GET', '/health')).status).toBe(200);
  });

  it('the registry turns it into an error outcome of that call', async () => {
    const registry = createToolRegistry(specs);
    const [bad, good] = await Promise.all([
      registry.call('get_forecast', { city: 'Oslo' }),
      registry.call('get_weather', { city: 'Lima' }),
    ]);
    expect(bad).toMatchObject({
      status: 'error',
      error: expect.stringContaining(
        "'get_forecast' failed: forecast timer exploded (thrown outside the call's promise",
      ),
    });
    expect(good).toMatchObject({ status: 'ok', output: { city: 'Lima', tempC: 7 } });
  });
});
