/**
 * How a search's cost grows with the size of the log: a log of 10,000 records and one of 1,000,
 * built from the bundled TRAJECT-Bench domains (sequential sets) plus, with `--parallel <dir>`, the
 * TRAJECT-Bench parallel sets (`public_data/parallel/<Domain>/{simple_ver,hard_ver}.json` of the
 * public TRAJECT-Bench repository; they share the bundled domains' tool definitions), repeated
 * until the size is reached with every id (and group) made unique. Each log goes through
 *
 *   import  the records built and written with their tools (records.jsonl, tools.json, tools.config.json)
 *   mine    flowscout mine records.jsonl --format workflow
 *   search  flowscout search, offline, 10 iterations (racing and the default caps on)
 *   bench   flowscout bench --records … --runs 1 --iterations 10 (offline)
 *
 * each step a separate process (`bin/flowscout.js`, so the times include its start-up), and the
 * benchmark prints every step's wall time and peak memory (GNU time's maximum resident set size)
 * and the search's workflow executions (record runs, D_test's included), for both logs, and the
 * ratios. Offline figures only. Run with
 *
 *   npx tsx benchmarks/search-scale.ts [--parallel <TRAJECT-Bench public_data/parallel>] [--sizes 1000,10000] [--skip-bench] [--heap <MiB>]
 *
 * `--heap <MiB>` runs every step with node's `--max-old-space-size=<MiB>`. A step that fails (e.g.
 * out of heap) is printed as FAILED with its exit status and error line, and the benchmark goes on.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ToolDescriptor } from '../src/contracts/tools.js';
import { bundledTrajectPaths, BUNDLED_DOMAINS } from '../src/records/bundled.js';
import { importTraject } from '../src/records/import/traject.js';
import { writeImportFolder } from '../src/records/import/write-import.js';
import type { TaskRecord } from '../src/records/schema.js';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}

const sizes = arg('sizes', '1000,10000').split(',').map(Number);
const parallelDir = arg('parallel', '');
const skipBench = process.argv.includes('--skip-bench');
/** `--heap <MiB>`: every flowscout step runs with node's --max-old-space-size=<MiB> (default: node's own limit). */
const heapMiB = arg('heap', '');
const bin = resolve('bin/flowscout.js');
const work = mkdtempSync(join(tmpdir(), 'flowscout-scale-'));

// The source records: every bundled domain, and its parallel sets when given.
const pool: TaskRecord[] = [];
const tools = new Map<string, ToolDescriptor>();
for (const domain of BUNDLED_DOMAINS) {
  const paths = bundledTrajectPaths(domain);
  const files = [
    paths.trajQuery,
    ...(parallelDir
      ? ['simple_ver.json', 'hard_ver.json'].map((f) => join(parallelDir, domain, f)).filter((f) => existsSync(f))
      : []),
  ];
  for (const file of files) {
    const imported = importTraject(file, paths.tools);
    pool.push(...imported.records);
    for (const t of imported.tools) if (!tools.has(t.name)) tools.set(t.name, t);
  }
}
console.log(
  `source: ${pool.length} records (${BUNDLED_DOMAINS.join(', ')}${parallelDir ? ', with the parallel sets' : ', sequential sets only: pass --parallel <dir> for the parallel sets'}), ${tools.size} tools`,
);

/** The first `n` records of the pool repeated: copy k of a record gets the id and group suffix `~k`. */
function logOf(n: number): TaskRecord[] {
  const out: TaskRecord[] = [];
  for (let i = 0; out.length < n; i++) {
    const r = pool[i % pool.length]!;
    const k = Math.floor(i / pool.length);
    out.push(k === 0 ? r : { ...r, id: `${r.id}~${k}`, ...(r.group ? { group: `${r.group}~${k}` } : {}) });
  }
  return out;
}

interface Step {
  wallS: number;
  peakMiB: number;
  /** Why the step failed (its exit status and the first error line it printed); absent when it succeeded. */
  failed?: string;
}

/**
 * Runs `bin/flowscout.js args` under GNU time: wall seconds and peak RSS; returns stdout too. A step
 * that fails is reported (with its error line), not thrown, so the other steps' figures still print.
 */
function timed(args: string[], cwd: string): Step & { out: string } {
  const stats = join(cwd, 'time.txt');
  const node = [...(heapMiB ? [`--max-old-space-size=${heapMiB}`] : []), bin, ...args];
  const run = spawnSync('/usr/bin/time', ['-f', '%e %M', '-o', stats, process.execPath, ...node], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [wall, rss] = readFileSync(stats, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  const step: Step & { out: string } = { wallS: wall!, peakMiB: rss! / 1024, out: run.stdout };
  if (run.status !== 0) {
    const lines = run.stderr.split('\n').filter((l) => l.trim());
    const why = lines.find((l) => /FATAL ERROR|^error|Error:/.test(l)) ?? lines[lines.length - 1] ?? '';
    step.failed = `${run.status === null ? `signal ${run.signal}` : `exit ${run.status}`}: ${why.trim().slice(0, 160)}`;
  }
  return step;
}

const results: Array<{
  n: number;
  import: Step;
  mine: Step;
  search: Step & { executions: number; candidates: number };
  bench?: Step;
}> = [];
for (const n of sizes) {
  const dir = join(work, `log-${n}`);
  const before = process.memoryUsage().rss;
  const t0 = performance.now();
  const records = logOf(n);
  writeImportFolder(dir, records, [...tools.values()]);
  const imported: Step = {
    wallS: (performance.now() - t0) / 1000,
    peakMiB: Math.max(before, process.memoryUsage().rss) / 2 ** 20,
  };
  const mine = timed(['mine', 'records.jsonl', '--format', 'workflow', '-o', 'g0.json'], dir);
  const search = timed(
    [
      'search',
      '--records',
      'records.jsonl',
      '--tools',
      'tools.config.json',
      '--iterations',
      '10',
      '--patience',
      '10',
      '--db',
      'store.db',
      '--out',
      'out',
      '--json',
    ],
    dir,
  );
  const shown = search.failed
    ? { run: { usage: {} as { executions?: number } }, candidates: [] as unknown[] }
    : (JSON.parse(
        execFileSync(
          process.execPath,
          [bin, 'runs', 'show', (JSON.parse(search.out) as { run: string }).run, '--db', 'store.db', '--json'],
          { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] },
        ),
      ) as { run: { usage: { executions?: number } }; candidates: unknown[] });
  const row: (typeof results)[number] = {
    n,
    import: imported,
    mine,
    search: { ...search, executions: shown.run.usage.executions ?? 0, candidates: shown.candidates.length },
  };
  if (!skipBench)
    row.bench = timed(
      [
        'bench',
        '--records',
        'records.jsonl',
        '--tools',
        'tools.config.json',
        '--name',
        `log-${n}`,
        '--runs',
        '1',
        '--iterations',
        '10',
        '--patience',
        '10',
        '--out',
        'bench',
        '--force',
      ],
      dir,
    );
  results.push(row);
  const f = (s: Step) =>
    `${s.wallS.toFixed(1).padStart(7)} s ${s.peakMiB.toFixed(0).padStart(6)} MiB${s.failed ? ` FAILED (${s.failed})` : ''}`;
  console.log(
    `${String(n).padStart(6)} records: import ${f(row.import)} · mine ${f(row.mine)} · search ${f(row.search)}, ${row.search.executions} workflow executions (${row.search.candidates} candidates)${row.bench ? ` · bench ${f(row.bench)}` : ''}`,
  );
}
if (results.length >= 2) {
  const [a, b] = [results[0]!, results[results.length - 1]!];
  const r = (x: number, y: number) => `${(y / x).toFixed(2)}×`;
  console.log(
    `${b.n} vs ${a.n} records (${r(a.n, b.n)} the log): import ${r(a.import.wallS, b.import.wallS)} time; mine ${r(a.mine.wallS, b.mine.wallS)} time, ${r(a.mine.peakMiB, b.mine.peakMiB)} memory; search ${r(a.search.wallS, b.search.wallS)} time, ${r(a.search.peakMiB, b.search.peakMiB)} memory, ${r(a.search.executions, b.search.executions)} workflow executions${a.bench && b.bench ? `; bench ${r(a.bench.wallS, b.bench.wallS)} time, ${r(a.bench.peakMiB, b.bench.peakMiB)} memory` : ''}`,
  );
}
rmSync(work, { recursive: true, force: true });
