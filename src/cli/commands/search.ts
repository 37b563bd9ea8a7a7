import { spinner } from '@clack/prompts';
import type { Command } from '@commander-js/extra-typings';
import { splitWarning } from '../../records/split.js';
import { checkOutDir, searchDocument, writeSearchArtifacts } from '../../search/artifacts.js';
import { storedWorkflowRuns } from '../../search/workflow-runs.js';
import { TABLE_HEADER, formatRow, formatSummary, labelsLine, progressLine } from '../../search/format-search.js';
import type { QueueRunner } from '../../distributed/queue-runner.js';
import { progressText } from '../../distributed/progress.js';
import { prepareSearch, type RunnerRequest } from '../../wiring/prepare-search.js';
import { runSearch } from '../../search/run-search.js';
import { addWriteCalls, isGuarded, writeGuardHeader, writeGuardSummary } from '../../tools/write-guard.js';
import { DEFAULT_DB_PATH, openStore } from '../../store/open-store.js';
import { modelCallOptions } from '../model-flags.js';
import { ExitWith, type CliIO } from '../output.js';
import type { RegisterCommand } from './register.js';
import { dryRun, projectionLine, projectionOf } from './search-dry-run.js';
import { configFrom, distributedFrom } from './search-config.js';
import { declareSearch, type SearchFlags } from './search-flags.js';

/**
 * `flowscout search`: the Workflow Optimizer (docs/DESIGN.md, "Search"). Mines G0 from D_opt,
 * runs MCTS (or beam search) with the optimizer, prints one table row per iteration (and a progress
 * line on a terminal), stores every candidate so `--resume <run>` can continue after a crash, and
 * writes the best candidate as JSON, a TypeScript module and a Mermaid diagram, plus `search.json`.
 * A budget that runs out ends the run cleanly (exit 0) with the best-so-far files written.
 */

/** Registers `flowscout search`. */
export const registerSearch: RegisterCommand = (program: Command, io: CliIO) => {
  declareSearch(program).action(async (flags) => {
    const budget = {
      ...(flags.budgetCalls !== undefined ? { calls: flags.budgetCalls } : {}),
      ...(flags.budgetTokens !== undefined ? { tokens: flags.budgetTokens } : {}),
      ...(flags.budgetUsd !== undefined ? { usd: flags.budgetUsd } : {}),
      ...(flags.budgetMinutes !== undefined ? { minutes: flags.budgetMinutes } : {}),
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
                allowLiveWrites: req.allowLiveWrites,
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
      heldOutFrom: input.splits.val,
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
      const guard = isGuarded(input.tools)
        ? writeGuardHeader(input.tools.writeGuard(), { workers: queue !== undefined })
        : undefined;
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
          heldOutFrom: input.splits.val,
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
