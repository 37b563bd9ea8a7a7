import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';
import { startTestMcpHttpServer, type TestMcpHttpServer } from '../support/mcp-http-server.js';
import { mcpStdioCommand } from '../support/mcp-stdio-server.js';
import { toolLabel } from '../../src/graph/tool-label.js';

const dir = mkdtempSync(join(tmpdir(), 'flowscout-tools-'));
let http: TestMcpHttpServer;
beforeAll(async () => {
  http = await startTestMcpHttpServer();
});
afterAll(async () => {
  await http.close();
});

describe('flowscout tools', () => {
  it('--mcp writes tools.json (and a tool config) from a running stdio MCP server, and lists the tools', async () => {
    const { command, args } = mcpStdioCommand();
    const out = join(dir, 'stdio', 'tools.json');
    const config = join(dir, 'stdio', 'tools.config.json');
    const res = await cli([
      'tools',
      '--name',
      'weather',
      '--out',
      out,
      '--config',
      config,
      '--mcp',
      '--',
      command,
      ...args,
    ]);
    expect(res.err).toBe('');
    expect(res.status).toBe(0);
    expect(res.out).toContain('5 tools from');
    expect(res.out).toContain('  get_weather(city*) — Current weather of a city (deterministic test data).');
    expect(res.out).toContain(`Wrote ${out}, ${config}`);
    const tools = JSON.parse(readFileSync(out, 'utf8'));
    expect(tools.map((t: { name: string }) => t.name)).toEqual(['get_weather', 'add', 'fail', 'slow', 'echo_env']);
    expect(tools[1].inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({
      version: 1,
      sources: [{ type: 'mcp', name: 'weather', transport: 'stdio', command, args }],
    });
    // The written config is a working tool config: listing it starts the server again.
    const listed = await cli(['tools', config]);
    expect(listed.status).toBe(0);
    expect(listed.out).toContain(`5 tools from ${config}:`);
    expect(listed.out).toContain('  add(a*, b*) — Adds two numbers.  {read · live · MCP annotations}');
    // The server's MCP annotations are the tools' effects; a tool without them counts as a write.
    expect(listed.out).toContain(
      '  get_weather(city*) — Current weather of a city (deterministic test data).  {read · live · MCP annotations}',
    );
    expect(listed.out).toContain(
      '  fail() — Always reports an error result.  {write, idempotent · live · MCP annotations}',
    );
    expect(listed.out).toContain(
      '  slow(ms*) — Answers after `ms` milliseconds.  {destructive · live · MCP annotations}',
    );
    expect(listed.out).toContain(
      '  echo_env() — Returns the FLOWSCOUT_TEST_SECRET environment variable of the server.  {write · live · not declared (a live tool counts as write)}',
    );
    expect(listed.out).toContain(
      'effects: 2 read, 2 write, 1 destructive; 1 live tool with no declared effect counted as write',
    );
    // The tool config overrides them, by exact name and by pattern (the exact name wins).
    const withEffects = join(dir, 'stdio', 'effects.config.json');
    writeFileSync(
      withEffects,
      JSON.stringify({
        ...JSON.parse(readFileSync(config, 'utf8')),
        effects: { echo_env: 'read', 's*': { effect: 'write', idempotent: true }, slow: 'destructive' },
      }),
    );
    const overridden = await cli(['tools', withEffects, '--json']);
    expect(overridden.status).toBe(0);
    const effects = Object.fromEntries(
      JSON.parse(overridden.out).map((t: { name: string; effects: unknown }) => [t.name, t.effects]),
    );
    expect(effects.echo_env).toMatchObject({ effect: 'read', from: 'tool config', declared: true, live: true });
    expect(effects.slow).toMatchObject({ effect: 'destructive', from: 'tool config' });
    expect(effects.add).toMatchObject({ effect: 'read', from: 'MCP annotations' });
    // A name in "effects" that is no tool is a typo, named with the closest tool.
    writeFileSync(
      withEffects,
      JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), effects: { get_wether: 'read' } }),
    );
    const typo = await cli(['tools', withEffects]);
    expect(typo.status).not.toBe(0);
    expect(typo.err).toContain('get_wether');
    expect(typo.err).toContain('get_weather');
    expect(typo.err).toContain('$.effects.get_wether');
    const again = await cli(['tools', '--out', out, '--mcp', '--', command, ...args]);
    expect(again.status).not.toBe(0);
    expect(again.err).toContain('already exists');
  });

  it('--url reads an MCP server over HTTP; a tools.json is listed as it is', async () => {
    const out = join(dir, 'http.tools.json');
    const res = await cli(['tools', '--url', http.url, '--out', out, '--json']);
    expect(res.status).toBe(0);
    expect(JSON.parse(res.out).map((t: { name: string }) => t.name)).toContain('get_weather');
    const listed = await cli(['tools', out]);
    expect(listed.out).toContain('5 tools from');
    const none = await cli(['tools']);
    expect(none.status).toBe(2);
    expect(none.err).toContain('nothing to list');
  });

  it('shows a name cut to 64 characters from the front with a readable label, keeping the exact name', async () => {
    const cut = 't_of_school_in_sub_disctrict_kecamatan_for_indonesia_school_list';
    expect(cut).toHaveLength(64);
    expect(toolLabel(cut)).toBe('…t_of_school_in_sub_disctrict_kecamatan (indonesia_school_list)');
    expect(toolLabel('get_weather')).toBe('get_weather');
    const file = join(dir, 'cut.tools.json');
    writeFileSync(
      file,
      JSON.stringify([{ name: cut, description: 'List of schools.', inputSchema: { type: 'object', properties: {} } }]),
    );
    const listed = await cli(['tools', file]);
    expect(listed.out).toContain(
      `  ${cut} […t_of_school_in_sub_disctrict_kecamatan (indonesia_school_list)]() — List of schools.`,
    );
  });
});
