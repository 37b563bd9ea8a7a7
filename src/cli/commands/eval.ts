import { Option, type Command } from '@commander-js/extra-typings';
import { FlowScoutError } from '../../errors/index.js';
import { formatEvalReport } from '../../metrics/format-report.js';
import { readPredictionsFile } from '../../metrics/predictions.js';
import { schemasFromTools, scorePredictions } from '../../metrics/score.js';
import type { ParamSchema } from '../../contracts/canonical-args.js';
import { createModelWiring } from '../../wiring/wire-models.js';
import { readRecordsFile } from '../../records/read-records.js';
import { loadToolConfig, readDescriptors } from '../../tools/load-tool-config.js';
import { readJsonFile } from '../../util/json-file.js';
import type { CliIO } from '../output.js';
import { wholeNumberArg } from '../parse-number.js';
import { addQueueFlags, queueSettings } from '../queue-flags.js';
import { progressText } from '../../distributed/progress.js';
import type { QueueProgress } from '../../distributed/queue-runner.js';
import { writeGuardHeader, writeGuardSummary } from '../../tools/write-guard.js';
import { evaluateWorkflowFile, type DistributedEvalOptions } from './eval-workflow.js';
import { formatMostLost, formatSources } from '../../dataflow/argument-sources.js';
import { learnFromRemoved } from '../learned-note.js';
import type { FlagsOf, RegisterCommand } from './register.js';

/**
 * `flowscout eval`: TC and ES (docs/DESIGN.md, "Metrics") of
 * - a workflow, run on every record's query over real tools: `eval <workflow.json> --records <file> --tools <config>`;
 * - predictions any agent produced: `eval --predictions <traces.jsonl> --records <file>`.
 */

/** `flowscout eval`'s options as its action receives them, typed from their declarations. */
type EvalOptions = FlagsOf<typeof declareEval>;

function declareEval(program: Command) {
  const cmd = program
    .command('eval')
    .description(
      'score a workflow (run on every record) or predictions (one {"id", "calls", "answer"} object a line) with TC and ES',
    )
    .argument('[workflow]', 'a workflow JSON file to run on every record (omit with --predictions)')
    .option(
      '--predictions <file>',
      'JSONL of predictions: {"id": <record id>, "calls": [{"tool", "args"}], "answer": "…"}; repeated ids are repeated runs',
    )
    .requiredOption('--records <file>', 'records JSONL (the references)')
    .option(
      '--tools <file>',
      'a tool config (needed to run a workflow), or tool descriptors (tools.json) so predictions are compared by parameter types',
    )
    .option(
      '--model <model>',
      "who decides at the workflow's nodes, e.g. openai:gpt-4o-mini (default: FLOWSCOUT_MODEL, else the offline policy)",
    )
    .option(
      '--judge-model <model>',
      'score ES with an LLM judge (G-Eval), e.g. openai:gpt-4o-mini (default: the offline lexical judge)',
    )
    .option(
      '--repeat <n>',
      'run each record n times and report the CV of ES (workflow mode)',
      wholeNumberArg('--repeat', 1, 4),
    )
    .addOption(new Option('--learn-from <records>').hideHelp())
    .option('--json', 'print one JSON object (top-level tc and es are the means; per-record detail under records)')
    .option(
      '--skip-invalid',
      'skip invalid lines of the records and predictions files instead of failing (they are counted)',
    )
    .option(
      '--concurrency <n>',
      'records run at once, judge calls and model requests (policy and judge together) in flight',
      wholeNumberArg('--concurrency', 1, 4),
      4,
    );
  return addQueueFlags(
    cmd,
    'run the records on `flowscout worker`s through this Redis (redis://host:6379; rediss:// for TLS)',
  ).option(
    '--allow-live-writes',
    "send write and destructive calls to live tools (functions, MCP); by default they are answered from the records' recorded responses or refused",
  );
}

export const registerEval: RegisterCommand = (program: Command, io: CliIO) => {
  declareEval(program).action(async (workflowFile, opts) => {
    if (opts.learnFrom !== undefined) throw learnFromRemoved();
    checkMode(workflowFile, opts);
    const concurrency = opts.concurrency;
    const recordsRead = await readRecordsFile(opts.records, { skipInvalid: opts.skipInvalid });
    if (recordsRead.records.length === 0) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `no records in ${opts.records}`,
        hint: 'Pass a records JSONL file with at least one record.',
        location: { file: opts.records },
      });
    }
    // One rate limiter, sized by --concurrency, for every model request (the policy's and the judge's).
    const models = createModelWiring({ limits: { concurrency } });
    const { instance: judge } = await models.judge(opts.judgeModel ?? 'offline');
    const problems = [...recordsRead.problems];
    const skipped: Record<string, number> = { records: recordsRead.skipped };
    let extra: Record<string, unknown> = {};
    let title: string;
    let report;
    const notes: string[] = [];
    if (workflowFile !== undefined) {
      const repeat = opts.repeat ?? 1;
      const redis = distributedOptions(opts, io);
      const res = await evaluateWorkflowFile({
        workflowFile,
        records: recordsRead.records,
        toolsFile: opts.tools!,
        model: opts.model,
        models,
        judge,
        repeat,
        concurrency,
        ...(redis ? { redis } : {}),
        ...(opts.allowLiveWrites ? { allowLiveWrites: true } : {}),
        warn: (line) => io.err(line),
      });
      report = res.report;
      const offline = res.policyKind === 'offline' ? ' — offline, no LLM' : '';
      title = `Ran ${res.workflow} (${workflowFile}) on ${report.records.length} records${repeat > 1 ? ` × ${repeat} runs` : ''} of ${opts.records}\n  policy: ${res.policy}${offline}${res.learned ? `\n  ${res.learned}` : ''}`;
      const s = res.toolStats;
      notes.push(
        `  tool calls     ${s.calls} (errors ${s.errors}, timeouts ${s.timeouts}; replay hits ${s.replayHits}, misses ${s.replayMisses}${s.simulated ? `, simulated ${s.simulated}` : ''})`,
      );
      notes.push(`  arguments      ${formatSources(res.argumentSources)}`);
      const lost = formatMostLost(res.parameterSources);
      if (lost) notes.push(`  lost most      ${lost}`);
      const writeHeader = writeGuardHeader(res.writeCalls, { workers: res.distributed !== undefined });
      if (writeHeader) title += `\n  ${writeHeader}\n  ${writeGuardSummary(res.writeCalls)}`;
      if (res.distributed)
        notes.push(
          `  distributed    ${res.distributed.jobsDone} job(s) on ${res.distributed.workers} worker(s) via ${res.distributed.redis}${res.distributed.jobsFailed ? `, ${res.distributed.jobsFailed} failed` : ''}`,
        );
      if (res.failedRuns.length)
        notes.push(
          `  ${res.failedRuns.length} run(s) ended in error (scored with what they produced): ${res.failedRuns
            .slice(0, 3)
            .map((f) => `${f.id}#${f.run}: ${f.error}`)
            .join('; ')}`,
        );
      extra = {
        workflow: res.workflow,
        workflowFile,
        policy: res.policy,
        policyKind: res.policyKind,
        ...(res.learned ? { learned: res.learned } : {}),
        repeat,
        failedRuns: res.failedRuns,
        toolStats: s,
        argumentSources: res.argumentSources,
        recordSources: res.recordSources,
        parameterSources: res.parameterSources,
        ...(res.writeCalls.writeTools.length > 0 ? { writeCalls: res.writeCalls } : {}),
        ...(res.distributed ? { distributed: res.distributed } : {}),
      };
    } else {
      const predsRead = await readPredictionsFile(opts.predictions!, { skipInvalid: opts.skipInvalid });
      problems.push(...predsRead.problems);
      skipped.predictions = predsRead.skipped;
      const schemas = opts.tools ? await toolSchemas(opts.tools) : undefined;
      report = await scorePredictions(recordsRead.records, predsRead.predictions, { judge, schemas, concurrency });
      title = `Scored ${opts.predictions} against ${report.records.length} records of ${opts.records}`;
      extra = { predictionsFile: opts.predictions };
    }
    if (opts.json) {
      io.out(JSON.stringify({ ...report, ...extra, skipped, recordsFile: opts.records }, null, 2));
      return;
    }
    io.out(formatEvalReport(report, { title }));
    for (const n of notes) io.out(n);
    if (Object.values(skipped).some((n) => n > 0)) {
      io.out(
        `  skipped invalid lines: ${skipped.records} in ${opts.records}${opts.predictions ? `, ${skipped.predictions ?? 0} in ${opts.predictions}` : ''}`,
      );
      for (const p of problems.slice(0, 10)) io.out(`    ${p}`);
    }
  });
};

/** The --redis options of workflow mode (undefined without --redis). */
function distributedOptions(opts: EvalOptions, io: CliIO): DistributedEvalOptions | undefined {
  const queue = queueSettings(opts, 'records');
  if (!queue) return undefined;
  return {
    ...queue,
    judgeModel: opts.judgeModel ?? 'offline',
    ...(io.isTTY && !opts.json ? { onProgress: (p: QueueProgress) => io.err(progressText(p)) } : {}),
  };
}

function checkMode(workflowFile: string | undefined, opts: EvalOptions): void {
  const fail = (message: string, hint: string) => {
    throw new FlowScoutError({ code: 'INVALID_INPUT', message, hint });
  };
  const usage =
    'Use `eval <workflow.json> --records <file> --tools <tool config>` or `eval --predictions <file> --records <file>`.';
  if (workflowFile !== undefined && opts.predictions !== undefined)
    fail('give a workflow to run or --predictions to score, not both', usage);
  if (workflowFile === undefined && opts.predictions === undefined)
    fail('nothing to score: give a workflow file to run, or --predictions <file>', usage);
  if (workflowFile !== undefined && opts.tools === undefined)
    fail(
      'running a workflow needs its tools: pass --tools <tool config>',
      'For imported records use the tools.config.json that `flowscout import` wrote.',
    );
  if (opts.predictions !== undefined) {
    for (const [flag, value] of [
      ['--repeat', opts.repeat],
      ['--model', opts.model],
    ] as const) {
      if (value !== undefined)
        fail(
          `${flag} only applies when a workflow is run`,
          'For predictions, repeated runs are lines with the same id.',
        );
    }
  }
}

/** Parameter schemas from a descriptor file (a JSON array) or a tool config (its tools are loaded, listed, closed). */
async function toolSchemas(file: string): Promise<Record<string, ParamSchema>> {
  const data = readJsonFile(file);
  if (Array.isArray(data) || (data !== null && typeof data === 'object' && 'tools' in data && !('sources' in data))) {
    return schemasFromTools(readDescriptors(file));
  }
  const registry = await loadToolConfig(file);
  try {
    return schemasFromTools(registry.list());
  } finally {
    await registry.close();
  }
}
