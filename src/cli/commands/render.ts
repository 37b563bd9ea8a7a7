import type { Command } from '@commander-js/extra-typings';
import { FlowScoutError } from '../../errors/index.js';
import { canonicalWorkflow, parseWorkflow, toMermaid, validateWorkflow, type Workflow } from '../../graph/index.js';
import { readJsonFile, writeTextFile } from '../../util/json-file.js';
import type { CliIO } from '../output.js';
import type { RegisterCommand } from './register.js';

const FORMATS = ['mermaid', 'json'] as const;
type Format = (typeof FORMATS)[number];

/**
 * `flowscout render <workflow.json> [--format mermaid|json] [-o file] [--force]`: a Mermaid flowchart
 * or the canonical pretty JSON (nodes sorted by id, edges by from/to/kind, defaults dropped). A
 * workflow that breaks only graph rules is still drawn (with a warning), since the picture helps fix it.
 */
export const registerRender: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('render')
    .description('render a workflow as a Mermaid flowchart or canonical JSON')
    .argument('<workflow>', 'a workflow JSON file')
    .option('--format <format>', `output format: ${FORMATS.join(' or ')}`, 'mermaid')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .option('--force', 'overwrite the output file if it exists')
    .action((file, opts) => {
      if (!(FORMATS as readonly string[]).includes(opts.format)) {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `unknown format '${opts.format}'`,
          hint: `Use --format ${FORMATS.join(' or --format ')}.`,
        });
      }
      const parsed = parseWorkflow(readJsonFile(file));
      if (!parsed.ok) {
        throw new FlowScoutError({
          code: 'INVALID_WORKFLOW',
          message: `${file} does not match the workflow schema, so it cannot be rendered:\n${parsed.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n')}`,
          hint: 'Fix the problems listed above (`flowscout validate` prints them too).',
          details: parsed.problems,
        });
      }
      const problems = validateWorkflow(parsed.workflow);
      if (problems.length > 0) {
        io.err(
          `warning: ${file} is not a valid workflow (${problems.length} problem${problems.length === 1 ? '' : 's'}); rendering it anyway. Run \`flowscout validate ${file}\` for details.`,
        );
      }
      const text = render(parsed.workflow, opts.format as Format);
      if (opts.out === undefined) {
        io.out(text);
        return;
      }
      writeTextFile(opts.out, text, { force: opts.force });
      io.out(`wrote ${opts.out} (${opts.format})`);
    });
};

/** The text of a workflow in one of the render formats. */
export function render(w: Workflow, format: Format): string {
  if (format === 'mermaid') return toMermaid(w);
  const c = canonicalWorkflow(w);
  const doc = {
    version: c.version,
    name: w.name,
    ...(w.description !== undefined ? { description: w.description } : {}),
    nodes: c.nodes,
    edges: c.edges,
    ...(w.meta !== undefined ? { meta: w.meta } : {}),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
