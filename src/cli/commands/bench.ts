import type { Command } from 'commander';
import { basename, dirname, join, resolve } from 'node:path';
import { PAPER_DOMAINS, parseDomains, type DomainFiles } from '../../bench/experiments/domain-env.js';
import { FlowScoutError } from '../../errors/index.js';
import type { BenchResults } from '../../bench/experiments/results.js';
import { runBench, type BenchOptions } from '../../bench/experiments/run-bench.js';
import { fixed } from '../../bench/report/markdown.js';
import { table2 } from '../../bench/report/tables.js';
import { checkBenchOut, writeBenchOutput } from '../../bench/report/write-output.js';
import { addModelFlags, modelCallOptions, type ModelFlags } from '../model-flags.js';
import type { CliIO } from '../output.js';
import { wholeNumber } from '../parse-number.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout bench`: the paper's experiments (docs/DESIGN.md, "Baselines and ablations") on
 * the bundled TRAJECT-Bench domains — FlowScout against the PM4Py-style, ReAct and LLM-only
 * baselines and the NoMCTS / NoMiner / Beam ablations, stability over repeated runs, the search's
 * validation curve and cost, backbone and tool-set swaps, paired significance tests — written as
 * `report.md`, two SVG figures and `results.json` in `--out`.
 */

interface BenchFlags extends ModelFlags {
  domains?: string;
  records?: string;
  tools?: string;
  name?: string;
  model?: string;
  models?: string;
  judgeModel?: string;
  seed: string;
  iterations: string;
  patience: string;
  runs: string;
  maxTest: string;
  maxRecords?: string;
  ablationDomain?: string;
  concurrency: string;
  out?: string;
  json?: boolean;
  force?: boolean;
}

export const registerBench: RegisterCommand = (program: Command, io: CliIO) => {
  const cmd = program
    .command('bench')
    .description("run the paper's experiments on the bundled TRAJECT-Bench data, or on your own records and tools, and write report.md, SVG figures and results.json")
    .option('--domains <list>', 'comma-separated bundled domains (Sports has no data and is reported as such); default Finance,Travel,Weather, or none with --records')
    .option('--records <file>', 'benchmark your own domain: its records (JSONL, e.g. what `flowscout import` wrote)')
    .option('--tools <config>', 'with --records: the tool config of your domain (e.g. the tools.config.json `flowscout import` wrote)')
    .option('--name <name>', 'with --records: the domain name shown in the report (default: the records file\'s folder name)')
    .option('--model <spec>', 'model of the policy, ReAct and the optimizer (default: FLOWSCOUT_MODEL, else offline)')
    .option('--models <list>', 'comma-separated models for the backbone swap (Table V)')
    .option('--judge-model <spec>', 'model of the ES judge (default: --model; offline = lexical judge)')
    .option('--seed <n>', 'seed of the split, the searches and the bootstrap', '0')
    .option('--iterations <n>', 'J: search iterations', '30')
    .option('--patience <n>', 'P: stop a search after this many iterations without a better validation score', '5')
    .option('--runs <n>', 'runs of every approach on every test query (stability)', '10')
    .option('--max-test <n>', 'test queries measured per domain, at most', '50')
    .option('--max-records <n>', 'sample this many records per domain before the split (quick checks; the report says so)')
    .option('--ablation-domain <name>', 'domain of the ablations (Table III); default Travel, or your domain with --records')
    .option('--concurrency <n>', 'queries run at once (and model requests in flight)', '4')
    .option('--out <dir>', 'output folder (default .flowscout/bench/<timestamp>)')
    .option('--json', 'print every number as one JSON object (also written as results.json)')
    .option('--force', 'overwrite report.md, the figures and results.json in --out');
  addModelFlags(cmd).action(async (flags: BenchFlags) => {
      const opts = benchOptions(flags);
      const out = flags.out ?? join('.flowscout', 'bench', stamp());
      checkBenchOut(out, Boolean(flags.force));
      const log = (line: string) => (flags.json ? io.err(line) : io.out(line));
      log(`flowscout bench: ${[...opts.domains, ...(opts.files ? [`${opts.files.name} (${opts.files.records})`] : [])].join(', ')} · seed ${opts.seed} · J=${opts.iterations} P=${opts.patience} · ${opts.runs} runs × ≤${opts.maxTest} test queries`);
      const calls = modelCallOptions(flags, io);
      const results = await runBench({ ...opts, command: commandLine(opts, flags, out), log, modelLog: calls.log, ...(calls.timeoutMs !== undefined ? { modelTimeoutMs: calls.timeoutMs } : {}) });
      const files = writeBenchOutput(out, results, Boolean(flags.force));
      if (flags.json) {
        io.out(JSON.stringify(results, null, 2));
        return;
      }
      io.out(summary(results, files));
    });
};

/** Validated options from the flags. */
export function benchOptions(flags: BenchFlags): Omit<BenchOptions, 'command'> {
  const files = filesDomain(flags);
  const domains = flags.domains !== undefined ? parseDomains(flags.domains) : files ? [] : parseDomains('Finance,Travel,Weather');
  const ablation = flags.ablationDomain ?? (files ? files.name : 'Travel');
  const models = flags.models ? flags.models.split(',').map((m) => m.trim()).filter(Boolean) : [];
  return {
    domains,
    ...(flags.model ? { model: flags.model } : {}),
    models,
    ...(flags.judgeModel ? { judgeModel: flags.judgeModel } : {}),
    seed: wholeNumber(flags.seed, '--seed', 0),
    iterations: wholeNumber(flags.iterations, '--iterations', 0),
    patience: wholeNumber(flags.patience, '--patience', 1),
    runs: wholeNumber(flags.runs, '--runs', 1),
    maxTest: wholeNumber(flags.maxTest, '--max-test', 1),
    ...(flags.maxRecords !== undefined ? { maxRecords: wholeNumber(flags.maxRecords, '--max-records', 10) } : {}),
    ablationDomain: files && ablation.toLowerCase() === files.name.toLowerCase() ? files.name : parseDomains(ablation)[0]!,
    ...(files ? { files } : {}),
    concurrency: wholeNumber(flags.concurrency, '--concurrency', 1),
  };
}

/** `--records`, `--tools`, `--name` as a domain of your own (both files required together). */
function filesDomain(flags: BenchFlags): DomainFiles | undefined {
  if (flags.records === undefined && flags.tools === undefined) {
    if (flags.name !== undefined) throw new FlowScoutError({ code: 'INVALID_INPUT', message: '--name names a domain of your own; it needs --records and --tools', hint: 'flowscout bench --records my/records.jsonl --tools my/tools.config.json --name Music' });
    return undefined;
  }
  if (flags.records === undefined || flags.tools === undefined) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: flags.records === undefined ? '--tools needs --records (your domain\'s records)' : '--records needs --tools (the tool config that answers the calls)',
      hint: 'flowscout import <format> <logs> --out my writes both: flowscout bench --records my/records.jsonl --tools my/tools.config.json',
    });
  }
  const folder = basename(dirname(resolve(flags.records)));
  const name = (flags.name ?? (folder || 'Custom')).trim();
  if (PAPER_DOMAINS.some((d) => d.toLowerCase() === name.toLowerCase())) {
    throw new FlowScoutError({ code: 'INVALID_INPUT', message: `--name '${name}' is a bundled domain's name`, hint: 'Give your domain another --name, e.g. --name "My Travel".' });
  }
  return { name, records: flags.records, tools: flags.tools };
}

/** The command that regenerates the run: every setting spelled out, so changed defaults cannot change it. */
export function commandLine(o: Omit<BenchOptions, 'command'>, flags: Pick<BenchFlags, 'model' | 'models' | 'judgeModel'>, out: string): string {
  const parts = ['npx flowscout bench'];
  if (o.domains.length > 0 || !o.files) parts.push(`--domains ${o.domains.join(',')}`);
  if (o.files) parts.push(`--records ${o.files.records}`, `--tools ${o.files.tools}`, `--name ${shellWord(o.files.name)}`);
  if (flags.model) parts.push(`--model ${flags.model}`);
  if (flags.models) parts.push(`--models ${flags.models}`);
  if (flags.judgeModel) parts.push(`--judge-model ${flags.judgeModel}`);
  parts.push(`--seed ${o.seed}`, `--iterations ${o.iterations}`, `--patience ${o.patience}`, `--runs ${o.runs}`, `--max-test ${o.maxTest}`);
  if (o.maxRecords !== undefined) parts.push(`--max-records ${o.maxRecords}`);
  parts.push(`--ablation-domain ${shellWord(o.ablationDomain)}`, `--concurrency ${o.concurrency}`, `--out ${out}`);
  return parts.join(' ');
}

/** A word as a shell reads it: quoted when it holds whitespace or quotes. */
function shellWord(w: string): string {
  return /[\s"'$`\\]/.test(w) ? JSON.stringify(w) : w;
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
  if (r.ablation) lines.push(`Ablations on ${r.ablation.domain}: ${r.ablation.rows.map((x) => `${x.label} TC ${fixed(x.tc)} ES ${fixed(x.es)}`).join(' · ')}`);
  for (const u of r.unavailableDomains) lines.push(`${u.domain}: not run (${u.reason.split(';')[0]})`);
  lines.push('', 'Wrote:', ...files.map((f) => `  ${f}`));
  return lines.join('\n');
}
