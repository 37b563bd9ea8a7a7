import { spawn } from 'node:child_process';
import type { Command } from '@commander-js/extra-typings';
import { FlowScoutError } from '../../errors/index.js';
import { DEFAULT_DB_PATH } from '../../store/open-store.js';
import { startUiServer } from '../../ui/server/serve.js';
import type { CliIO } from '../output.js';
import { wholeNumber } from '../parse-number.js';
import { readWorkflowFile } from './conformance.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout ui`: the local web UI over the store (runs, the search tree, candidates with their
 * diff, per-record traces, benchmark reports). Binds to 127.0.0.1 unless told otherwise, only reads,
 * and serves until Ctrl-C.
 */
export const registerUi: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('ui')
    .description('serve the local web UI over stored runs (read-only) until Ctrl-C')
    .option('--db <file>', 'the store (SQLite)', DEFAULT_DB_PATH)
    .option('--port <n>', 'port to listen on (0: any free port)', parsePort, 4321)
    .option('--host <address>', 'address to bind to', '127.0.0.1')
    .option('--bench <dir...>', '`flowscout bench --out` folders to show')
    .option(
      '--workflow <file...>',
      "workflows served with `serve --db`: a page each with their runs' fitness over time, deviating variants and drift",
    )
    .option('--open', 'open the UI in the default browser')
    .action(async (opts) => {
      const server = await startUiServer({
        db: opts.db,
        port: opts.port,
        host: opts.host,
        ...(opts.bench ? { benchDirs: opts.bench } : {}),
        ...(opts.workflow ? { workflows: opts.workflow.map(readWorkflowFile) } : {}),
        onBuild: () => io.err('Building the web UI from ui/ (first run in this checkout, or its sources changed)…'),
      });
      io.out(`FlowScout UI on ${server.url} (store ${opts.db}; read-only). Ctrl-C to stop.`);
      if (opts.host !== '127.0.0.1' && opts.host !== 'localhost' && opts.host !== '::1') {
        io.err(
          `warning: listening on ${opts.host}: anyone who can reach it can read every stored run, prompt and tool output.`,
        );
      }
      if (opts.open) openBrowser(server.url, io);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void server.close().then(resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
};

/** `--port`: a whole number from 0 to 65535, or INVALID_INPUT (a commander argument parser). */
function parsePort(text: string): number {
  const port = wholeNumber(text, '--port', 0, 4321);
  if (port > 65535)
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--port must be at most 65535, got '${text}'`,
      hint: 'For example --port 4321.',
    });
  return port;
}

function openBrowser(url: string, io: CliIO): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => io.err(`could not start ${cmd}; open ${url} yourself`));
  child.unref();
}
