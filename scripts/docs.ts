/**
 * `npm run docs`: writes the CLI reference (docs/reference/cli.md) from the commander program the
 * CLI runs (src/cli/cli-reference.ts). Run it after changing a command, an argument or an option;
 * `test/docs/cli-reference.test.ts` fails while the committed file is stale.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI_REFERENCE_FILE, renderCliReference } from '../src/cli/cli-reference.js';
import { buildProgram } from '../src/cli/program.js';

const root = join(import.meta.dirname, '..');
const file = join(root, CLI_REFERENCE_FILE);
const text = renderCliReference(await buildProgram({ out: () => {}, err: () => {}, isTTY: false }));
let before: string | undefined;
try {
  before = readFileSync(file, 'utf8');
} catch {
  before = undefined;
}
if (before === text) {
  process.stdout.write(`${CLI_REFERENCE_FILE} is up to date\n`);
} else {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  process.stdout.write(`wrote ${CLI_REFERENCE_FILE} (${text.split('\n').length - 1} lines)\n`);
}
