/**
 * The miner against PM4Py on real logs (not a test): reads `input_data/bpic2012.xes.gz` and
 * `compressed_input_data/16_bpic2019_1t_per_variant.xes.gz`, discovers IM and IMf 0.2 trees, and
 * prints end-to-end times (reading the file plus discovery, median of 3 runs, each run reading the
 * file again) against PM4Py's load + api figures for the same logs, with the ratio, and checks the
 * trees against PM4Py's. It also times `flowscout mine` as a whole process once (start-up included).
 *
 *   npx tsx benchmarks/mining-pm4py-logs.ts <folder>        (or FLOWSCOUT_PM4PY_LOGS=<folder>)
 *
 * `<folder>` holds the logs under the same relative paths as the `tests/` folder of the GitHub
 * repository pm4py/pm4py-core (input_data/…, compressed_input_data/…; see
 * test/fixtures/mining/pm4py-logs/README.md for the commit), `expected-trees.json` with PM4Py's trees
 * (the format of the bundled test/fixtures/mining/pm4py-logs/expected-trees.json). PM4Py's figures,
 * and their date, are those of `pm4py-timings.ts`.
 *
 * Wall times on a busy machine are inflated; the CPU column is the process's own user + system time
 * (it includes the gunzip thread), printed so a loaded run can still be judged.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEventLog } from '../src/mining/event-log/read-event-log.js';
import { discoverProcessTree } from '../src/mining/inductive/discover.js';
import { formatProcessTree } from '../src/mining/process-tree/format.js';
import { PM4PY_TIMINGS } from './pm4py-timings.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const LOGS = ['input_data/bpic2012.xes.gz', 'compressed_input_data/16_bpic2019_1t_per_variant.xes.gz'];
const RUNS = 3;
const MINERS = [
  { name: 'IM', noise: 0, key: 'im' },
  { name: 'IMf 0.2', noise: 0.2, key: 'imf0.2' },
] as const;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

async function main(): Promise<void> {
  const folder = process.argv[2] ?? process.env.FLOWSCOUT_PM4PY_LOGS;
  if (!folder || !existsSync(join(folder, 'expected-trees.json'))) {
    console.error('usage: npx tsx benchmarks/mining-pm4py-logs.ts <folder> (or FLOWSCOUT_PM4PY_LOGS=<folder>)');
    console.error(
      '  <folder>: the logs under the relative paths of pm4py/pm4py-core tests/ (input_data/bpic2012.xes.gz,',
    );
    console.error('  compressed_input_data/16_bpic2019_1t_per_variant.xes.gz) and expected-trees.json.');
    process.exit(2);
  }
  const expected = (
    JSON.parse(readFileSync(join(folder, 'expected-trees.json'), 'utf8')) as {
      trees: Record<string, Record<string, string>>;
    }
  ).trees;
  console.log(
    `Miner vs PM4Py on real logs (Node ${process.version}, ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log(
    `PM4Py ${PM4PY_TIMINGS.version} figures: benchmarks/pm4py-timings.ts, measured ${PM4PY_TIMINGS.date} (load + api, wall s, median of 3)`,
  );
  console.log('');
  console.log(
    'log                                                      miner    read      discover  total     CPU total  PM4Py load+api  ratio (wall / CPU)  tree = PM4Py',
  );
  const summary: string[] = [];
  for (const rel of LOGS) {
    const file = join(folder, rel);
    if (!existsSync(file)) {
      console.log(`${rel}: not in ${folder}, skipped`);
      continue;
    }
    const name = rel.split('/').pop()!;
    for (const m of MINERS) {
      const reads: number[] = [];
      const discovers: number[] = [];
      const cpu: number[] = [];
      let tree = '';
      for (let r = 0; r < RUNS; r++) {
        const c0 = cpuMs();
        const t0 = performance.now();
        const { log } = await readEventLog(file);
        const t1 = performance.now();
        tree = formatProcessTree(discoverProcessTree(log, { noiseThreshold: m.noise }));
        const t2 = performance.now();
        cpu.push(cpuMs() - c0);
        reads.push(t1 - t0);
        discovers.push(t2 - t1);
      }
      const totals = reads.map((r, i) => r + discovers[i]!);
      const total = median(totals);
      const cpuTotal = median(cpu);
      const row = PM4PY_TIMINGS.rows.get(name);
      const ref = row ? (row.load + (m.noise > 0 ? row.imfApi : row.imApi)) * 1000 : Number.NaN;
      const same = expected[rel]?.[m.key] === tree;
      const ratio = Number.isNaN(ref) ? '—' : `${(ref / total).toFixed(1)}× / ${(ref / cpuTotal).toFixed(1)}×`;
      console.log(
        `${rel.padEnd(56)} ${m.name.padEnd(7)}  ${s(median(reads)).padEnd(8)}  ${s(median(discovers)).padEnd(8)}  ${s(total).padEnd(8)}  ${s(cpuTotal).padEnd(9)}  ${(Number.isNaN(ref) ? '—' : s(ref)).padEnd(14)}  ${ratio.padEnd(18)}  ${same ? 'yes' : 'NO'}`,
      );
      if (!Number.isNaN(ref))
        summary.push(
          `${name} ${m.name}: ${(ref / total).toFixed(1)}× (wall), ${(ref / cpuTotal).toFixed(1)}× (CPU)${same ? '' : ', TREE DIFFERS'}`,
        );
    }
  }
  console.log('');
  console.log('`flowscout mine` as a process (Node start-up and module loading included), once each:');
  for (const rel of LOGS) {
    const file = join(folder, rel);
    if (!existsSync(file)) continue;
    for (const m of MINERS) {
      const t0 = performance.now();
      const res = spawnSync(
        process.execPath,
        [join(repo, 'bin/flowscout.js'), 'mine', file, '--noise', String(m.noise)],
        { encoding: 'utf8', maxBuffer: 1 << 26 },
      );
      const ms = performance.now() - t0;
      const same = res.stdout.trim() === expected[rel]?.[m.key];
      console.log(
        `  ${rel.padEnd(56)} ${m.name.padEnd(7)}  ${s(ms)}  exit ${res.status}  tree = PM4Py: ${same ? 'yes' : 'NO'}`,
      );
    }
  }
  if (summary.length > 0) {
    console.log('');
    console.log(`Against PM4Py (its load + api, ${PM4PY_TIMINGS.date}), goal ≥ 10×:`);
    for (const line of summary) console.log(`  ${line}`);
  }
}

await main();
