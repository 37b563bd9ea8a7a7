import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMcpHttpServer, type TestMcpHttpServer } from '../support/mcp-http-server.js';
import { mcpStdioCommand } from '../support/mcp-stdio-server.js';
import { testTemperature } from '../support/mcp-test-server.js';
import type { Workflow } from '../../src/graph/schema.js';
import { loadToolConfig } from '../../src/tools/load-tool-config.js';
import type { ToolRegistry } from '../../src/contracts/tools.js';
import { executeWorkflow } from '../../src/runtime/execute.js';
import { createScriptedPolicy } from '../../src/testing/scripted-policy.js';

/** Weather for two cities in parallel, a failing position routed around, then a sum of the temperatures. */
const workflow: Workflow = {
  version: 1,
  name: 'mcp-weather',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
    { id: 'oslo', kind: 'tool', task: 'weather in Oslo', tools: ['get_weather'] },
    { id: 'rome', kind: 'tool', task: 'weather in Rome', tools: ['get_weather'] },
    { id: 'broken', kind: 'tool', task: 'a service that is down', tools: ['fail'] },
    { id: 'total', kind: 'tool', task: 'add the temperatures', tools: ['add'] },
    {
      id: 'synth',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from {{inputs}}',
      output: { type: 'text' },
    },
  ],
  edges: [
    { from: 'plan', to: 'oslo', kind: 'data' },
    { from: 'plan', to: 'rome', kind: 'data' },
    { from: 'plan', to: 'broken', kind: 'data' },
    { from: 'oslo', to: 'total', kind: 'data' },
    { from: 'rome', to: 'total', kind: 'data' },
    { from: 'broken', to: 'total', kind: 'control', when: { kind: 'status', status: 'error' } },
    { from: 'total', to: 'synth', kind: 'data' },
  ],
};

const policy = createScriptedPolicy({
  tool: (req) => {
    if (req.node.id === 'oslo' || req.node.id === 'rome')
      return [{ tool: 'get_weather', args: { city: req.node.id === 'oslo' ? 'Oslo' : 'Rome' } }];
    if (req.node.id === 'broken') return [{ tool: 'fail', args: {} }];
    const temps = req.inputs.map((i) => JSON.parse((i.output as Array<{ output: string }>)[0]!.output).tempC as number);
    return [{ tool: 'add', args: { a: temps[0], b: temps[1] } }];
  },
  llm: (req) =>
    req.node.role === 'synthesize'
      ? `sum of temperatures: ${JSON.stringify((req.inputs[0]!.output as Array<{ output: unknown }>)[0]!.output)}`
      : 'plan',
});

async function check(tools: ToolRegistry): Promise<void> {
  const t = await executeWorkflow(workflow, { query: 'How warm are Oslo and Rome together?' }, { policy, tools });
  const sum = testTemperature('Oslo') + testTemperature('Rome');
  expect(t.status).toBe('ok');
  expect(t.answer).toBe(`sum of temperatures: {"sum":${sum}}`);
  // π̂ in topological order, ties by node id: broken, oslo, rome, total.
  expect(t.calls.map((c) => `${c.tool}:${c.status}`)).toEqual([
    'fail:error',
    'get_weather:ok',
    'get_weather:ok',
    'add:ok',
  ]);
  expect(t.observations.find((o) => o.nodeId === 'broken')).toMatchObject({
    status: 'error',
    error: 'fail: the service is down',
  });
}

describe('a workflow over a real MCP server', () => {
  let http: TestMcpHttpServer;
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-mcp-wf-'));
  beforeAll(async () => {
    http = await startTestMcpHttpServer();
  });
  afterAll(async () => {
    await http.close();
  });

  it('runs over stdio (from a tool config)', async () => {
    const { command, args } = mcpStdioCommand();
    const file = join(dir, 'stdio.json');
    writeFileSync(
      file,
      JSON.stringify({ version: 1, sources: [{ type: 'mcp', name: 'weather', transport: 'stdio', command, args }] }),
    );
    const tools = await loadToolConfig(file);
    try {
      await check(tools);
    } finally {
      await tools.close();
    }
  });

  it('runs over streamable HTTP on 127.0.0.1 (from a tool config)', async () => {
    const file = join(dir, 'http.json');
    writeFileSync(
      file,
      JSON.stringify({ version: 1, sources: [{ type: 'mcp', name: 'weather', transport: 'http', url: http.url }] }),
    );
    const tools = await loadToolConfig(file);
    try {
      await check(tools);
    } finally {
      await tools.close();
    }
    expect(http.openSessions()).toBe(0);
  });
});
