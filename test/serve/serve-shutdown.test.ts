import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../src/contracts/tools.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import { startHttpServer, type RunningHttpServer } from '../../src/serve/http-server.js';
import { createWorkflowService } from '../../src/serve/workflow-service.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { spawnCli, type ChildCli } from '../support/child-cli.js';
import { sendRaw } from '../support/http-send.js';
import { planToolAnswer } from '../support/workflows.js';

/**
 * Stopping `flowscout serve` while a request runs: after the grace period (`--grace`), a request
 * still running is answered 503 with the error shape `{error: {code: "SHUTTING_DOWN", message,
 * hint}}` and its run is cancelled, instead of its connection being cut with no answer. The tool
 * here never answers and ignores its signal, so only the shutdown can end the request; the test
 * waits for the tool to be entered (a line it prints, or a promise), never for time to pass.
 */

const workflow = planToolAnswer({
  name: 'Weather history',
  description: 'Answers weather history questions.',
  tool: { id: 'lookup', task: 'Look up the weather history of the city in the request', tools: ['get_history'] },
  answer: { prompt: 'Answer {{query}} from:\n{{inputs}}' },
});
const inputSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;
const query = JSON.stringify({ query: 'How many rainy days did Oslo have last month?' });

const shuttingDown = {
  error: {
    code: 'SHUTTING_DOWN',
    message: 'the server is stopping and this request did not finish within its grace period',
    hint: expect.stringContaining('--grace <ms>'),
  },
};

const children: ChildCli[] = [];
let server: RunningHttpServer | undefined;
afterEach(async () => {
  await server?.close(0);
  server = undefined;
  for (const c of children.splice(0))
    if (c.child.exitCode === null && c.child.signalCode === null) await c.stop('SIGKILL');
});

describe('SIGTERM with a request in flight', () => {
  it('a real serve process answers the hung POST /run 503 with the error JSON, then exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-serve-stop-'));
    writeFileSync(
      join(dir, 'tools.mjs'),
      `export const get_history = { name: 'get_history', description: 'Weather history of a city.', inputSchema: ${JSON.stringify(inputSchema)},
  execute: () => { process.stderr.write('get_history entered\\n'); return new Promise(() => {}); } };\n`,
    );
    writeFileSync(
      join(dir, 'tools.config.json'),
      JSON.stringify({ version: 1, sources: [{ type: 'functions', module: './tools.mjs' }] }),
    );
    writeFileSync(join(dir, 'wf.json'), JSON.stringify(workflow));
    const child = spawnCli([
      'serve',
      join(dir, 'wf.json'),
      '--tools',
      join(dir, 'tools.config.json'),
      '--http',
      '--grace',
      '0',
    ]);
    children.push(child);
    const [, url] = await child.waitFor(/HTTP: POST (http:\/\/\S+)\/run/, 60_000);
    const answer = sendRaw(url!, 'POST', '/run', query);
    await child.waitFor(/get_history entered/, 60_000);
    child.child.kill('SIGTERM');
    const res = await answer;
    expect(res).toEqual({ status: 503, json: shuttingDown });
    expect(await child.exited).toBe(0);
    expect(child.output()).toContain('stopping: no new requests; letting 1 runs in flight finish (up to 0 s)');
  }, 120_000);
});

describe('closing the HTTP server past its grace period', () => {
  function hungService() {
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((r) => (entered = r));
    let cancelled = false;
    const tool: ToolSpec = {
      name: 'get_history',
      description: 'Weather history of a city.',
      inputSchema,
      execute: (_args, ctx) => {
        ctx.signal?.addEventListener('abort', () => (cancelled = true));
        entered();
        return new Promise(() => undefined);
      },
    };
    const { execute: _e, ...descriptor } = tool;
    const service = createWorkflowService({
      workflow,
      policy: createOfflinePolicy({ tools: [descriptor] }),
      tools: createToolRegistry([tool]),
    });
    return { service, inside, cancelled: () => cancelled };
  }

  it('answers POST /run 503 and cancels its run', async () => {
    const { service, inside, cancelled } = hungService();
    server = await startHttpServer({ service });
    const answer = sendRaw(server.url, 'POST', '/run', query);
    await inside;
    await server.close(0);
    server = undefined;
    expect(await answer).toEqual({ status: 503, json: shuttingDown });
    expect(cancelled()).toBe(true);
  });

  it('answers an MCP tool call over /mcp 503 too', async () => {
    const { service, inside } = hungService();
    server = await startHttpServer({ service, http: false, mcp: { name: 'weather_history', description: 'History.' } });
    const client = new Client({ name: 'serve-shutdown-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const call = client
      .callTool({ name: 'weather_history', arguments: { query: 'How many rainy days did Oslo have last month?' } })
      .catch((e: unknown) => e);
    await inside;
    await server.close(0);
    server = undefined;
    const e = await call;
    // The SDK's client error carries the HTTP status as `code` and the body in its message.
    expect(e).toMatchObject({ code: 503, message: expect.stringContaining('"code":"SHUTTING_DOWN"') });
    await client.close();
  });
});
