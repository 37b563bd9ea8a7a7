import type { Command } from 'commander';
import type { CliIO } from '../output.js';

/** A CLI command: adds itself to the program. Each lives in its own file in this folder. */
export type RegisterCommand = (program: Command, io: CliIO) => void;
