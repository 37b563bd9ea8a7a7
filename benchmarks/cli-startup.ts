/**
 * Start-up of the CLI (not a test): `node bin/flowscout.js --help` against `node -e 0`, both run
 * alternately N times in this one run; medians and their ratio are printed. The CLI runs from the
 * built dist/ (npm ci builds it; run `npm run build` after changing src/), and --help loads no
 * command module (src/cli/commands/index.ts).
 *
 *   npx tsx benchmarks/cli-startup.ts [--runs 15]
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;
const root = join(import.meta.dirname, '..');

function timed(args: string[]): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${r.stderr}`);
  if (/dist\/ (is older|has not been built)/.test(r.stderr))
    throw new Error(`dist/ is not current: ${r.stderr.trim()}`);
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base: number[] = [];
const help: number[] = [];
for (let i = 0; i < runs; i++) {
  base.push(timed(['-e', '0']));
  help.push(timed([join(root, 'bin', 'flowscout.js'), '--help']));
}
console.log(`${runs} runs each, alternating; median wall time`);
console.log(`  node -e 0                    ${median(base).toFixed(0).padStart(5)} ms`);
console.log(`  node bin/flowscout.js --help ${median(help).toFixed(0).padStart(5)} ms`);
console.log(`  --help / node -e 0           ${(median(help) / median(base)).toFixed(1)}x`);
