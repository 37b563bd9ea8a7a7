import type { Command } from '@commander-js/extra-typings';
import type { Workflow } from '../../graph/schema.js';
import { compileWorkflow } from '../../runtime/compile.js';
import { readJsonFile, writeTextFile } from '../../util/json-file.js';
import type { CliIO } from '../output.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout compile <workflow.json> -o workflow.ts [--force] [--runtime-import <module>]`: writes
 * the workflow as a standalone TypeScript module (`export async function run(query, context)`, one
 * function per node; see src/runtime/compile.ts). Without `-o` the module goes to stdout. An
 * existing output file is kept unless `--force`.
 */
export const registerCompile: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('compile')
    .description('compile a workflow into a standalone TypeScript module with run(query, context)')
    .argument('<workflow>', 'a workflow JSON file')
    .option('-o, --out <file>', 'write the module to this file (default: stdout)')
    .option('--force', 'overwrite the output file if it exists')
    .option('--runtime-import <module>', 'module the generated code imports the runtime from', 'flowscout/runtime')
    .action((file, opts) => {
      const workflow = readJsonFile(file) as Workflow;
      const code = compileWorkflow(workflow, { runtimeImport: opts.runtimeImport, source: file });
      if (opts.out === undefined) {
        io.out(code);
        return;
      }
      writeTextFile(opts.out, code, { force: opts.force });
      const functions = (code.match(/^async function node_/gm) ?? []).length;
      io.out(`wrote ${opts.out}: ${workflow.name}, ${functions} node functions, ${code.split('\n').length} lines`);
      const spec = opts.out.replace(/\.ts$/, '.js');
      io.out(
        `use it: import { run } from '${/^\.{0,2}\//.test(spec) ? spec : `./${spec}`}'; const trace = await run(query, { policy, tools });`,
      );
    });
};
