#!/usr/bin/env node
// The test command (`npm test`): type-check the whole project, then run every test once.
// Extra arguments go to vitest (e.g. `npm test -- src/graph`). Exit code is non-zero on any failure.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const run = (cmd, cmdArgs) =>
  spawnSync(cmd, cmdArgs, { stdio: 'inherit', shell: false }).status ?? 1;

if (args.length === 0) {
  process.stdout.write('typecheck: tsc --noEmit\n');
  const tsc = run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit']);
  if (tsc !== 0) {
    process.stdout.write('\n0 passed, 1 failed (typecheck)\n');
    process.exit(tsc);
  }
}
process.exit(run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...args]));
