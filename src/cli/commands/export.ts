import type { Command } from '@commander-js/extra-typings';
import { FlowScoutError } from '../../errors/index.js';
import { exportLangGraph } from '../../export/to-langgraph.js';
import type { Workflow } from '../../graph/schema.js';
import { readJsonFile, writeTextFile } from '../../util/json-file.js';
import type { CliIO } from '../output.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout export <workflow.json> --to langgraph [-o graph.ts] [--force]`: writes the workflow as
 * a TypeScript module that builds a LangGraph.js StateGraph (src/export/to-langgraph.ts). Without
 * `-o` the module goes to stdout; an existing file is kept unless `--force`.
 */
export const registerExport: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('export')
    .description('export a workflow to another agent framework: a LangGraph.js StateGraph module')
    .argument('<workflow>', 'a workflow JSON file')
    .requiredOption('--to <target>', 'the framework: langgraph')
    .option('-o, --out <file>', 'write the module to this file (default: stdout)')
    .option('--force', 'overwrite the output file if it exists')
    .option(
      '--runtime-import <module>',
      'module the generated code imports the FlowScout steps from',
      'flowscout/langgraph',
    )
    .action((file, opts) => {
      if (opts.to.trim().toLowerCase() !== 'langgraph') {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `cannot export to '${opts.to}'`,
          hint: 'Use --to langgraph (LangGraph.js). For a plain TypeScript module use `flowscout compile`.',
        });
      }
      const workflow = readJsonFile(file) as Workflow;
      const code = exportLangGraph(workflow, { runtimeImport: opts.runtimeImport, source: file });
      if (opts.out === undefined) {
        io.out(code);
        return;
      }
      writeTextFile(opts.out, code, { force: opts.force });
      const nodes = (code.match(/^ {4}\.addNode\(/gm) ?? []).length;
      io.out(
        `wrote ${opts.out}: ${workflow.name}, a LangGraph StateGraph of ${nodes} nodes (${nodes - 2} workflow nodes + begin/end), ${code.split('\n').length} lines`,
      );
      io.out(
        'needs: npm i @langchain/langgraph @langchain/core (tested with @langchain/langgraph 1.7.3, @langchain/core 1.4.0)',
      );
      const spec = opts.out.replace(/\.ts$/, '.js');
      io.out(
        `use it: import { run, createGraph } from '${/^\.{0,2}\//.test(spec) ? spec : `./${spec}`}'; const trace = await run(query, { policy, tools });`,
      );
    });
};
