import type { Command } from '@commander-js/extra-typings';
import { FlowScoutError } from '../../errors/index.js';
import { validateWorkflow, workflowHash, type Workflow } from '../../graph/index.js';
import { loadToolConfig, readDescriptors } from '../../tools/index.js';
import { readJsonFile } from '../../util/json-file.js';
import { ExitWith, type CliIO } from '../output.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout validate <workflow.json> [--tools <file>] [--json]`: checks Valid(G, T) (docs/DESIGN.md, "The
 * workflow IR") and prints every problem with its JSON path. Exit 0 when valid, 1 when not, 2 when
 * the file cannot be read (PARSE_ERROR names the line and column).
 */
export const registerValidate: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('validate')
    .description('check a workflow file against the IR schema and Valid(G, T); exit 0 valid, 1 invalid')
    .argument('<workflow>', 'a workflow JSON file')
    .option(
      '--tools <file>',
      'the tools T: a JSON array of {name, description, inputSchema}, or a tool config ({"version": 1, "sources": [...]})',
    )
    .option('--json', 'print the result as JSON')
    .action(async (file, opts) => {
      const input = readJsonFile(file);
      const tools = opts.tools === undefined ? undefined : await loadToolNames(opts.tools);
      const problems = validateWorkflow(input, tools);
      const w = input as Partial<Workflow>;
      const nodes = Array.isArray(w.nodes) ? w.nodes.length : 0;
      const edges = Array.isArray(w.edges) ? w.edges.length : 0;
      if (opts.json) {
        const result = {
          file,
          valid: problems.length === 0,
          name: typeof w.name === 'string' ? w.name : null,
          nodes,
          edges,
          tools: tools?.length ?? null,
          hash: problems.length === 0 ? workflowHash(input as Workflow) : null,
          problems,
        };
        io.out(JSON.stringify(result, null, 2));
      } else if (problems.length === 0) {
        io.out(`valid: ${w.name} (${nodes} node${nodes === 1 ? '' : 's'}, ${edges} edge${edges === 1 ? '' : 's'})`);
        if (tools)
          io.out(`tool hints checked against ${tools.length} tool${tools.length === 1 ? '' : 's'} from ${opts.tools}`);
      } else {
        for (const p of problems) io.out(`${p.path}: ${p.message}`);
        io.out(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}; the workflow is not valid`);
      }
      if (problems.length > 0) throw new ExitWith(1);
    });
};

/**
 * The tool names of a `--tools` file: a descriptor array (or `{tools: [...]}`) is read as it is; a tool
 * config is loaded through the tool sources (MCP servers are started to list their tools, then closed).
 */
export async function loadToolNames(file: string): Promise<string[]> {
  const data = readJsonFile(file);
  if (Array.isArray(data) || (isObject(data) && Array.isArray(data.tools)))
    return readDescriptors(file).map((d) => d.name);
  if (isObject(data) && 'sources' in data) {
    const registry = await loadToolConfig(file);
    try {
      return registry.list().map((d) => d.name);
    } finally {
      await registry.close();
    }
  }
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: 'the --tools file is neither a JSON array of tool descriptors nor a tool config',
    hint: 'Pass a tools.json array of {name, description, inputSchema}, or a config {"version": 1, "sources": [...]} (`flowscout import` writes both).',
    location: { file },
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
