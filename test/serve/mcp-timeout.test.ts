import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../src/contracts/tools.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import { startHttpServer, type RunningHttpServer } from '../../src/serve/http-server.js';
import { createWorkflowService, type WorkflowService } from '../../src/serve/workflow-service.js';
import { createToolRegistry } from '../../src/tools/registry.js';
import { planToolAnswer } from '../support/workflows.js';

/**
 * The request timeout (`serve --timeout`) bounds an MCP tool call as it bounds `POST /run`: a call
 * whose run hangs (a tool that never answers and ignores its abort signal) is cancelled at the
 * timeout and answers a tool error carrying the TIMEOUT error shape, and its slot of `--max-runs`
 * is freed, so the next call is answered. Over Streamable HTTP (in-process) and over stdio (the CLI
 * as a child process). A client that goes away cancels its run. Nothing here is timed: the timeout
 * only has to be longer than one healthy run of a three-node offline workflow.
 */

const TIMEOUT_MS = 1_000;
const BIN = join(import.meta.dirname, '../../bin/flowscout.js');

const workflow = planToolAnswer({
  name: 'Weather history',
  description: 'Answers weather history questions.',
  tool: { id: 'lookup', task: 'Look up the weather history of the city in the request', tools: ['get_history'] },
  answer: { prompt: 'Answer {{query}} from:\n{{inputs}}' },
});
const inputSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;

/** The first call never answers and ignores its signal; later calls answer at once. */
let calls = 0;
let hungSignal: AbortSignal | undefined;
const history: ToolSpec = {
  name: 'get_history',
  description: 'Weather history of a city.',
  inputSchema,
  execute: (args, ctx) => {
    if (++calls === 1) {
      hungSignal = ctx.signal;
      return new Promise(() => undefined);
    }
    return Promise.resolve({ city: args.city, rainDays: 12 });
  },
};

let server: RunningHttpServer | undefined;
const clients: Client[] = [];
beforeEach(() => {
  calls = 0;
  hungSignal = undefined;
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.close(0);
  server = undefined;
});

function serviceOver(tool: ToolSpec): WorkflowService {
  const { execute: _e, ...descriptor } = tool;
  return createWorkflowService({
    workflow,
    policy: createOfflinePolicy({ tools: [descriptor] }),
    tools: createToolRegistry([tool]),
    maxRuns: 1,
  });
}

async function connectHttp(url: string): Promise<Client> {
  const client = new Client({ name: 'mcp-timeout-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  clients.push(client);
  return client;
}

const ask = (client: Client, query: string) =>
  client.callTool({ name: 'weather_history', arguments: { query } }) as Promise<CallToolResult>;

/** The answer to a call cancelled at the timeout: a line to read, then the error shape as JSON. */
function expectTimedOut(result: CallToolResult): void {
  expect(result.isError).toBe(true);
  const texts = result.content.map((c) => (c.type === 'text' ? c.text : ''));
  expect(texts[0]).toMatch(new RegExp(`^error \\[TIMEOUT\\]: .*request timeout of ${TIMEOUT_MS} ms`));
  expect(JSON.parse(texts[1]!)).toEqual({
    error: {
      code: 'TIMEOUT',
      message: `the run did not finish within the request timeout of ${TIMEOUT_MS} ms and was cancelled`,
      hint: expect.stringMatching(/--timeout <ms>.*slow tool/),
    },
  });
}

describe('an MCP tool call runs under the request timeout', () => {
  it('over Streamable HTTP: the hung call is a TIMEOUT tool error, its run is cancelled, and the next call is answered', async () => {
    server = await startHttpServer({
      service: serviceOver(history),
      mcp: { name: 'weather_history', description: 'Weather history.' },
      requestTimeoutMs: TIMEOUT_MS,
    });
    const client = await connectHttp(server.url);
    expectTimedOut(await ask(client, 'How many rainy days did Oslo have last month?'));
    // The run was cancelled through the tool's signal, though the tool ignores it.
    expect(hungSignal?.aborted).toBe(true);
    // --max-runs 1: the next call gets the slot only if the hung run gave it back.
    const next = await ask(client, 'How many rainy days did Lima have last month?');
    expect(next.isError).toBeFalsy();
    expect(next.structuredContent).toMatchObject({
      status: 'ok',
      calls: [{ tool: 'get_history', args: { city: 'Lima' }, status: 'ok' }],
    });
  }, 60_000);

  it('a client that goes away cancels its run (the SDK aborts the handler), freeing the slot', async () => {
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((r) => (entered = r));
    let cancelled: () => void = () => undefined;
    const sawCancel = new Promise<void>((r) => (cancelled = r));
    /** Waits for its signal on the first call, answers later ones. */
    const waiting: ToolSpec = {
      ...history,
      execute: (args, ctx) => {
        if (++calls > 1) return Promise.resolve({ city: args.city, rainDays: 12 });
        entered();
        return new Promise((_resolve, reject) =>
          ctx.signal?.addEventListener('abort', () => {
            cancelled();
            reject(new Error('cancelled'));
          }),
        );
      },
    };
    // A timeout no test run reaches: only the disconnect can end the first call.
    server = await startHttpServer({
      service: serviceOver(waiting),
      mcp: { name: 'weather_history', description: 'Weather history.' },
      requestTimeoutMs: 600_000,
    });
    const leaving = await connectHttp(server.url);
    const call = ask(leaving, 'How many rainy days did Oslo have last month?').catch((e: unknown) => e);
    await inside;
    await leaving.close();
    await sawCancel;
    expect(await call).toBeInstanceOf(Error);
    const next = await ask(await connectHttp(server.url), 'How many rainy days did Lima have last month?');
    expect(next.isError).toBeFalsy();
    expect(next.structuredContent).toMatchObject({ status: 'ok', calls: [{ args: { city: 'Lima' } }] });
  }, 60_000);

  it('over stdio (flowscout serve --mcp stdio --timeout): the same TIMEOUT error, and the next call is answered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fs-mcp-timeout-'));
    writeFileSync(
      join(dir, 'tools.mjs'),
      `let calls = 0;
export const get_history = { name: 'get_history', description: 'Weather history of a city.', inputSchema: ${JSON.stringify(inputSchema)},
  execute: (args) => (++calls === 1 ? new Promise(() => {}) : Promise.resolve({ city: args.city, rainDays: 12 })) };\n`,
    );
    writeFileSync(
      join(dir, 'tools.config.json'),
      JSON.stringify({ version: 1, sources: [{ type: 'functions', module: './tools.mjs' }] }),
    );
    writeFileSync(join(dir, 'wf.json'), JSON.stringify(workflow));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        BIN,
        'serve',
        join(dir, 'wf.json'),
        '--tools',
        join(dir, 'tools.config.json'),
        '--mcp',
        'stdio',
        '--timeout',
        String(TIMEOUT_MS),
        '--max-runs',
        '1',
      ],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'mcp-timeout-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    expectTimedOut(await ask(client, 'How many rainy days did Oslo have last month?'));
    const next = await ask(client, 'How many rainy days did Lima have last month?');
    expect(next.isError).toBeFalsy();
    expect(next.structuredContent).toMatchObject({
      status: 'ok',
      calls: [{ tool: 'get_history', args: { city: 'Lima' }, status: 'ok' }],
    });
  }, 120_000);
});
