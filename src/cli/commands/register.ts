import type { Command } from '@commander-js/extra-typings';
import type { CliIO } from '../output.js';

/** A CLI command: adds itself to the program. Each lives in its own file in this folder. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

/** The options a command declares, as its action receives them: `FlagsOf<typeof declareX>` for `declareX(program)` returning the command. */
export type FlagsOf<D extends (program: Command) => { opts(): unknown }> = ReturnType<ReturnType<D>['opts']>;
