import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpStdioCommand } from '../support/mcp-stdio-server.js';
import { loadToolConfig } from '../../src/tools/load-tool-config.js';

const dir = mkdtempSync(join(tmpdir(), 'flowscout-toolcfg-'));
mkdirSync(join(dir, 'data'));
writeFileSync(
  join(dir, 'data', 'records.jsonl'),
  `${JSON.stringify({ id: 'r1', query: 'q', reference: 'a', calls: [{ tool: 'get_quote', args: { symbol: 'AAPL' }, output: 'price 1', status: 'ok' }] })}\n`,
);
writeFileSync(
  join(dir, 'data', 'tools.json'),
  JSON.stringify([
    {
      name: 'get_quote',
      description: 'quote',
      inputSchema: { type: 'object', properties: { symbol: { type: 'string' } } },
    },
  ]),
);
writeFileSync(
  join(dir, 'my-tools.mjs'),
  `export const shout = { name: 'shout', description: 'upper-cases', inputSchema: { type: 'object', properties: { s: { type: 'string' } } }, execute: async ({ s }) => s.toUpperCase() };`,
);
writeFileSync(
  join(dir, 'dup-tools.mjs'),
  `export const add = { name: 'add', description: 'clashes with the MCP add', inputSchema: { type: 'object', properties: {} }, execute: async () => 0 };`,
);

function config(name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

describe('loadToolConfig', () => {
  it('builds replay, functions and MCP sources with paths relative to the config file', async () => {
    const { command, args } = mcpStdioCommand();
    const file = config('tools.json', {
      version: 1,
      timeoutMs: 5000,
      // The test server starts through tsx: on a loaded machine that takes longer than a tool call may.
      sources: [
        { type: 'replay', records: 'data/records.jsonl', tools: 'data/tools.json' },
        { type: 'functions', module: './my-tools.mjs' },
        { type: 'mcp', name: 'test', transport: 'stdio', command, args, include: ['add'], startTimeoutMs: 120_000 },
      ],
    });
    const reg = await loadToolConfig(file);
    try {
      expect(reg.list().map((t) => t.name)).toEqual(['get_quote', 'shout', 'add']);
      expect(await reg.call('get_quote', { symbol: 'AAPL' })).toMatchObject({
        status: 'ok',
        output: 'price 1',
        origin: 'replay',
      });
      expect(await reg.call('shout', { s: 'hi' })).toMatchObject({ output: 'HI' });
      expect(await reg.call('add', { a: 1, b: 1 })).toMatchObject({ output: { sum: 2 } });
    } finally {
      await reg.close();
    }
  });

  it('names the JSON path of every config problem', async () => {
    const file = config('bad.json', {
      version: 1,
      sources: [
        { type: 'replay', records: 'r.jsonl' },
        { type: 'mcp', name: 'x', transport: 'http', url: 'not a url' },
      ],
    });
    await expect(loadToolConfig(file)).rejects.toThrow(
      /\$\.sources\[0\]\.tools: is required[\s\S]*\$\.sources\[1\]\.url/,
    );
    await expect(loadToolConfig(config('syntax.json', '{ "version": 1,\n  "sources": [ }'))).rejects.toMatchObject({
      code: 'PARSE_ERROR',
      location: { line: 2 },
    });
    // A mistyped kind names the kinds there are, not the fields of whichever kind zod tried first.
    const kinds = config('kinds.json', {
      version: 1,
      sources: [
        { type: 'mcpp', module: 'x.js' },
        { type: 'mcp', name: 'x', transport: 'sse', url: 'http://127.0.0.1/mcp' },
      ],
    });
    await expect(loadToolConfig(kinds)).rejects.toThrow(
      /\$\.sources\[0\]\.type: Invalid discriminator value\. Expected 'replay' \| 'functions' \| 'mcp'\n\s+\$\.sources\[1\]\.transport: Invalid discriminator value\. Expected 'stdio' \| 'http'/,
    );
  });

  it('fails clearly on a tool name defined by two sources, and on simulate without a model', async () => {
    const { command, args } = mcpStdioCommand();
    const dup = config('dup.json', {
      version: 1,
      sources: [
        { type: 'mcp', name: 'test', transport: 'stdio', command, args },
        { type: 'functions', module: 'dup-tools.mjs' },
      ],
    });
    await expect(loadToolConfig(dup)).rejects.toThrow(
      "tool 'add' is defined twice (by source 'test' and by source 'functions dup-tools.mjs')",
    );
    const sim = config('sim.json', {
      version: 1,
      sources: [{ type: 'replay', records: 'data/records.jsonl', tools: 'data/tools.json', onMiss: 'simulate' }],
    });
    await expect(loadToolConfig(sim)).rejects.toMatchObject({
      code: 'MODEL_CONFIG',
      location: { path: '$.sources[0].onMiss' },
    });
    const withSim = await loadToolConfig(sim, { simulate: async () => 'made up' });
    expect(await withSim.call('get_quote', { symbol: 'ZZZ' })).toMatchObject({
      output: 'made up',
      origin: 'simulated',
    });
  });
});

describe('an MCP server that starts and never answers', () => {
  it("is given up after the config's timeoutMs (its start-up wait too), with a TOOL_ERROR naming it", async () => {
    const { mkdtempSync: mk, writeFileSync: wf } = await import('node:fs');
    const { tmpdir: td } = await import('node:os');
    const { join: j } = await import('node:path');
    const dir = mk(j(td(), 'flowscout-mcp-silent-'));
    const file = j(dir, 'tools.config.json');
    wf(
      file,
      JSON.stringify({
        version: 1,
        timeoutMs: 300,
        sources: [
          {
            type: 'mcp',
            name: 'silent',
            transport: 'stdio',
            command: process.execPath,
            args: ['-e', 'setInterval(() => {}, 1000)'],
          },
        ],
      }),
    );
    const err = await loadToolConfig(file).then(
      () => undefined,
      (e: unknown) => e as Error & { code: string },
    );
    expect(err?.code).toBe('TOOL_ERROR');
    expect(err?.message).toMatch(/MCP server 'silent' .*could not connect: .*timed out/i);
  });
});
