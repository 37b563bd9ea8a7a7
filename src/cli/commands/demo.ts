import type { Command } from '@commander-js/extra-typings';
import { runDemo } from '../../bench/demo/run-demo.js';
import { addBreakerFlag, addModelFlags, modelCallOptions } from '../model-flags.js';
import type { CliIO } from '../output.js';
import { wholeNumberArg } from '../parse-number.js';
import { iterationsOption, patienceOption } from '../search-length-flags.js';
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
    .addOption(iterationsOption('search iterations', 8, 8))
    .addOption(patienceOption('stop after this many iterations without a better validation score', 8))
    .option('--seed <n>', 'seed of the split and the search', int('--seed', 0), 0)
    .option('--model <spec>', 'run with a model instead of offline, e.g. openai:gpt-4o-mini (needs its API key)')
    .option('--max-records <n>', 'use a seeded sample of this many records (a quicker look)', int('--max-records', 10))
    .option('--concurrency <n>', 'queries run at once (and model requests in flight)', int('--concurrency', 1), 4)
    .option('--root <dir>', 'folder that receives the timestamped demo folder', '.flowscout/demo');
  addBreakerFlag(addModelFlags(cmd)).action(async (flags) => {
    const calls = modelCallOptions(flags, io);
    await runDemo({
      modelLog: calls.log,
      ...(calls.timeoutMs !== undefined ? { modelTimeoutMs: calls.timeoutMs } : {}),
      ...(calls.breakerThreshold !== undefined ? { breakerThreshold: calls.breakerThreshold } : {}),
      iterations: flags.iterations,
      patience: flags.patience,
      seed: flags.seed,
      ...(flags.model ? { model: flags.model } : {}),
      ...(flags.maxRecords !== undefined ? { maxRecords: flags.maxRecords } : {}),
      concurrency: flags.concurrency,
      root: flags.root,
      log: (text) => io.out(text),
    });
  });
};

/** The demo's counts as commander argument parsers; their hints suggest 8 (a quick search). */
function int(flag: string, min: number): (text: string) => number {
  return wholeNumberArg(flag, min, Math.max(min, 8));
}
