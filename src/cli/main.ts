#!/usr/bin/env node
/** The `flowscout` command: a thin shell over the library (see program.ts). */
import { runCli } from './program.js';

const status = await runCli(process.argv.slice(2));
process.exitCode = status;
