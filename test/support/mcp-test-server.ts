import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * A real MCP server (the SDK's low-level `Server`) used by the tool-source and runtime tests over
 * stdio and streamable HTTP. It pages its tool list two at a time, so clients must follow
 * `nextCursor`, and it has one tool for every outcome a client must map: text, structured content,
 * `isError`, a slow call, and an environment read (for `${VAR}` expansion in configs). Its tools carry
 * MCP annotations of every kind (read-only, non-destructive idempotent write, destructive, none), so
 * tests can check the effects FlowScout reads from them.
 */

export const TEST_MCP_TOOLS: Tool[] = [
  {
    name: 'get_weather',
    description: 'Current weather of a city (deterministic test data).',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'fail',
    description: 'Always reports an error result.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  },
  {
    name: 'slow',
    description: 'Answers after `ms` milliseconds.',
    inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
    annotations: { destructiveHint: true },
  },
  {
    name: 'echo_env',
    description: 'Returns the FLOWSCOUT_TEST_SECRET environment variable of the server.',
    inputSchema: { type: 'object', properties: {} },
  },
];

const PAGE = 2;

/** A deterministic temperature for a city, so tests can predict outputs. */
export function testTemperature(city: string): number {
  let h = 0;
  for (const ch of city) h = (h * 31 + ch.charCodeAt(0)) % 997;
  return (h % 35) - 5;
}

/** Builds a fresh server (one per connection or HTTP session). */
export function createTestMcpServer(): Server {
  const server = new Server({ name: 'flowscout-test-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    const start = req.params?.cursor ? Number(req.params.cursor) : 0;
    const tools = TEST_MCP_TOOLS.slice(start, start + PAGE);
    const next = start + PAGE < TEST_MCP_TOOLS.length ? String(start + PAGE) : undefined;
    return next === undefined ? { tools } : { tools, nextCursor: next };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    switch (req.params.name) {
      case 'get_weather': {
        const city = String(args.city);
        return { content: [{ type: 'text', text: JSON.stringify({ city, tempC: testTemperature(city) }) }] };
      }
      case 'add': {
        const sum = Number(args.a) + Number(args.b);
        return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
      }
      case 'fail':
        return { content: [{ type: 'text', text: 'the service is down' }], isError: true };
      case 'slow':
        await new Promise((r) => setTimeout(r, Number(args.ms)));
        return { content: [{ type: 'text', text: 'done' }] };
      case 'echo_env':
        return { content: [{ type: 'text', text: process.env.FLOWSCOUT_TEST_SECRET ?? '(unset)' }] };
      default:
        return { content: [{ type: 'text', text: `no such tool ${req.params.name}` }], isError: true };
    }
  });
  return server;
}
