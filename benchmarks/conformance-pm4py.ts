/**
 * Conformance against PM4Py's alignments (not a test): each log is read once and its inductive-miner
 * tree discovered (the tree PM4Py discovers, string for string), then every variant is aligned
 * (`alignEventLog`, deviations included, as `flowscout conformance` does): one warm-up, then the
 * median of 3 runs, wall and CPU. Printed beside PM4Py's `conformance_diagnostics_alignments` time on
 * the same log and tree (`PM4PY_ALIGNMENT_TIMINGS` in pm4py-timings.ts, with its date), with the ratio
 * of wall times and of CPU times.
 *
 *   npx tsx benchmarks/conformance-pm4py.ts <folder>        (or FLOWSCOUT_PM4PY_LOGS=<folder>)
 *
 * `<folder>` holds pm4py-core's test logs under their relative paths (input_data/bpic2012.xes.gz,
 * compressed_input_data/16_bpic2019_1t_per_variant.xes.gz) with `expected-trees.json` (see
 * benchmarks/mining-pm4py-logs.ts). The flower-like log test/fixtures/conformance/logs/flower-300.xes is
 * bundled and always measured; its tree is checked against the one PM4Py discovered
 * (test/fixtures/conformance/pm4py-alignments.json). Wall times on a busy machine are inflated; the CPU
 * column is this process's own user + system time, and the CPU ratio compares it with PM4Py's
 * process CPU time of the same step.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alignEventLog } from '../src/conformance/align-log.js';
import { readEventLog } from '../src/mining/event-log/read-event-log.js';
import { discoverProcessTree } from '../src/mining/inductive/discover.js';
import { formatProcessTree } from '../src/mining/process-tree/format.js';
import { PM4PY_ALIGNMENT_TIMINGS } from './pm4py-timings.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const LOGS = ['input_data/bpic2012.xes.gz', 'compressed_input_data/16_bpic2019_1t_per_variant.xes.gz'];
const FLOWER = join(repo, 'test/fixtures/conformance/logs/flower-300.xes');
const RUNS = 3;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

async function measure(file: string, expectedTree: string | undefined): Promise<string | undefined> {
  const name = file.split('/').pop()!;
  const { log } = await readEventLog(file);
  const tree = discoverProcessTree(log);
  const same = expectedTree === undefined ? 'not listed' : formatProcessTree(tree) === expectedTree ? 'yes' : 'NO';
  alignEventLog(log, tree); // warm-up
  const walls: number[] = [];
  const cpu: number[] = [];
  let fit = '';
  for (let r = 0; r < RUNS; r++) {
    const c0 = cpuMs();
    const t0 = performance.now();
    const result = alignEventLog(log, tree);
    walls.push(performance.now() - t0);
    cpu.push(cpuMs() - c0);
    fit = `${result.percFitTraces.toFixed(2)} % fit, averageFitness ${result.averageFitness.toFixed(4)}`;
  }
  const wall = median(walls);
  const c = median(cpu);
  const ref = PM4PY_ALIGNMENT_TIMINGS.rows.get(name);
  // A run PM4Py did not finish gives lower bounds: its time limit (wall) and the CPU it had spent.
  const more = ref?.seconds === null ? '> ' : '';
  const pm4py = !ref
    ? '—'
    : ref.seconds === null
      ? `not finished: > ${ref.limitSeconds} s, > ${ref.cpuSeconds.toFixed(1)} s CPU`
      : `${ref.seconds.toFixed(3)} s, ${ref.cpuSeconds.toFixed(3)} s CPU`;
  const ratio = ref
    ? `${more}${(((ref.seconds ?? ref.limitSeconds!) * 1000) / wall).toFixed(1)}× / ${more}${((ref.cpuSeconds * 1000) / c).toFixed(1)}×`
    : '—';
  console.log(
    `${name.padEnd(40)} ${String(log.variants.length).padStart(6)}  ${s(wall).padEnd(9)}  ${s(c).padEnd(9)}  ${pm4py.padEnd(40)}  ${ratio.padEnd(22)}  ${same.padEnd(10)}  ${fit}`,
  );
  return ref ? `${name}: ${ratio.split(' / ')[0]} (wall), ${ratio.split(' / ')[1]} (CPU)` : undefined;
}

/** The tree PM4Py discovered on the flower-like log, from the alignment fixture it was aligned against. */
function flowerTree(): string | undefined {
  const file = join(repo, 'test/fixtures/conformance/pm4py-alignments.json');
  if (!existsSync(file)) return undefined;
  const fixture = JSON.parse(readFileSync(file, 'utf8')) as { cases: { name: string; tree: string }[] };
  return fixture.cases.find((c) => c.name === 'flower-300.xes / im')?.tree;
}

async function main(): Promise<void> {
  const folder = process.argv[2] ?? process.env.FLOWSCOUT_PM4PY_LOGS;
  const expected =
    folder && existsSync(join(folder, 'expected-trees.json'))
      ? (
          JSON.parse(readFileSync(join(folder, 'expected-trees.json'), 'utf8')) as {
            trees: Record<string, { im: string }>;
          }
        ).trees
      : undefined;
  console.log(
    `Conformance vs PM4Py (Node ${process.version}, ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log(
    `PM4Py ${PM4PY_ALIGNMENT_TIMINGS.version} figures: benchmarks/pm4py-timings.ts, measured ${PM4PY_ALIGNMENT_TIMINGS.date} (conformance_diagnostics_alignments, wall and CPU s)`,
  );
  console.log('');
  console.log(
    'log                                      variants  align      CPU        PM4Py                                     ratio (wall / CPU)      tree = PM4Py',
  );
  const summary: string[] = [];
  if (!expected) {
    console.log('(bpic2012, bpic2019: pass the folder of pm4py-core test logs, or FLOWSCOUT_PM4PY_LOGS=<folder>)');
  } else {
    for (const rel of LOGS) {
      const file = join(folder!, rel);
      if (!existsSync(file)) {
        console.log(`${rel}: not in ${folder}, skipped`);
        continue;
      }
      const line = await measure(file, expected[rel]?.im);
      if (line) summary.push(line);
    }
  }
  const flower = await measure(FLOWER, flowerTree());
  if (flower) summary.push(flower);
  if (summary.length > 0) {
    console.log('');
    console.log(`Against PM4Py's alignments (${PM4PY_ALIGNMENT_TIMINGS.date}), goal ≥ 10×:`);
    for (const line of summary) console.log(`  ${line}`);
  }
}

await main();
