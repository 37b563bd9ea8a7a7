import type { Command } from '@commander-js/extra-typings';
import { FlowScoutError } from '../../errors/index.js';
import { toolLabel } from '../../graph/tool-label.js';
import { connectMcpTools } from '../../tools/mcp-tools.js';
import { loadToolConfig, readDescriptors } from '../../tools/load-tool-config.js';
import type { ToolDescriptor, ToolEffects } from '../../contracts/tools.js';
import { describeUndeclaredEffects } from '../../tools/effect-suggestions.js';
import { resolveEffects } from '../../tools/effects.js';
import { readJsonFile, writeTextFile } from '../../util/json-file.js';
import type { CliIO } from '../output.js';
import type { FlagsOf, RegisterCommand } from './register.js';

/**
 * `flowscout tools`: what tools a run would see. `tools <tools.config.json>` loads the config (MCP
 * servers are started and asked for their tool lists, then closed) and lists every tool;
 * `tools <tools.json>` lists a descriptor file. `tools --mcp <command…>` / `--url <url>` asks a
 * running MCP server for its tools and writes them as `tools.json` (and, with `--config`, a tool
 * config that calls that server), for agents whose logs called MCP tools.
 */

/** `flowscout tools`'s options as its action receives them, typed from their declarations. */
type ToolsFlags = FlagsOf<typeof declareTools>;

function declareTools(program: Command) {
  return program
    .command('tools')
    .description(
      "list the tools of a tool config (MCP servers included) or a tools.json, or write tools.json from a running MCP server's tool list (--mcp / --url)",
    )
    .argument(
      '[file or command...]',
      'a tool config (tools.config.json) or tool descriptors (tools.json) to list; with --mcp, the command that starts the server and its arguments (after `--` when an argument starts with "-")',
    )
    .option(
      '--mcp',
      'start an MCP server over stdio with the command given as arguments, e.g. --mcp node server.js, or --mcp -- npx -y some-mcp-server --port 0',
    )
    .option('--url <url>', 'an MCP server over streamable HTTP')
    .option(
      '--header <name=value...>',
      'with --url: HTTP headers (e.g. Authorization=Bearer ${TOKEN}; ${VAR} is read from the environment)',
    )
    .option('--name <name>', 'the server name in a written tool config', 'mcp')
    .option('--out <file>', 'with --mcp / --url: where to write the descriptors', 'tools.json')
    .option('--config <file>', 'with --mcp / --url: also write a tool config that calls this server')
    .option('--json', 'print the descriptors as JSON')
    .option('--force', 'overwrite --out / --config');
}

export const registerTools: RegisterCommand = (program: Command, io: CliIO) => {
  declareTools(program).action(async (operands, flags) => {
    const hint =
      'flowscout tools tools.config.json · flowscout tools --mcp -- npx -y @modelcontextprotocol/server-everything · flowscout tools --url http://127.0.0.1:3000/mcp';
    if (flags.mcp && flags.url !== undefined)
      throw new FlowScoutError({ code: 'INVALID_INPUT', message: 'pass --mcp or --url, not both', hint });
    if (flags.mcp && operands.length === 0)
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: '--mcp needs the command that starts the server',
        hint: 'e.g. flowscout tools --mcp node my-server.js',
      });
    if (flags.url !== undefined && operands.length > 0)
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: 'pass either a file to list or --url, not both',
        hint,
      });
    if (!flags.mcp && flags.url === undefined && operands.length !== 1) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message:
          operands.length === 0
            ? 'nothing to list: pass a tool config or tools.json, or --mcp <command…> / --url <url>'
            : `pass one file to list (got ${operands.length}); to start an MCP server, add --mcp`,
        hint,
      });
    }
    const file = flags.mcp || flags.url !== undefined ? undefined : operands[0];
    if (file !== undefined) {
      const tools = await listFile(file);
      io.out(flags.json ? JSON.stringify(tools, null, 2) : formatToolList(tools, file));
      return;
    }
    const source = serverSource(flags, operands);
    const set = await connectMcpTools(source);
    let tools: ToolDescriptor[];
    let listed: ListedTool[];
    try {
      tools = set.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
      listed = set.tools.map((spec) => ({
        name: spec.name,
        description: spec.description,
        inputSchema: spec.inputSchema,
        effects: resolveEffects(spec),
      }));
    } finally {
      await set.close?.();
    }
    const out = flags.out ?? 'tools.json';
    writeTextFile(out, `${JSON.stringify(tools, null, 2)}\n`, { force: flags.force });
    const written = [out];
    if (flags.config) {
      writeTextFile(flags.config, `${JSON.stringify({ version: 1, sources: [source] }, null, 2)}\n`, {
        force: flags.force,
      });
      written.push(flags.config);
    }
    io.out(
      flags.json
        ? JSON.stringify(tools, null, 2)
        : formatToolList(
            listed,
            source.transport === 'stdio' ? [source.command, ...(source.args ?? [])].join(' ') : source.url,
          ),
    );
    if (!flags.json) io.out(`Wrote ${written.join(', ')}`);
  });
};

type ServerSource =
  | { type: 'mcp'; name: string; transport: 'stdio'; command: string; args?: string[] }
  | { type: 'mcp'; name: string; transport: 'http'; url: string; headers?: Record<string, string> };

function serverSource(flags: ToolsFlags, operands: readonly string[]): ServerSource {
  if (flags.url !== undefined) {
    try {
      new URL(flags.url);
    } catch {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `--url '${flags.url}' is not a URL`,
        hint: 'e.g. --url http://127.0.0.1:3000/mcp',
      });
    }
    const headers: Record<string, string> = {};
    for (const h of flags.header ?? []) {
      const eq = h.indexOf('=');
      if (eq <= 0)
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `--header '${h}' is not name=value`,
          hint: 'e.g. --header Authorization="Bearer ${TOKEN}"',
        });
      headers[h.slice(0, eq)] = h.slice(eq + 1);
    }
    return {
      type: 'mcp',
      name: flags.name,
      transport: 'http',
      url: flags.url,
      ...(Object.keys(headers).length ? { headers } : {}),
    };
  }
  const [command, ...args] = operands as [string, ...string[]];
  return { type: 'mcp', name: flags.name, transport: 'stdio', command, ...(args.length ? { args } : {}) };
}

/** A tool as `flowscout tools` shows it: its descriptor and, for a tool config or a server, its effect. */
type ListedTool = ToolDescriptor & { effects?: ToolEffects };

async function listFile(file: string): Promise<ListedTool[]> {
  const data = readJsonFile(file);
  if (Array.isArray(data) || (data !== null && typeof data === 'object' && 'tools' in data && !('sources' in data)))
    return readDescriptors(file);
  const registry = await loadToolConfig(file);
  try {
    return registry.list().map((d) => {
      const effects = registry.effectOf(d.name);
      return effects ? { ...d, effects } : d;
    });
  } finally {
    await registry.close();
  }
}

/**
 * One line per tool: name (a readable label when the name was cut), its parameters (required marked *),
 * the description's first line, and — for a tool config or a server — its effect and where it came
 * from, then one line counting the effects, and for the tools with no declared effect what that
 * means and a suggested `effects` map to confirm (tools/effect-suggestions.ts; never applied).
 */
export function formatToolList(tools: readonly ListedTool[], from: string): string {
  const lines = [`${tools.length} tool${tools.length === 1 ? '' : 's'} from ${from}:`];
  for (const t of tools) {
    const schema = t.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
    const required = new Set(schema.required ?? []);
    const params = Object.keys(schema.properties ?? {}).map((p) => (required.has(p) ? `${p}*` : p));
    const label = toolLabel(t.name);
    const desc = (t.description ?? '').split('\n')[0]!.trim();
    const effect = t.effects ? `  {${effectLabel(t.effects)}}` : '';
    lines.push(
      `  ${t.name}${label !== t.name ? ` [${label}]` : ''}(${params.join(', ')})${desc ? ` — ${desc.length > 100 ? `${desc.slice(0, 99)}…` : desc}` : ''}${effect}`,
    );
  }
  if (tools.some((t) => t.inputSchema && (t.inputSchema as { required?: unknown }).required))
    lines.push('  (* required)');
  const withEffects = tools.flatMap((t) => (t.effects ? [t.effects] : []));
  if (withEffects.length > 0) lines.push(effectsSummary(withEffects));
  const undeclared = tools.filter((t) => t.effects && !t.effects.declared);
  for (const line of describeUndeclaredEffects(undeclared, from)) lines.push(`  ${line}`);
  return lines.join('\n');
}

/** `write, idempotent · live · MCP annotations` */
function effectLabel(e: ToolEffects): string {
  return `${e.effect}${e.idempotent && e.effect !== 'read' ? ', idempotent' : ''} · ${e.live ? 'live' : 'replay'} · ${e.from}`;
}

/** One line: how many tools read, write or destroy, and what search, eval and serve do with them. */
function effectsSummary(effects: readonly ToolEffects[]): string {
  const count = (effect: string) => effects.filter((e) => e.effect === effect).length;
  const liveWrites = effects.filter((e) => e.live && e.effect !== 'read').length;
  const undeclared = effects.filter((e) => e.live && !e.declared).length;
  const parts = [`effects: ${count('read')} read, ${count('write')} write, ${count('destructive')} destructive`];
  if (undeclared > 0)
    parts.push(
      `${undeclared} live tool${undeclared === 1 ? '' : 's'} with no declared effect counted as write (declare them in the tool config's "effects")`,
    );
  if (liveWrites > 0)
    parts.push(
      `search, eval and bench answer the ${liveWrites} live write tool${liveWrites === 1 ? '' : 's'} from replay or refuse them unless --allow-live-writes`,
    );
  return `  ${parts.join('; ')}`;
}
