import type { Command } from '@commander-js/extra-typings';
import type { CliIO } from '../output.js';

/** A CLI command: adds itself to the program. Each lives in its own file in this folder. */
export type RegisterCommand = (program: Command, io: CliIO) => void;

/**
 * The options a command declares, as its action receives them: `FlagsOf<typeof declareX>` for
 * `declareX(program)` returning the command. Also the options a shared flag helper adds:
 * `FlagsOf<typeof addXFlags<[], {}, {}>>` for `addXFlags(cmd, …)` returning `cmd` with them.
 */
export type FlagsOf<D extends (program: Command, ...more: never[]) => { opts(): unknown }> = ReturnType<
  ReturnType<D>['opts']
>;
