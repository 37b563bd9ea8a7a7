import { existsSync } from 'node:fs';
import { readJsonFile } from '../../util/json-file.js';
import type { Command } from '@commander-js/extra-typings';
import { basename, dirname, join, resolve } from 'node:path';
import { PAPER_DOMAINS, parseDomains, type DomainFiles } from '../../bench/experiments/domain-env.js';
import { FlowScoutError } from '../../errors/index.js';
import type { BenchResults } from '../../bench/experiments/results.js';
import { runBench, type BenchOptions } from '../../bench/experiments/run-bench.js';
import { fixed } from '../../bench/report/markdown.js';
import { table2 } from '../../bench/report/tables.js';
import { checkBenchOut, writeBenchOutput } from '../../bench/report/write-output.js';
import { addModelFlags, modelCallOptions } from '../model-flags.js';
import { summarizeSeeds } from '../../bench/experiments/seeds.js';
import { orderingsTable, pairedTable, seedsTable } from '../../bench/report/render-seeds.js';
import { checkSeedsOut, writeSeedsOutput } from '../../bench/report/write-output.js';
import type { CliIO } from '../output.js';
import { wholeNumber, wholeNumberArg } from '../parse-number.js';
import { iterationsOption, patienceOption } from '../search-length-flags.js';
import { parseSplitBy, SPLIT_BY_HELP } from '../split-flag.js';
import { addQueueFlags, queueSettings } from '../queue-flags.js';
import type { BenchRedis } from '../../bench/experiments/bench-queue.js';
import type { FlagsOf, RegisterCommand } from './register.js';

/**
 * `flowscout bench`: the paper's experiments (docs/DESIGN.md, "Baselines and ablations") on
 * the bundled TRAJECT-Bench domains — FlowScout against the PM4Py-style, ReAct and LLM-only
 * baselines and the NoMCTS / NoMiner / Beam ablations, stability over repeated runs, the search's
 * validation curve and cost, backbone and tool-set swaps, paired significance tests — written as
 * `report.md`, two SVG figures and `results.json` in `--out`.
 */

/** `flowscout bench`'s options as its action receives them, typed from their declarations. */
type BenchFlags = FlagsOf<typeof declareBench>;

function declareBench(program: Command) {
  const cmd = program
    .command('bench')
    .description(
      "run the paper's experiments on the bundled TRAJECT-Bench data, or on your own records and tools, and write report.md, SVG figures and results.json",
    )
    .option(
      '--domains <list>',
      'comma-separated bundled domains (Sports has no data and is reported as such); default Finance,Travel,Weather, or none with --records',
    )
    .option('--records <file>', 'benchmark your own domain: its records (JSONL, e.g. what `flowscout import` wrote)')
    .option(
      '--tools <config>',
      'with --records: the tool config of your domain (e.g. the tools.config.json `flowscout import` wrote)',
    )
    .option(
      '--name <name>',
      "with --records: the domain name shown in the report (default: the records file's folder name)",
    )
    .option('--model <spec>', 'model of the policy, ReAct and the optimizer (default: FLOWSCOUT_MODEL, else offline)')
    .option('--models <list>', 'comma-separated models for the backbone swap (Table V)')
    .option('--judge-model <spec>', 'model of the ES judge (default: --model; offline = lexical judge)')
    .option('--seed <n>', 'seed of the split, the searches and the bootstrap', wholeNumberArg('--seed', 0), 0)
    .option(
      '--split-by <unit>',
      `${SPLIT_BY_HELP} (default: record for the bundled domains, the paper's protocol; auto for --records)`,
    )
    .option(
      '--seeds <list>',
      "comma-separated seeds: the whole benchmark once per seed (each in <out>/seed-<n>/), then report.md with every approach's mean and spread over the seeds",
      parseSeeds,
    )
    .addOption(iterationsOption('J: search iterations', 30))
    .addOption(patienceOption('P: stop a search after this many iterations without a better validation score'))
    .option('--runs <n>', 'runs of every approach on every test query (stability)', wholeNumberArg('--runs', 1), 10)
    .option('--max-test <n>', 'test queries measured per domain, at most', wholeNumberArg('--max-test', 1), 50)
    .option(
      '--max-records <n>',
      'sample this many records per domain before the split (quick checks; the report says so)',
      wholeNumberArg('--max-records', 10),
    )
    .option(
      '--ablation-domain <list>',
      'domains of the ablations NoMiner and Beam (comma-separated; Table III shows the first); default Travel, or your domain with --records',
    )
    .option(
      '--concurrency <n>',
      'queries run at once (and model requests in flight)',
      wholeNumberArg('--concurrency', 1),
      4,
    )
    .option('--out <dir>', 'output folder (default .flowscout/bench/<timestamp>)')
    .option('--json', 'print every number as one JSON object (also written as results.json)')
    .option('--force', 'overwrite report.md, the figures and results.json in --out');
  const withQueue = addQueueFlags(
    cmd,
    "run the workflow evaluations (searches and measured runs) on `flowscout worker`s through this Redis (redis://host:6379; rediss:// for TLS); a bundled domain's tools are written to <out>/worker-tools/ for them",
  ).option(
    '--allow-live-writes',
    "with --records/--tools: send write and destructive calls to your live tools; by default they are answered from the records' recorded responses or refused",
  );
  return addModelFlags(withQueue);
}

export const registerBench: RegisterCommand = (program: Command, io: CliIO) => {
  declareBench(program).action(async (flags) => {
    const out = flags.out ?? join('.flowscout', 'bench', stamp());
    const redis = benchRedis(flags, out);
    if (redis) {
      // An unreachable Redis is a clear error now, not after the first domain is prepared.
      const { checkRedis } = await import('../../distributed/redis-connection.js');
      await checkRedis(redis.url);
    }
    const opts = { ...benchOptions(flags), ...(redis ? { redis } : {}) };
    const log = (line: string) => (flags.json ? io.err(line) : io.out(line));
    if (flags.seeds !== undefined) {
      await benchSeeds(flags.seeds, opts, flags, out, log, io);
      return;
    }
    checkBenchOut(out, Boolean(flags.force));
    log(
      `flowscout bench: ${[...opts.domains, ...(opts.files ? [`${opts.files.name} (${opts.files.records})`] : [])].join(', ')} · seed ${opts.seed} · J=${opts.iterations} P=${opts.patience} · ${opts.runs} runs × ≤${opts.maxTest} test queries`,
    );
    const calls = modelCallOptions(flags, io);
    const results = await runBench({
      ...opts,
      command: commandLine(opts, flags, out),
      log,
      modelLog: calls.log,
      ...(calls.timeoutMs !== undefined ? { modelTimeoutMs: calls.timeoutMs } : {}),
    });
    const files = writeBenchOutput(out, results, Boolean(flags.force));
    if (flags.json) {
      io.out(JSON.stringify(results, null, 2));
      return;
    }
    io.out(summary(results, files));
  });
};

/** The --redis options (undefined without --redis). */
function benchRedis(flags: BenchFlags, out: string): BenchRedis | undefined {
  const queue = queueSettings(flags, 'evaluations');
  return queue && { ...queue, toolsDir: join(out, 'worker-tools') };
}

/** Validated options from the flags. */
export function benchOptions(flags: BenchFlags): Omit<BenchOptions, 'command'> {
  const files = filesDomain(flags);
  const domains =
    flags.domains !== undefined ? parseDomains(flags.domains) : files ? [] : parseDomains('Finance,Travel,Weather');
  const ablation = flags.ablationDomain ?? (files ? files.name : 'Travel');
  const models = flags.models
    ? flags.models
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
    : [];
  return {
    domains,
    ...(flags.model ? { model: flags.model } : {}),
    models,
    ...(flags.judgeModel ? { judgeModel: flags.judgeModel } : {}),
    seed: flags.seed,
    iterations: flags.iterations,
    patience: flags.patience,
    runs: flags.runs,
    maxTest: flags.maxTest,
    ...(flags.maxRecords !== undefined ? { maxRecords: flags.maxRecords } : {}),
    ablationDomain: ablation
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean)
      .map((a) => (files && a.toLowerCase() === files.name.toLowerCase() ? files.name : parseDomains(a)[0]!))
      .join(','),
    ...(files ? { files } : {}),
    ...(flags.splitBy !== undefined ? { splitBy: parseSplitBy(flags.splitBy) } : {}),
    concurrency: flags.concurrency,
    ...(flags.allowLiveWrites ? { allowLiveWrites: true } : {}),
  };
}

/** `--records`, `--tools`, `--name` as a domain of your own (both files required together). */
function filesDomain(flags: BenchFlags): DomainFiles | undefined {
  if (flags.records === undefined && flags.tools === undefined) {
    if (flags.name !== undefined)
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: '--name names a domain of your own; it needs --records and --tools',
        hint: 'flowscout bench --records my/records.jsonl --tools my/tools.config.json --name Music',
      });
    return undefined;
  }
  if (flags.records === undefined || flags.tools === undefined) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message:
        flags.records === undefined
          ? "--tools needs --records (your domain's records)"
          : '--records needs --tools (the tool config that answers the calls)',
      hint: 'flowscout import <format> <logs> --out my writes both: flowscout bench --records my/records.jsonl --tools my/tools.config.json',
    });
  }
  const folder = basename(dirname(resolve(flags.records)));
  const name = (flags.name ?? (folder || 'Custom')).trim();
  if (PAPER_DOMAINS.some((d) => d.toLowerCase() === name.toLowerCase())) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--name '${name}' is a bundled domain's name`,
      hint: 'Give your domain another --name, e.g. --name "My Travel".',
    });
  }
  return { name, records: flags.records, tools: flags.tools };
}

/** The command that regenerates the run: every setting spelled out, so changed defaults cannot change it. */
export function commandLine(
  o: Omit<BenchOptions, 'command'>,
  flags: Pick<BenchFlags, 'model' | 'models' | 'judgeModel'>,
  out: string,
): string {
  const parts = ['npx flowscout bench'];
  if (o.domains.length > 0 || !o.files) parts.push(`--domains ${o.domains.join(',')}`);
  if (o.files)
    parts.push(`--records ${o.files.records}`, `--tools ${o.files.tools}`, `--name ${shellWord(o.files.name)}`);
  if (flags.model) parts.push(`--model ${flags.model}`);
  if (flags.models) parts.push(`--models ${flags.models}`);
  if (flags.judgeModel) parts.push(`--judge-model ${flags.judgeModel}`);
  parts.push(
    `--seed ${o.seed}`,
    `--iterations ${o.iterations}`,
    `--patience ${o.patience}`,
    `--runs ${o.runs}`,
    `--max-test ${o.maxTest}`,
  );
  if (o.maxRecords !== undefined) parts.push(`--max-records ${o.maxRecords}`);
  parts.push(`--ablation-domain ${shellWord(o.ablationDomain)}`, `--concurrency ${o.concurrency}`, `--out ${out}`);
  return parts.join(' ');
}

/** A word as a shell reads it: quoted when it holds whitespace or quotes. */
function shellWord(w: string): string {
  return /[\s"'$`\\]/.test(w) ? JSON.stringify(w) : w;
}

/** `--seeds 0,1,2` → [0, 1, 2] (distinct whole numbers, at least one). */
export function parseSeeds(text: string): number[] {
  const seeds = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => wholeNumber(s, '--seeds', 0));
  if (seeds.length === 0)
    throw new FlowScoutError({ code: 'INVALID_INPUT', message: '--seeds names no seed', hint: 'e.g. --seeds 0,1,2' });
  if (new Set(seeds).size !== seeds.length)
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--seeds repeats a seed: ${text}`,
      hint: 'Give each seed once, e.g. --seeds 0,1,2',
    });
  return seeds;
}

/**
 * The benchmark once per seed, each seed's output in `<out>/seed-<n>/`, then the summary over seeds
 * in `out`. A seed folder that already holds the results of exactly this seed's command from a
 * commit with clean `src/` and `data/` (e.g. seeds run one by one, or in parallel, with `--seed n
 * --out <out>/seed-<n>`) is read instead of run again (the summary names each seed's commit); any
 * other existing output is refused unless `--force`, which runs every seed again.
 */
async function benchSeeds(
  seeds: number[],
  opts: Omit<BenchOptions, 'command'>,
  flags: BenchFlags,
  out: string,
  log: (line: string) => void,
  io: CliIO,
): Promise<void> {
  const force = Boolean(flags.force);
  const folders = seeds.map((s) => `seed-${s}`);
  const commands = seeds.map((seed, k) => commandLine({ ...opts, seed }, flags, join(out, folders[k]!)));
  const reusable = seeds.map((_, k) => (force ? undefined : finishedSeed(join(out, folders[k]!), commands[k]!)));
  checkSeedsOut(out, force);
  folders.forEach((f, k) => reusable[k] || checkBenchOut(join(out, f), force));
  const started = Date.now();
  const runs: BenchResults[] = [];
  for (const [k, seed] of seeds.entries()) {
    const sub = join(out, folders[k]!);
    const o = { ...opts, seed };
    const done = reusable[k];
    if (done) {
      log(
        `flowscout bench: seed ${seed} (${k + 1} of ${seeds.length}) already run by this command: read from ${join(sub, 'results.json')}`,
      );
      runs.push(done);
      continue;
    }
    log(
      `flowscout bench: seed ${seed} (${k + 1} of ${seeds.length}) · ${o.domains.join(', ')} · J=${o.iterations} P=${o.patience} · ${o.runs} runs × ≤${o.maxTest} test queries`,
    );
    const results = await runBench({ ...o, command: commands[k]!, log });
    writeBenchOutput(sub, results, force);
    runs.push(results);
  }
  const durationMs = runs.reduce((n, r) => n + r.durationMs, 0);
  const summary = summarizeSeeds(runs, {
    command: seedsCommandLine(seeds, opts, flags, out),
    startedAt: new Date(Math.min(started, ...runs.map((r) => Date.parse(r.startedAt)))).toISOString(),
    durationMs,
    seedFolders: folders,
  });
  const files = writeSeedsOutput(out, summary, force);
  if (flags.json) {
    io.out(JSON.stringify(summary, null, 2));
    return;
  }
  io.out(
    [
      '',
      `Benchmark over seeds ${seeds.join(', ')} done in ${(summary.durationMs / 60_000).toFixed(1)} min${summary.labels.offline ? ' — OFFLINE results (no LLM anywhere)' : ''}`,
      '',
      'Test TC, mean ± SD over seeds:',
      seedsTable(summary, 'tc'),
      '',
      "The paper's orderings (test TC):",
      orderingsTable(summary),
      '',
      ...(summary.paired?.length
        ? ["The same orderings on every seed's test queries, paired query by query:", pairedTable(summary), '']
        : []),
      `Wrote ${files.join(', ')} and ${folders.map((f) => join(out, f)).join(', ')}`,
    ].join('\n'),
  );
}

/** A seed's results written by `command` from the current commit with clean sources, or undefined. */
function finishedSeed(dir: string, command: string): BenchResults | undefined {
  const file = join(dir, 'results.json');
  if (!existsSync(file)) return undefined;
  let r: BenchResults;
  try {
    r = readJsonFile(file) as BenchResults;
  } catch {
    return undefined;
  }
  // The summary names each seed's commit (report.md), so results from another commit are visible.
  return r.command === command && Array.isArray(r.domains) && r.code?.commit !== undefined && r.code.dirty === false
    ? r
    : undefined;
}

/** The command that regenerates a multi-seed run. */
export function seedsCommandLine(
  seeds: readonly number[],
  o: Omit<BenchOptions, 'command'>,
  flags: Pick<BenchFlags, 'model' | 'models' | 'judgeModel'>,
  out: string,
): string {
  return commandLine(o, flags, out).replace(/ --seed \d+ /, ` --seeds ${seeds.join(',')} `);
}

function stamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

function summary(r: BenchResults, files: string[]): string {
  const lines = [
    '',
    `Benchmark done in ${(r.durationMs / 60_000).toFixed(1)} min — policy: ${r.labels.policy} · judge: ${r.labels.judge} · optimizer: ${r.labels.optimizer}${r.labels.offline ? ' — OFFLINE results (no LLM anywhere)' : ''}`,
    '',
    'Table II (test set; TC and ES per domain):',
    table2(r),
    '',
  ];
  if (r.ablation)
    lines.push(
      `Ablations on ${r.ablation.domain}: ${r.ablation.rows.map((x) => `${x.label} TC ${fixed(x.tc)} ES ${fixed(x.es)}`).join(' · ')}`,
    );
  for (const u of r.unavailableDomains) lines.push(`${u.domain}: not run (${u.reason.split(';')[0]})`);
  lines.push('', 'Wrote:', ...files.map((f) => `  ${f}`));
  return lines.join('\n');
}
