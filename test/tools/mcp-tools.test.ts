import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestMcpHttpServer, type TestMcpHttpServer } from '../support/mcp-http-server.js';
import { mcpStdioCommand } from '../support/mcp-stdio-server.js';
import { testTemperature } from '../support/mcp-test-server.js';
import { connectMcpTools } from '../../src/tools/mcp-tools.js';
import { createToolRegistry } from '../../src/tools/registry.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('connectMcpTools over stdio', () => {
  it('lists every page of tools, maps text, structured and isError results, expands ${VAR}, and leaves no child behind', async () => {
    const { command, args } = mcpStdioCommand();
    const set = await connectMcpTools(
      {
        type: 'mcp',
        name: 'test',
        transport: 'stdio',
        command,
        args,
        env: { FLOWSCOUT_TEST_SECRET: 'v=${MY_SECRET}' },
      },
      { env: { MY_SECRET: 's3cret' } },
    );
    expect(set.tools.map((t) => t.name)).toEqual(['get_weather', 'add', 'fail', 'slow', 'echo_env']);
    const reg = createToolRegistry([set], { timeoutMs: 5000 });
    expect(await reg.call('get_weather', { city: 'Oslo' })).toMatchObject({
      status: 'ok',
      output: JSON.stringify({ city: 'Oslo', tempC: testTemperature('Oslo') }),
      origin: 'live',
    });
    expect(await reg.call('add', { a: 2, b: 40 })).toMatchObject({ status: 'ok', output: { sum: 42 } });
    expect(await reg.call('fail', {})).toMatchObject({ status: 'error', error: 'the service is down' });
    expect(await reg.call('echo_env', {})).toMatchObject({ output: 'v=s3cret' });
    expect((await reg.call('add', { a: 'x', b: 1 })).error).toContain('$.a: expected number');
    expect(await reg.call('slow', { ms: 800 }, { timeoutMs: 100 })).toMatchObject({
      status: 'error',
      error: "'slow' timed out after 100 ms",
    });
    const pids = await childPids();
    expect(pids.length).toBeGreaterThan(0);
    await reg.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('applies "include" and names the tools the server lacks', async () => {
    const { command, args } = mcpStdioCommand();
    const set = await connectMcpTools({
      type: 'mcp',
      name: 'test',
      transport: 'stdio',
      command,
      args,
      include: ['add'],
    });
    expect(set.tools.map((t) => t.name)).toEqual(['add']);
    await set.close?.();
    await expect(
      connectMcpTools({ type: 'mcp', name: 'test', transport: 'stdio', command, args, include: ['ad'] }),
    ).rejects.toThrow(/"include" names tools the server does not have: unknown tool 'ad'; did you mean 'add'/);
  });

  it('fails clearly when the command is not an MCP server, or a variable is unset', async () => {
    await expect(
      connectMcpTools(
        {
          type: 'mcp',
          name: 'bad',
          transport: 'stdio',
          command: process.execPath,
          args: ['-e', 'console.error("no mcp here"); process.exit(3)'],
        },
        { connectTimeoutMs: 5000 },
      ),
    ).rejects.toThrow(/MCP server 'bad' .*could not connect[\s\S]*no mcp here/);
    await expect(
      connectMcpTools(
        { type: 'mcp', name: 'x', transport: 'stdio', command: 'node', env: { K: '${NOPE_UNSET_VAR}' } },
        { env: {} },
      ),
    ).rejects.toThrow(
      /MCP server 'x' env.K uses \$\{NOPE_UNSET_VAR\}, but the environment variable NOPE_UNSET_VAR is not set/,
    );
  });
});

describe('connectMcpTools over streamable HTTP', () => {
  let server: TestMcpHttpServer;
  beforeAll(async () => {
    server = await startTestMcpHttpServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists and calls tools on 127.0.0.1 and ends its session on close', async () => {
    const set = await connectMcpTools({ type: 'mcp', name: 'http', transport: 'http', url: server.url });
    expect(set.tools).toHaveLength(5);
    expect(server.openSessions()).toBe(1);
    const reg = createToolRegistry([set]);
    expect(await reg.call('add', { a: 1, b: 2 })).toMatchObject({ status: 'ok', output: { sum: 3 } });
    expect(await reg.call('fail', {})).toMatchObject({ status: 'error', error: 'the service is down' });
    await reg.close();
    expect(server.openSessions()).toBe(0);
  });

  it('fails clearly when nothing listens at the URL', async () => {
    await expect(
      connectMcpTools(
        { type: 'mcp', name: 'gone', transport: 'http', url: 'http://127.0.0.1:9/mcp' },
        { connectTimeoutMs: 3000 },
      ),
    ).rejects.toThrow(/MCP server 'gone' \(http:\/\/127.0.0.1:9\/mcp\): could not connect/);
  });
});

/** Direct children of this process (Linux /proc), to check that closing reaps the server. */
async function childPids(): Promise<number[]> {
  const { readdirSync, readFileSync } = await import('node:fs');
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) out.push(Number(entry));
    } catch {
      /* process ended */
    }
  }
  return out;
}
