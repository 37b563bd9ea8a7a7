/**
 * An MCP client (the official SDK's own) that starts `flowscout serve` over stdio, lists its tool,
 * calls it with a query and prints the answer and the calls the workflow made.
 *
 *   npx tsx examples/mcp-client.ts <workflow.json> <tools.config.json> "<query>" [-- extra serve flags]
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';

const [workflow, tools, query, ...rest] = process.argv.slice(2);
if (!workflow || !tools || !query) {
  process.stderr.write(
    'usage: npx tsx examples/mcp-client.ts <workflow.json> <tools.config.json> "<query>" [-- serve flags]\n',
  );
  process.exit(2);
}
const bin = fileURLToPath(new URL('../bin/flowscout.js', import.meta.url));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, 'serve', workflow, '--tools', tools, '--mcp', 'stdio', ...rest.filter((a) => a !== '--')],
  stderr: 'inherit',
});
const client = new Client({ name: 'flowscout-example-client', version: '1.0.0' });
await client.connect(transport);
const { tools: listed } = await client.listTools();
for (const t of listed) console.log(`tool: ${t.name} — ${(t.description ?? '').slice(0, 100)}`);
const result = await client.callTool({ name: listed[0]!.name, arguments: { query } });
const structured = result.structuredContent as
  | {
      policy: string;
      calls: Array<{ tool: string; args: unknown; status: string }>;
      nodes: Array<{ id: string; status: string; durationMs: number }>;
    }
  | undefined;
console.log(`isError: ${result.isError === true}`);
console.log('answer:');
for (const c of result.content as Array<{ type: string; text?: string }>)
  if (c.type === 'text') console.log(`  ${c.text?.replace(/\n/g, '\n  ')}`);
if (structured) {
  console.log(`policy: ${structured.policy}`);
  console.log(`calls (${structured.calls.length}):`);
  structured.calls.forEach((c, i) => console.log(`  ${i + 1}. ${c.tool} ${JSON.stringify(c.args)} → ${c.status}`));
  console.log(`nodes: ${structured.nodes.map((n) => `${n.id} ${n.status} ${n.durationMs} ms`).join(' · ')}`);
}
await client.close();
