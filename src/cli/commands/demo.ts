import type { Command } from '@commander-js/extra-typings';
import { runDemo } from '../../bench/demo/run-demo.js';
import { addBreakerFlag, addModelFlags, modelCallOptions } from '../model-flags.js';
import type { CliIO } from '../output.js';
import { wholeNumber } from '../parse-number.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout demo` (`npm run demo`): the whole pipeline on the bundled TRAJECT-Bench Travel data in
 * a minute or two, offline by default — import, mine, search, the best workflow as Mermaid, and TC /
 * ES on the test split against G0, ReAct and the PM4Py-style baseline. Writes a fresh folder under
 * `.flowscout/demo/` and never overwrites anything.
 */

export const registerDemo: RegisterCommand = (program: Command, io: CliIO) => {
  const cmd = program
    .command('demo')
    .description(
      'run the whole pipeline on the bundled TRAJECT-Bench Travel data (offline unless --model): mine, search, compare with baselines',
    )
    .option('--iterations <n>', 'search iterations', '8')
    .option('--patience <n>', 'stop after this many iterations without a better validation score', '5')
    .option('--seed <n>', 'seed of the split and the search', '0')
    .option('--model <spec>', 'run with a model instead of offline, e.g. openai:gpt-4o-mini (needs its API key)')
    .option('--max-records <n>', 'use a seeded sample of this many records (a quicker look)')
    .option('--concurrency <n>', 'queries run at once (and model requests in flight)', '4')
    .option('--root <dir>', 'folder that receives the timestamped demo folder', '.flowscout/demo');
  addBreakerFlag(addModelFlags(cmd)).action(async (flags) => {
    const calls = modelCallOptions(flags, io);
    await runDemo({
      modelLog: calls.log,
      ...(calls.timeoutMs !== undefined ? { modelTimeoutMs: calls.timeoutMs } : {}),
      ...(calls.breakerThreshold !== undefined ? { breakerThreshold: calls.breakerThreshold } : {}),
      iterations: int(flags.iterations, '--iterations', 0),
      patience: int(flags.patience, '--patience', 1),
      seed: int(flags.seed, '--seed', 0),
      ...(flags.model ? { model: flags.model } : {}),
      ...(flags.maxRecords !== undefined ? { maxRecords: int(flags.maxRecords, '--max-records', 10) } : {}),
      concurrency: int(flags.concurrency, '--concurrency', 1),
      root: flags.root,
      log: (text) => io.out(text),
    });
  });
};

/** The demo's counts; its hints suggest 8 (a quick search). */
const int = (text: string, flag: string, min: number): number => wholeNumber(text, flag, min, Math.max(min, 8));
