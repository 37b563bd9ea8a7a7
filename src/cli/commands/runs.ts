import type { Command } from '@commander-js/extra-typings';
import type { IterationRow } from '../../search/search-context.js';
import { TABLE_HEADER, formatRow, labelsLine } from '../../search/format-search.js';
import { checkOutDir, TEST_RECORDS_FILE, writeSearchArtifacts } from '../../search/artifacts.js';
import { storedWorkflowRuns } from '../../search/workflow-runs.js';
import { OFFLINE_POLICY_LABEL } from '../../policies/offline/offline-policy.js';
import type { TaskRecord } from '../../records/schema.js';
import { storedSearchResult } from '../../search/stored-result.js';
import { DEFAULT_DB_PATH, openStore, type Store } from '../../store/open-store.js';
import { displayStatus } from '../../store/run-lock.js';
import type { RunRow } from '../../store/types.js';
import { formatNodeUsage, type NodeUse } from '../../search/node-usage.js';
import type { CliIO } from '../output.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout runs list` and `flowscout runs show <id>`: what the store holds about past searches —
 * their status, labels, best candidate and scores, and (show) the per-iteration table and the
 * candidate tree. Reads only (`show --write <dir>` writes a run's best workflow files again, from the
 * store); a missing store is a clear NOT_FOUND. A `running` run that no live process drives (it was
 * killed) is shown as `interrupted`.
 */
/** Registers `flowscout runs list` and `flowscout runs show`. */
export const registerRuns: RegisterCommand = (program: Command, io: CliIO) => {
  const cmd = program.command('runs').description('list and show stored search runs');
  cmd
    .command('list')
    .description('list the runs in the store, newest first')
    .option('--db <file>', 'the store (SQLite)', DEFAULT_DB_PATH)
    .option('--json', 'print JSON')
    .action((opts) => {
      const store = openStore(opts.db, { readOnly: true });
      try {
        const runs = store.listRuns();
        if (opts.json)
          return io.out(
            JSON.stringify(
              runs.map((r) => brief(r, store)),
              null,
              2,
            ),
          );
        if (runs.length === 0) return io.out(`no runs in ${store.file}`);
        io.out(
          ' run                          status       iterations  best   S_val  strategy  started                   policy / judge / optimizer',
        );
        for (const r of runs) {
          const b = brief(r, store);
          io.out(
            ` ${r.id.padEnd(28)} ${b.status.padEnd(12)} ${String(r.iterationsDone).padStart(10)}  ${(r.bestCandidate ?? '-').padEnd(5)}  ${b.bestVal === undefined ? '    -' : b.bestVal.toFixed(3)}  ${r.strategy.padEnd(8)}  ${r.createdAt}  ${r.policyLabel} / ${r.judgeLabel} / ${r.optimizerLabel}${isOffline(r) ? ' (OFFLINE)' : ''}`,
          );
        }
      } finally {
        store.close();
      }
    });
  cmd
    .command('show')
    .description('show one run: settings, result, per-iteration table and candidates')
    .argument('<run>', 'run id (see `flowscout runs list`)')
    .option('--db <file>', 'the store (SQLite)', DEFAULT_DB_PATH)
    .option('--json', 'print JSON')
    .option(
      '--write <dir>',
      "write the run's files again into this folder, from the store: the best workflow (.json, .ts, .mmd), search.json, and the test records",
    )
    .option('--force', 'with --write: write into a non-empty folder')
    .action((id, opts) => {
      const store = openStore(opts.db, { readOnly: true });
      try {
        const run = store.getRun(id);
        if (opts.write) {
          checkOutDir(opts.write, { force: Boolean(opts.force) });
          const { result, labels } = storedSearchResult(store, id);
          // Every file the search wrote: the test split too.
          const records = store.loadRunRecords(id);
          const split = (s: 'opt' | 'val' | 'test') =>
            records.filter((r) => r.split === s).map((r) => r.record as TaskRecord);
          const test = split('test');
          const files = writeSearchArtifacts(opts.write, result, labels, {
            runId: id,
            ...(test.length ? { test } : {}),
            ...(split('opt').length ? { profileFrom: split('opt') } : {}),
            ...(split('val').length ? { heldOutFrom: split('val') } : {}),
            workflowRuns: (best: string) => storedWorkflowRuns(store, id, best),
          });
          io.out(
            `wrote ${files.join(', ')} (best ${result.best.id}${result.best.valScore !== undefined ? `, validation ${result.best.valScore.toFixed(3)}` : ''}; run ${displayStatus(store, run)})`,
          );
          if (!test.length && records.length)
            io.err(
              `note: this run was stored before its test records were kept, so ${TEST_RECORDS_FILE} is not written`,
            );
          return;
        }
        const candidates = store.loadCandidates(id).map(({ workflow: _w, feedback: _f, plan: _p, ...c }) => c);
        const iterations = store.loadIterations(id).map((r) => r.data as unknown as IterationRow);
        if (opts.json) return io.out(JSON.stringify({ run, iterations, candidates }, null, 2));
        const status = displayStatus(store, run);
        io.out(
          `Run ${run.id} (${status}${run.stopReason ? `: ${run.stopReason}` : status === 'interrupted' ? ': its process is gone' : ''})`,
        );
        io.out(
          `  started ${run.createdAt}, updated ${run.updatedAt}; strategy ${run.strategy}, seed ${run.seed}, ${run.iterationsDone} iterations`,
        );
        io.out(
          `  ${labelsLine({ policy: run.policyLabel, judge: run.judgeLabel, optimizer: run.optimizerLabel, offline: isOffline(run) })}`,
        );
        if (run.recordsFile) io.out(`  records: ${run.recordsFile}`);
        if (run.outDir) io.out(`  output: ${run.outDir}`);
        const res = run.result as
          | {
              bestVal?: { score?: number; tc?: number; es?: number };
              g0Val?: { score?: number };
              test?: { records: number; best: { tc: number; es: number }; g0: { tc: number; es: number } };
            }
          | undefined;
        if (run.bestCandidate)
          io.out(
            `  best: ${run.bestCandidate}${res?.bestVal?.score !== undefined ? ` (validation ${res.bestVal.score.toFixed(3)}, G0 ${res.g0Val?.score?.toFixed(3) ?? '-'})` : ''}`,
          );
        if (res?.test)
          io.out(
            `  test (${res.test.records} records): G0 TC ${res.test.g0.tc.toFixed(3)} ES ${res.test.g0.es.toFixed(3)} → best TC ${res.test.best.tc.toFixed(3)} ES ${res.test.best.es.toFixed(3)}`,
          );
        if (status === 'running') {
          const lock = store.getLock(run.id);
          if (lock) io.out(`  driven by pid ${lock.pid} on ${lock.host} (last sign of life ${lock.heartbeatAt})`);
        } else if (run.status !== 'done')
          io.out(
            `  continue it with: flowscout search --resume ${run.id}${opts.db !== DEFAULT_DB_PATH ? ` --db ${opts.db}` : ''}`,
          );
        if (iterations.length) {
          io.out(TABLE_HEADER);
          for (const r of iterations) io.out(formatRow(r));
        }
        for (const line of formatNodeUsage(run.usage?.nodes as Record<string, NodeUse> | undefined)) io.out(line);
        const reuse = reuseLine(run.usage);
        if (reuse) io.out(reuse);
        io.out(` candidates (${candidates.length}):`);
        for (const c of candidates) {
          io.out(
            `  ${c.id.padEnd(5)} ← ${(c.parent ?? '-').padEnd(5)} it ${String(c.iteration).padStart(3)}  R_opt ${c.optReward?.toFixed(3) ?? '  -  '}  S_val ${c.valScore?.toFixed(3) ?? '  -  '}  C ${c.visits}  Q ${c.q.toFixed(3)}  ${c.duplicateOf ? `(= ${c.duplicateOf}) ` : ''}${c.error ? `[error] ` : ''}${c.summary ?? ''}`,
          );
        }
      } finally {
        store.close();
      }
    });
};

/** What the run executed and what its memo reused (node runs, model requests, judge scores), from its stored counters. */
function reuseLine(usage: Record<string, unknown> | undefined): string | undefined {
  if (!usage || (usage.executions === undefined && usage.judgeScoresReused === undefined)) return undefined;
  const n = (k: string) => (typeof usage[k] === 'number' ? (usage[k] as number) : 0);
  return ` work: ${n('executions')} workflow executions; memo: ${n('nodeRunsSaved')} node runs, ${n('toolCallsSaved')} tool calls and ${n('llmCallsSaved')} model requests saved; ${n('judgeScoresReused')} judge scores reused (${n('judgeCallsSaved')} judge requests, ${n('judgeTokensSaved')} tokens not sent)`;
}

/** A run made without any model: its figures are offline figures. */
function isOffline(r: RunRow): boolean {
  return [r.policyLabel, r.judgeLabel, r.optimizerLabel].every((l) => /offline/i.test(l));
}

function brief(
  r: RunRow,
  store: Store,
): {
  id: string;
  status: string;
  iterations: number;
  best?: string;
  bestVal?: number;
  strategy: string;
  createdAt: string;
  policy: string;
  judge: string;
  optimizer: string;
} {
  const res = r.result as { bestVal?: { score?: number } } | undefined;
  return {
    id: r.id,
    status: displayStatus(store, r),
    iterations: r.iterationsDone,
    ...(r.bestCandidate ? { best: r.bestCandidate } : {}),
    ...(res?.bestVal?.score !== undefined ? { bestVal: res.bestVal.score } : {}),
    strategy: r.strategy,
    createdAt: r.createdAt,
    policy: r.policyLabel,
    judge: r.judgeLabel,
    optimizer: r.optimizerLabel,
  };
}
