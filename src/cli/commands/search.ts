import { spinner } from '@clack/prompts';
import type { Command } from 'commander';
import { splitWarning } from '../../records/split.js';
import { DEFAULT_LAMBDA_MAX, DEFAULT_LAMBDA_MIN } from '../../search/anneal.js';
import { DEFAULT_SETTINGS } from '../../search/search-context.js';
import { checkOutDir, searchDocument, writeSearchArtifacts } from '../../search/artifacts.js';
import { storedWorkflowRuns } from '../../search/workflow-runs.js';
import { TABLE_HEADER, formatRow, formatSummary, labelsLine, progressLine } from '../../search/format-search.js';
import type { QueueRunner } from '../../distributed/queue-runner.js';
import { SPLIT_BY_HELP } from '../split-flag.js';
import { progressText } from '../../distributed/progress.js';
import { prepareSearch, type RunnerRequest } from '../../wiring/prepare-search.js';
import { runSearch } from '../../search/run-search.js';
import { addWriteCalls, isGuarded, writeGuardHeader, writeGuardSummary } from '../../tools/write-guard.js';
import { DEFAULT_DB_PATH, openStore } from '../../store/open-store.js';
import { addModelFlags, modelCallOptions } from '../model-flags.js';
import { ExitWith, type CliIO } from '../output.js';
import { nonNegativeNumber, wholeNumber } from '../parse-number.js';
import type { RegisterCommand } from './register.js';
import { dryRun, projectionLine, projectionOf } from './search-dry-run.js';
import { configFrom, distributedFrom, type SearchFlags } from './search-config.js';

/**
 * `flowscout search`: the Workflow Optimizer (docs/DESIGN.md, "Search"). Mines G0 from D_opt,
 * runs MCTS (or beam search) with the optimizer, prints one table row per iteration (and a progress
 * line on a terminal), stores every candidate so `--resume <run>` can continue after a crash, and
 * writes the best candidate as JSON, a TypeScript module and a Mermaid diagram, plus `search.json`.
 * A budget that runs out ends the run cleanly (exit 0) with the best-so-far files written.
 */

/** Registers `flowscout search`. */
export const registerSearch: RegisterCommand = (program: Command, io: CliIO) => {
  const cmd = program
    .command('search')
    .description(
      'search for a better workflow with MCTS over edit plans, driven by execution feedback (mined G0 → best on D_val)',
    )
    .option('--records <file>', 'records JSONL (split into D_opt, D_val, D_test)')
    .option('--tools <config>', 'tool config (tools.config.json) giving the tools T')
    .option('--model <spec>', 'model of the execution policy (default: FLOWSCOUT_MODEL, else offline)')
    .option('--optimizer-model <spec>', 'model of the optimizer (default: --model; offline = rule-based optimizer)')
    .option('--judge-model <spec>', 'model of the ES judge (default: --model; offline = lexical judge)')
    .option(
      '--judge-mode <mode>',
      'per-dimension (G-Eval: one request per ES dimension) or joint (one request scoring all four)',
      'per-dimension',
    )
    .option('--iterations <n>', 'J: iterations (MCTS) or candidates (beam)', '30')
    .option('--patience <n>', 'P: stop after this many iterations without a better validation score', '5')
    .option('--children <n>', 'children per node before selection descends', '3')
    .option('--split <ratio>', 'opt:val:test ratio', '5:2:3')
    .option('--split-by <unit>', SPLIT_BY_HELP, 'auto')
    .option('--seed <n>', 'seed of the split and the search', '0')
    .option('--out <dir>', 'output folder (default .flowscout/runs/<run id>/)')
    .option('--db <file>', 'the store (SQLite)', DEFAULT_DB_PATH)
    .option('--resume <run>', 'continue a stored run (its settings are reused)')
    .option('--json', 'print one JSON object at the end instead of the table')
    .option('--strategy <name>', 'mcts, beam, or none (NoMCTS: evaluate G0 only)', 'mcts')
    .option(
      '--start <name>',
      'mined (G0 from D_opt), skeleton (G0 without its router over recurring variants), plain (NoMiner skeleton) or llm-only (no tool nodes)',
      'mined',
    )
    .option(
      '--from <workflow>',
      "start from this workflow file instead of one --start builds (e.g. an earlier search's best.workflow.json, to refine it on new runs; --dry-run then projects what it sends)",
    )
    .option('--no-memo', 'do not reuse node outputs or judge scores across candidates')
    .option(
      '--no-racing',
      'run every candidate on all of D_opt and D_val (default: race it on D_opt against the best so far first)',
    )
    .option(
      '--max-opt <n>',
      'evaluate on at most n D_opt records (a sample stratified by group and tool set)',
      String(DEFAULT_SETTINGS.maxOpt),
    )
    .option('--max-val <n>', 'evaluate on at most n D_val records (stratified sample)', String(DEFAULT_SETTINGS.maxVal))
    .option(
      '--max-test <n>',
      'evaluate on at most n D_test records (stratified sample)',
      String(DEFAULT_SETTINGS.maxTest),
    )
    .option('--budget-calls <n>', 'stop after this many LLM requests')
    .option('--budget-tokens <n>', 'stop after this many tokens')
    .option('--budget-usd <x>', 'stop after spending this much (USD)')
    .option('--budget-minutes <m>', 'stop after this much wall time')
    .option('--concurrency <n>', 'records evaluated at once (and model calls in flight)', '4')
    .option(
      '--lambda-max <x>',
      'exploration weight λ at the first iteration (cosine-annealed)',
      String(DEFAULT_LAMBDA_MAX),
    )
    .option('--lambda-min <x>', 'exploration weight λ at the last iteration', String(DEFAULT_LAMBDA_MIN))
    .option('--force', 'write into a non-empty --out folder')
    .option('--skip-invalid', 'skip invalid record lines (counted) instead of refusing the file')
    .option(
      '--dry-run',
      'print the projected model requests, tokens and cost of the search, and stop (nothing is sent to a model or a live tool, nothing is stored)',
    )
    .option(
      '--redis <url>',
      'run every evaluation on `flowscout worker`s through this Redis (redis://host:6379; rediss:// for TLS); not stored with the run',
    )
    .option('--queue <name>', 'with --redis: the queue name (default flowscout-eval)')
    .option('--chunk <n>', 'with --redis: records per job', '1')
    .option('--rpm <n>', 'with --redis: model requests per minute over all workers')
    .option(
      '--allow-live-writes',
      "send write and destructive calls to live tools (functions, MCP) during the search; by default they are answered from the records' recorded responses or refused",
    );
  addModelFlags(cmd, { breaker: true }).action(async (flags: SearchFlags) => {
    const budget = {
      ...(flags.budgetCalls !== undefined ? { calls: wholeNumber(flags.budgetCalls, '--budget-calls', 0) } : {}),
      ...(flags.budgetTokens !== undefined ? { tokens: wholeNumber(flags.budgetTokens, '--budget-tokens', 0) } : {}),
      ...(flags.budgetUsd !== undefined ? { usd: nonNegativeNumber(flags.budgetUsd, '--budget-usd') } : {}),
      ...(flags.budgetMinutes !== undefined
        ? { minutes: nonNegativeNumber(flags.budgetMinutes, '--budget-minutes') }
        : {}),
    };
    const config = flags.resume ? undefined : configFrom(flags, budget);
    const calls = modelCallOptions(flags, io);
    if (flags.out && !flags.resume && !flags.dryRun) checkOutDir(flags.out, { force: Boolean(flags.force) });
    // A dry run of a new search prepares in a throw-away store: nothing it does is kept.
    // --resume reads a store that must exist: a mistyped --db is an error, not a new empty store.
    const store = openStore(
      flags.dryRun && !flags.resume ? ':memory:' : flags.db,
      flags.resume ? { mustExist: true } : {},
    );
    try {
      const distributed = distributedFrom(flags);
      let queue: QueueRunner | undefined;
      // With --redis every evaluation of the run goes to the workers (jobs namespaced by the run id); a dry run evaluates nothing.
      const runner =
        distributed && !flags.dryRun
          ? async (req: RunnerRequest) => {
              // The queue (BullMQ, the Redis client) is loaded only when --redis asks for it.
              const { createQueueRunner } = await import('../../distributed/queue-runner.js');
              queue = await createQueueRunner({
                ...distributed,
                run: req.runId,
                policy: { model: req.policySpec },
                judge: req.judgeSpec,
                ...(req.judgeMode ? { judgeMode: req.judgeMode } : {}),
                memo: req.memo,
                toolsHint: req.toolsConfig,
                writes: req.writes,
                budget: req.budget,
                breaker: req.breaker,
              });
              return queue;
            }
          : undefined;
      // A dry run sends nothing to a model, not even the start-up check.
      const prepared = await prepareSearch(store, {
        ...(config ? { config } : {}),
        ...(flags.resume ? { resume: flags.resume } : {}),
        budget,
        calls: flags.dryRun ? { ...calls, probe: false, requireKeys: false } : calls,
        ...(runner ? { runner } : {}),
      });
      try {
        if (flags.dryRun) await dryRun(prepared, flags, io);
        else await runAndReport(prepared, flags, io, queue);
      } finally {
        await prepared.close();
      }
    } finally {
      store.close();
    }
  });
};

async function runAndReport(
  prepared: Awaited<ReturnType<typeof prepareSearch>>,
  flags: SearchFlags,
  io: CliIO,
  queue: QueueRunner | undefined,
): Promise<void> {
  const { input, labels, runId, outDir } = prepared;
  if (prepared.skippedRecords > 0)
    io.err(
      `skipped ${prepared.skippedRecords} invalid record line${prepared.skippedRecords === 1 ? '' : 's'} of ${prepared.config.records} (--skip-invalid)`,
    );
  if (prepared.tookOverFrom)
    io.err(
      `run ${runId} was held by pid ${prepared.tookOverFrom.pid} on ${prepared.tookOverFrom.host}, which is gone; this process takes it over`,
    );
  const total = input.settings.iterations;
  const s = io.isTTY && !flags.json ? spinner() : undefined;
  let spinning = false;
  const resumeCommand = `flowscout search --resume ${runId}${flags.db && flags.db !== DEFAULT_DB_PATH ? ` --db ${flags.db}` : ''}`;
  // Ctrl-C or SIGTERM: the first stops the search before its next iteration (best so far written,
  // run resumable); a second quits at once (the store holds every finished iteration).
  const stop = new AbortController();
  const onInterrupt = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) {
      io.err(
        `Interrupted again (${signal}): quitting now. Every finished iteration is stored; continue with: ${resumeCommand}`,
      );
      prepared.input.persist?.store.releaseLock(runId, process.pid);
      process.exit(130);
    }
    stop.abort();
    if (spinning) s?.stop('stopping');
    spinning = false;
    io.err(`Stopping after the current iteration (${signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl-C'} again to quit now)…`);
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  // The best so far is written whenever it changes, so a failure later loses nothing.
  let written: string[] = [];
  const store = input.persist?.store;
  // The best workflow's own runs, from the traces the store keeps: the baseline of its served runs.
  const workflowRuns = store ? (best: string) => storedWorkflowRuns(store, runId, best) : undefined;
  const writeSoFar = (sofar: Parameters<typeof writeSearchArtifacts>[1]) => {
    written = writeSearchArtifacts(outDir, sofar, labels, {
      runId,
      profileFrom: input.splits.opt,
      ...(workflowRuns ? { workflowRuns } : {}),
    });
  };
  let spinnerText = '';
  // With --redis the spinner also shows the queue: jobs waiting, active, done, failed, workers.
  const queueTimer =
    s && queue
      ? setInterval(() => {
          void queue.progress().then(
            (p) => {
              if (spinning) s.message(`${spinnerText} · ${progressText(p)}`);
            },
            () => {},
          );
        }, 2_000)
      : undefined;
  queueTimer?.unref();
  let result;
  let files: string[] = [];
  const offlinePolicy = input.policy.kind === 'offline';
  try {
    if (!flags.json) {
      io.out(
        `${prepared.resumed ? 'Resuming' : 'Starting'} search ${runId}: ${input.splits.opt.length} D_opt, ${input.splits.val.length} D_val, ${input.splits.test.length} D_test records (split ${prepared.splitNote}); strategy ${prepared.config.strategy}, J=${total}, P=${input.settings.patience}, seed ${input.settings.seed}`,
      );
      io.out(labelsLine(labels));
      const guard = isGuarded(input.tools) ? writeGuardHeader(input.tools.writeGuard()) : undefined;
      if (guard) io.out(guard);
      const p = await projectionOf(prepared);
      io.out(
        p
          ? projectionLine(p, prepared.models.priced)
          : 'projected: no model requests (offline policy, judge and optimizer)',
      );
      const small = splitWarning(input.splits);
      if (small) io.err(`warning: ${small}`);
      if (prepared.splitLeak) io.err(prepared.splitLeak);
      io.out(TABLE_HEADER);
    }
    const startSpinner = (text: string) => {
      if (!s || stop.signal.aborted) return;
      spinnerText = text;
      s.start(text);
      spinning = true;
    };

    startSpinner(
      prepared.resumed
        ? progressLine(input.persist ? input.persist.store.getRun(runId).iterationsDone + 1 : 1, total, undefined)
        : 'evaluating G0 on D_opt and D_val',
    );
    result = await runSearch({
      ...input,
      stop: stop.signal,
      onIteration: (row) => {
        if (flags.json) return;
        if (spinning) s!.stop(formatRow(row));
        else io.out(formatRow(row));
        spinning = false;
        if (row.iteration < total) startSpinner(progressLine(row.iteration + 1, total, row));
      },
      onBestChanged: writeSoFar,
      // Before the run is stored as done: a run is done only once its files are whole.
      writeOutputs: (finished) => {
        files = writeSearchArtifacts(outDir, finished, labels, {
          runId,
          test: input.splits.test,
          profileFrom: input.splits.opt,
          ...(workflowRuns ? { workflowRuns } : {}),
        });
      },
      onTestStart: (records) => {
        if (flags.json) return;
        if (spinning) s!.stop('search loop ended');
        spinning = false;
        startSpinner(`running G0 and the best candidate on the ${records} test records`);
      },
    });
    if (spinning) s!.stop(`search ended: ${result.stopReason}`);
  } catch (e) {
    if (spinning) s!.stop('search failed');
    if (written.length)
      io.err(
        `The best workflow so far is in ${outDir} (${written.length} files); the run is stored as failed and resumes with: ${resumeCommand}`,
      );
    else if (input.persist) io.err(`The run is stored as failed and resumes with: ${resumeCommand}`);
    throw e;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
    if (queueTimer) clearInterval(queueTimer);
  }
  // With --redis the write calls were made on the workers: their guards' counts come back with the jobs.
  const writes = isGuarded(input.tools) ? addWriteCalls(input.tools.writeGuard(), queue?.writeCalls()) : undefined;
  if (flags.json) {
    io.out(
      JSON.stringify(
        {
          ...searchDocument(result, labels, runId),
          offline: labels.offline,
          outDir,
          files,
          iterations: result.iterations,
          ...(writes && writes.writeTools.length > 0 ? { writeCalls: writes } : {}),
        },
        null,
        2,
      ),
    );
  } else {
    if (result.stopKind === 'budget')
      io.out(
        `Budget exhausted: ${result.stopReason}. The search stopped cleanly; the best candidate so far was saved.`,
      );
    if (result.stopKind === 'interrupted')
      io.out(
        `Interrupted: the search stopped ${result.stopReason.replace(/^interrupted /, '')}; the best candidate so far was saved. Continue with: ${resumeCommand}`,
      );
    io.out(formatSummary(result, labels, { runId, outDir, files }));
    const writeLine = writes ? writeGuardSummary(writes) : undefined;
    if (writeLine) io.out(writeLine);
  }
  if (result.stopKind === 'interrupted') throw new ExitWith(130);
}
