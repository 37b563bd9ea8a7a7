import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport as HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FlowScoutError } from '../errors/index.js';
import { describeUnknownName } from './close-names.js';
import type { McpHttpSource, McpStdioSource } from './config-schema.js';
import { effectFromMcpAnnotations } from './effects.js';
import { expandEnv } from './expand-env.js';
import { mapMcpResult } from './mcp-result.js';
import type { ToolSet, ToolSpec } from '../contracts/tools.js';

/**
 * The *MCP* tool source: a Model Context Protocol server reached over stdio (a child process) or
 * streamable HTTP, through `@modelcontextprotocol/sdk`. Lists the server's tools (following
 * pagination), calls them, and closes the connection — and with it the child process — when the
 * registry is closed.
 */

/** Connection settings that are not part of the tool config. */
export interface ConnectMcpOptions {
  /** Environment for `${VAR}` expansion (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** How long connecting and listing may take (default 30000 ms). */
  connectTimeoutMs?: number;
}

/** Connects to the server of `source` and returns its tools (filtered by `include`) as a tool set. */
export async function connectMcpTools(
  source: McpStdioSource | McpHttpSource,
  opts: ConnectMcpOptions = {},
): Promise<ToolSet> {
  const env = opts.env ?? process.env;
  const timeout = opts.connectTimeoutMs ?? 30_000;
  const where = `MCP server '${source.name}'`;
  const stderrTail: string[] = [];
  let transport: Transport;
  let http: HttpTransport | undefined;
  let describeTarget: string;
  // Loaded on first use: commands that connect to no MCP server (and `--help`) never load the SDK.
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  if (source.transport === 'stdio') {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const stdio = new StdioClientTransport({
      command: source.command,
      args: source.args ?? [],
      env: Object.fromEntries(
        Object.entries(source.env ?? {}).map(([k, v]) => [k, expandEnv(v, env, `${where} env.${k}`)]),
      ),
      ...(source.cwd ? { cwd: source.cwd } : {}),
      stderr: 'pipe',
    });
    // Drain the child's stderr (a full pipe would block it) and keep its tail for error messages.
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderrTail.push(chunk.toString('utf8'));
      while (stderrTail.join('').length > 2000 && stderrTail.length > 1) stderrTail.shift();
    });
    transport = stdio;
    describeTarget = [source.command, ...(source.args ?? [])].join(' ');
  } else {
    const headers = Object.fromEntries(
      Object.entries(source.headers ?? {}).map(([k, v]) => [k, expandEnv(v, env, `${where} headers.${k}`)]),
    );
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    transport = http = new StreamableHTTPClientTransport(new URL(source.url), { requestInit: { headers } });
    describeTarget = source.url;
  }
  const client = new Client({ name: 'flowscout', version: '0.1.0' });
  const fail = (step: string, e: unknown): FlowScoutError => {
    const stderr = stderrTail.join('').trim();
    return new FlowScoutError({
      code: 'TOOL_ERROR',
      message: `${where} (${describeTarget}): could not ${step}: ${e instanceof Error ? e.message : String(e)}${stderr ? `\n  server stderr: ${stderr.slice(-800)}` : ''}`,
      hint:
        source.transport === 'stdio'
          ? 'Check that the command starts an MCP server on stdio (try running it by hand).'
          : 'Check that the URL serves MCP streamable HTTP and that the server is running.',
      cause: e,
    });
  };
  const close = async () => {
    if (http) await http.terminateSession().catch(() => undefined);
    await client.close();
  };

  try {
    await client.connect(transport, { timeout });
  } catch (e) {
    await close().catch(() => undefined);
    throw fail('connect', e);
  }
  let listed: Awaited<ReturnType<McpClient['listTools']>>['tools'];
  try {
    listed = [];
    let cursor: string | undefined;
    const seenCursors = new Set<string>();
    do {
      const page = await client.listTools(cursor ? { cursor } : {}, { timeout });
      listed.push(...page.tools);
      cursor = page.nextCursor;
      if (cursor !== undefined && seenCursors.has(cursor))
        throw new Error(`the server repeated page cursor ${JSON.stringify(cursor)}`);
      if (cursor !== undefined) seenCursors.add(cursor);
    } while (cursor !== undefined);
  } catch (e) {
    await close().catch(() => undefined);
    throw fail('list its tools', e);
  }

  if (source.include) {
    const names = listed.map((t) => t.name);
    const missing = source.include.filter((n) => !names.includes(n));
    if (missing.length > 0) {
      await close().catch(() => undefined);
      throw new FlowScoutError({
        code: 'TOOL_ERROR',
        message: `${where}: "include" names tools the server does not have: ${missing.map((m) => describeUnknownName('tool', m, names)).join('; ')}`,
        hint: 'Fix the "include" list of this source in the tool config.',
      });
    }
    listed = listed.filter((t) => source.include!.includes(t.name));
  }

  const tools: ToolSpec[] = listed.map((t) => ({
    name: t.name,
    description: t.description ?? t.title ?? '',
    inputSchema: { ...t.inputSchema, type: 'object' },
    ...withEffect(effectFromMcpAnnotations(t.annotations)),
    execute: async (args, ctx) => {
      const result = await client.callTool({ name: t.name, arguments: args }, undefined, {
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(ctx.timeoutMs ? { timeout: ctx.timeoutMs } : {}),
      });
      return mapMcpResult(result);
    },
  }));
  return { name: source.name, tools, close };
}

function withEffect(effect: ReturnType<typeof effectFromMcpAnnotations>): Pick<ToolSpec, 'effect'> {
  return effect ? { effect } : {};
}
