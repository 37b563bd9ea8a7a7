import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { EXIT_STATUS, toFlowScoutError } from '../errors/index.js';
import { COMMANDS } from './commands/index.js';
import { ExitWith, processIO, type CliIO } from './output.js';

/** Builds the `flowscout` program with every registered command. */
export function buildProgram(io: CliIO = processIO): Command {
  const program = new Command('flowscout')
    .description('Turn logs of past tool-using agent runs into reliable, reusable agent workflows that call real tools.')
    .version(packageVersion(), '-V, --version', 'print the version of FlowScout')
    .option('--debug', 'print stack traces of errors')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .exitOverride();
  for (const register of COMMANDS) register(program, io);
  return program;
}

/**
 * Runs the CLI and returns the exit status instead of exiting, so tests can call it in-process.
 * Every error is converted to a FlowScoutError and printed as one readable message (stack with --debug).
 */
export async function runCli(argv: string[], io: CliIO = processIO): Promise<number> {
  const program = buildProgram(io);
  const debug = argv.includes('--debug');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (thrown) {
    if (thrown instanceof ExitWith) return thrown.status;
    if (thrown instanceof CommanderError) {
      if (thrown.code === 'commander.helpDisplayed' || thrown.code === 'commander.version' || thrown.code === 'commander.help') return 0;
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
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'flowscout' && pkg.version) return pkg.version;
    } catch {
      // not there: try the next
    }
  }
  return 'unknown';
}
