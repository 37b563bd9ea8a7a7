#!/usr/bin/env node
// The test command (`npm test`): check the formatting, type-check the whole project, then run every test once,
// both vitest projects (vitest.config.ts: `unit`, the code's own tests under src/, and `e2e`, under test/).
// `npm run test:unit` runs the unit project alone, without the checks. Extra arguments go to vitest
// (e.g. `npm test -- src/graph`, `npm test -- --project e2e`). Exit code is non-zero on any failure.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const run = (cmd, cmdArgs) => spawnSync(cmd, cmdArgs, { stdio: 'inherit', shell: false }).status ?? 1;

if (args.length === 0) {
  // The formatter's check (Prettier, .prettierrc.json): `npm run format` fixes what it reports.
  process.stdout.write('format: prettier --check .\n');
  const format = run(process.execPath, [
    'node_modules/prettier/bin/prettier.cjs',
    '--check',
    '--log-level',
    'warn',
    '.',
  ]);
  if (format !== 0) {
    process.stdout.write('\nSome files are not formatted: run `npm run format`.\n0 passed, 1 failed (format)\n');
    process.exit(format);
  }
  process.stdout.write('typecheck: tsc --noEmit (and -p ui)\n');
  let tsc = run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit']);
  // The web UI's sources (ui/: DOM and JSX) have their own project.
  if (tsc === 0) tsc = run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'ui']);
  if (tsc !== 0) {
    process.stdout.write('\n0 passed, 1 failed (typecheck)\n');
    process.exit(tsc);
  }
}
process.exit(run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...args]));
