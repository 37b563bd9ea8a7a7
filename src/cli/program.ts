import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from '@commander-js/extra-typings';
import { EXIT_STATUS, toFlowScoutError } from '../errors/index.js';
import { COMMANDS } from './commands/index.js';
import { ExitWith, processIO, type CliIO } from './output.js';

/**
 * Builds the `flowscout` program. Only the command `argv` names (or, for `help <command>`, that
 * command) is loaded and registered in full; the others are listed from the command table
 * (commands/index.ts), so `--help` loads no command module. Without `argv`, every command is loaded.
 */
export async function buildProgram(io: CliIO = processIO, argv?: readonly string[]): Promise<Command> {
  const program = new Command('flowscout')
    .description(
      'Turn logs of past tool-using agent runs into reliable, reusable agent workflows that call real tools.',
    )
    .version(packageVersion(), '-V, --version', 'print the version of FlowScout')
    .option('--debug', 'print stack traces of errors')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .exitOverride();
  const words = (argv ?? []).filter((a) => !a.startsWith('-'));
  const wanted = argv === undefined ? undefined : words[0] === 'help' ? words[1] : words[0];
  for (const entry of COMMANDS) {
    if (argv === undefined || entry.name === wanted) (await entry.load())(program, io);
    else listOnly(program, entry);
  }
  return program;
}

/** A command as the top-level help lists it; it is never run (the command named on the line is loaded in full). */
function listOnly(program: Command, entry: (typeof COMMANDS)[number]): void {
  const cmd = program.command(entry.name).description(entry.description);
  // An argument is `<name>` or `[name]`, and a name may hold spaces (`[file or command...]`).
  for (const a of entry.args.match(/<[^>]+>|\[[^\]]+\]/g) ?? []) cmd.argument(a);
  if (entry.options) cmd.addOption(new Option('--options').hideHelp());
}

/**
 * Runs the CLI and returns the exit status instead of exiting, so tests can call it in-process.
 * Every error is converted to a FlowScoutError and printed as one readable message (stack with --debug).
 */
export async function runCli(argv: string[], io: CliIO = processIO): Promise<number> {
  const program = await buildProgram(io, argv);
  const debug = argv.includes('--debug');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (thrown) {
    if (thrown instanceof ExitWith) return thrown.status;
    if (thrown instanceof CommanderError) {
      if (
        thrown.code === 'commander.helpDisplayed' ||
        thrown.code === 'commander.version' ||
        thrown.code === 'commander.help'
      )
        return 0;
      return thrown.exitCode === 0 ? 0 : 2;
    }
    const err = toFlowScoutError(thrown);
    // A budget that ran out is the limit the user set, honoured: not an error (exit 4, see codes.ts).
    io.err(`${err.code === 'BUDGET_EXHAUSTED' ? 'stopped' : 'error'} [${err.code}]: ${err.describe()}`);
    if (debug) io.err(String((err.cause instanceof Error ? err.cause : err).stack ?? ''));
    return EXIT_STATUS[err.code];
  }
}

/** The version in FlowScout's package.json (two folders up from src/cli/; one or two from a dist/ chunk). */
function packageVersion(): string {
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'flowscout' && pkg.version) return pkg.version;
    } catch {
      // not there: try the next
    }
  }
  return 'unknown';
}
