import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { CLI_REFERENCE_FILE, renderCliReference } from '../../src/cli/cli-reference.js';
import type { CliIO } from '../../src/cli/output.js';
import { buildProgram } from '../../src/cli/program.js';

const ROOT = join(import.meta.dirname, '..', '..');
const quiet: CliIO = { out: () => {}, err: () => {}, isTTY: false };

describe('the CLI reference (docs/reference/cli.md)', () => {
  it('is what `npm run docs` writes from the command definitions now', async () => {
    const committed = readFileSync(join(ROOT, CLI_REFERENCE_FILE), 'utf8');
    const fresh = renderCliReference(await buildProgram(quiet));
    // toBe's diff shows what changed; the message says how to fix it.
    expect(committed, `${CLI_REFERENCE_FILE} is stale: run \`npm run docs\` and commit the result`).toBe(fresh);
  });

  it('lists every option each command prints in --help', async () => {
    const text = readFileSync(join(ROOT, CLI_REFERENCE_FILE), 'utf8');
    const program = await buildProgram(quiet);
    const missing: string[] = [];
    const visit = (cmd: CommandUnknownOpts, path: string[]) => {
      const help = cmd.helpInformation();
      const section = text.split(`flowscout ${path.join(' ')}\n`)[1]?.split(/\n##+ flowscout /)[0] ?? '';
      for (const line of help.split('\n')) {
        const flags = /^\s{2}(-[^\s,]+(?:, --\S+)?(?: [<[][^>\]]+[>\]])?)/.exec(line)?.[1];
        if (flags && !flags.startsWith('-h') && !section.includes(`\`${flags}\``))
          missing.push(`${path.join(' ')} ${flags}`);
      }
      for (const sub of cmd.commands) visit(sub, [...path, sub.name()]);
    };
    for (const cmd of program.commands) visit(cmd, [cmd.name()]);
    expect(missing).toEqual([]);
  });

  it('gives the same bytes for the same definitions and changes when an option changes', () => {
    const make = (extra: boolean) => {
      const p = new Command('flowscout').description('d').option('--debug', 'stack traces');
      const c = p
        .command('run')
        .description('run it')
        .argument('<workflow>', 'a file')
        .option('--n <n>', 'how many', '4');
      if (extra) c.option('--fast', 'go faster');
      return p;
    };
    expect(renderCliReference(make(false))).toBe(renderCliReference(make(false)));
    const changed = renderCliReference(make(true));
    expect(changed).not.toBe(renderCliReference(make(false)));
    expect(changed).toContain('| `--fast` | go faster |');
    expect(changed).toContain('| `--n <n>` | how many (default: "4") |');
    expect(changed).toContain('- [`run`](#flowscout-run): run it');
  });
});
