#!/usr/bin/env node
/** The `flowscout` command: a thin shell over the library (see program.ts). */
import { runCli } from './program.js';

// Output piped into `head` closes stdout early; that is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const status = await runCli(process.argv.slice(2));
process.exitCode = status;
