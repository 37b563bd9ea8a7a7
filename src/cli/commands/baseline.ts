import { basename, dirname, resolve } from 'node:path';
import type { Command } from '@commander-js/extra-typings';
import { BASELINES, runBaseline, type BaselineName } from '../../bench/experiments/run-baseline.js';
import { FlowScoutError } from '../../errors/index.js';
import { writeGuardHeader, writeGuardSummary } from '../../tools/write-guard.js';
import { splitWarning } from '../../records/split.js';
import type { CliIO } from '../output.js';
import { wholeNumberArg } from '../parse-number.js';
import { iterationsOption, patienceOption } from '../search-length-flags.js';
import { parseSplitBy, SPLIT_BY_HELP } from '../split-flag.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout baseline react|pm4py-style|llm-only --records … --tools …`: one of the benchmark's
 * baselines on your records, measured exactly as `flowscout bench` measures it (same split and seed),
 * printing TC and ES on the test queries with the policy and judge that produced them.
 */

export const registerBaseline: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('baseline')
    .description(
      'run one baseline (react, pm4py-style, llm-only) on your records as `bench` does, and print TC and ES on the test queries',
    )
    .argument('<name>', BASELINES.join(' | '))
    .requiredOption('--records <file>', 'records JSONL (e.g. what `flowscout import` wrote)')
    .requiredOption('--tools <config>', 'the tool config that answers the calls (e.g. tools.config.json)')
    .option('--model <spec>', 'model of the policy and ReAct (default: FLOWSCOUT_MODEL, else offline)')
    .option('--judge-model <spec>', 'model of the ES judge (default: --model; offline = lexical judge)')
    .option('--seed <n>', 'seed of the split (the same as bench uses)', wholeNumberArg('--seed', 0), 0)
    .option('--split-by <unit>', SPLIT_BY_HELP, 'auto')
    .option('--runs <n>', 'runs on every test query', wholeNumberArg('--runs', 1), 1)
    .option('--max-test <n>', 'test queries measured, at most', wholeNumberArg('--max-test', 1), 50)
    .addOption(iterationsOption('llm-only: search iterations', 10))
    .addOption(patienceOption('llm-only: stop after this many iterations without improvement'))
    .option('--concurrency <n>', 'queries run at once', wholeNumberArg('--concurrency', 1), 4)
    .option('--json', 'print the result as JSON')
    .option(
      '--allow-live-writes',
      "send write and destructive calls to live tools (functions, MCP); by default they are answered from the records' recorded responses or refused",
    )
    .action(async (name, flags) => {
      if (!(BASELINES as readonly string[]).includes(name)) {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `unknown baseline '${name}'`,
          hint: `Use one of ${BASELINES.join(', ')}; \`flowscout bench --records … --tools …\` runs them all with FlowScout and the ablations.`,
        });
      }
      const run = await runBaseline(name as BaselineName, {
        files: {
          name: basename(dirname(resolve(flags.records))) || 'records',
          records: flags.records,
          tools: flags.tools,
        },
        ...(flags.model ? { model: flags.model } : {}),
        ...(flags.judgeModel ? { judgeModel: flags.judgeModel } : {}),
        seed: flags.seed,
        runs: flags.runs,
        maxTest: flags.maxTest,
        iterations: flags.iterations,
        patience: flags.patience,
        concurrency: flags.concurrency,
        splitBy: parseSplitBy(flags.splitBy),
        log: (l) => io.err(l),
        ...(flags.allowLiveWrites ? { allowLiveWrites: true } : {}),
      });
      const r = run.result;
      // The same two lines as eval and search: what happens to write calls to live tools, and what happened.
      const writes = run.writeCalls;
      const writeHeader = writes ? writeGuardHeader(writes) : undefined;
      if (flags.json) {
        io.out(
          JSON.stringify(
            {
              baseline: name,
              label: r.label,
              tc: r.tc,
              es: r.es,
              cv: r.cv,
              runs: r.runs,
              split: run.split,
              labels: run.labels,
              records: r.records,
              ...(writes && writes.writeTools.length > 0 ? { writeCalls: writes } : {}),
            },
            null,
            2,
          ),
        );
        return;
      }
      const small = splitWarning({ opt: Array(run.split.opt), val: Array(run.split.val), test: Array(run.split.test) });
      if (small) io.err(`warning: ${small}`);
      io.out(
        `${r.label} on ${run.split.measured} test queries of ${flags.records} (split 5:2:3 ${run.split.note}, seed ${flags.seed}: D_opt ${run.split.opt}, D_val ${run.split.val}, D_test ${run.split.test})`,
      );
      io.out(
        `  policy: ${run.labels.policy} · judge: ${run.labels.judge}${run.labels.offline ? ' — OFFLINE results (no LLM anywhere)' : ''}`,
      );
      if (writes && writeHeader) io.out(`  ${writeHeader}\n  ${writeGuardSummary(writes)}`);
      io.out(`  TC             ${r.tc === null ? 'n/a (no tool nodes)' : r.tc.toFixed(3)}`);
      io.out(`  ES             ${r.es.toFixed(3)}`);
      if (r.runs > 1) io.out(`  CV of ES       ${r.cv.toFixed(4)} (${r.runs} runs)`);
      io.out(
        `  calls / query  ${r.calls.made.toFixed(2)} made, ${r.calls.reference.toFixed(2)} in the references, ${r.calls.matched.toFixed(2)} matched, ${r.calls.failed.toFixed(2)} failed`,
      );
      if (r.failedRuns) io.out(`  ${r.failedRuns} run(s) ended in a fault (scored with what they produced)`);
    });
};
