#!/usr/bin/env node
/** The `flowscout` command: a thin shell over the library (see program.ts). */
import { runCli } from './program.js';

/** Commands that run until stopped. */
const LONG_LIVED = new Set(['serve', 'ui', 'worker']);

// Output piped into `head` closes stdout early; that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const args = process.argv.slice(2);
const status = await runCli(args);
process.exitCode = status;
// A long-lived command that stopped (Ctrl-C, SIGTERM) has closed its servers, tools and connections;
// a timer a tool left behind (or a stuck connection) must not keep the process alive after it.
if (LONG_LIVED.has(args.find((a) => !a.startsWith('-')) ?? '')) setTimeout(() => process.exit(status), 1_000).unref();
