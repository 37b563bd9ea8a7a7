import type { Command } from '@commander-js/extra-typings';
import type { Deviation, LogConformance } from '../../conformance/align-log.js';
import { checkConformance } from '../../conformance/check.js';
import { separation, type RunScore, type Separation } from '../../conformance/run-health.js';
import { FlowScoutError } from '../../errors/index.js';
import { workflowHash } from '../../graph/hash.js';
import { WorkflowSchema, type Workflow } from '../../graph/schema.js';
import { formatProcessTree } from '../../mining/process-tree/format.js';
import { parseProcessTree } from '../../mining/process-tree/parse.js';
import type { ProcessTree } from '../../mining/process-tree/schema.js';
import { readJsonFile } from '../../util/json-file.js';
import { requireFile } from '../../util/require-file.js';
import { readFileSync } from 'node:fs';
import type { CliIO } from '../output.js';
import { readRuns, type RunsInput } from '../runs-input.js';
import type { RegisterCommand } from './register.js';

/**
 * `flowscout conformance <log> --tree <file> | --against <workflow.json> [--json]`: optimal
 * alignments of every variant of the log against a process tree (PM4Py notation) or a workflow's
 * tree, with PM4Py's fitness per variant and `percFitTraces` / `averageFitness` for the log; every
 * run's fitness and health (conformance/run-health.ts) and, where runs carry an outcome, how well
 * each score separates failed from successful runs.
 */
export const registerConformance: RegisterCommand = (program: Command, io: CliIO) => {
  program
    .command('conformance')
    .description(
      "align every run of a log with a process tree or a workflow: PM4Py's fitness per variant, what each skipped or inserted",
    )
    .argument(
      '<log>',
      'runs: an event log (.xes, .csv, JSONL cases), records, eval predictions, run traces, agent logs, or a serve --db store',
    )
    .option('--tree <file>', "a process tree in PM4Py's notation (as `flowscout mine --format tree` prints it)")
    .option(
      '--against <workflow>',
      "a workflow JSON: align with the process tree of its graph (a store's runs of that workflow)",
    )
    .option(
      '--json',
      'print one JSON object: every run (id, fitness, health, its evidence), the variants with their cost, fitness and deviations, percFitTraces, averageFitness, and the AUC of health and fitness where runs carry an outcome',
    )
    .option('--limit <n>', 'variants printed, most frequent first (0: all; --json prints all)', checkLimit, 20)
    .option('--case-column <name>', 'CSV: case id column (XES: trace attribute)')
    .option('--activity-column <name>', 'CSV: activity column (XES: event attribute)')
    .option('--timestamp-column <name>', 'CSV: timestamp column (XES: event attribute)')
    .option('--separator <char>', 'CSV separator (guessed from the header by default)')
    .action(async (log, opts) => {
      const limit = opts.limit;
      if ((opts.tree === undefined) === (opts.against === undefined)) {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: 'conformance needs a model: pass either --tree <file> or --against <workflow.json>',
          hint: 'e.g. flowscout mine runs.jsonl --format tree > tree.txt, then flowscout conformance runs.jsonl --tree tree.txt',
        });
      }
      const workflow = opts.against !== undefined ? readWorkflowFile(opts.against) : undefined;
      const input = await readRuns(log, {
        ...(workflow ? { workflowHash: workflowHash(workflow) } : {}),
        eventLog: {
          ...(opts.caseColumn ? { caseColumn: opts.caseColumn, caseKey: opts.caseColumn } : {}),
          ...(opts.activityColumn ? { activityColumn: opts.activityColumn } : {}),
          ...(opts.timestampColumn ? { timestampColumn: opts.timestampColumn } : {}),
          ...(opts.separator ? { separator: opts.separator } : {}),
        },
      });
      if (input.runs.length === 0) {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `${log} holds no runs to align`,
          hint: 'Pass a log with at least one case, record or run.',
          location: { file: log },
        });
      }
      reportUnreadable(input, log, io);
      const { tree, log: result, runs } = checkConformance(workflow ?? readTree(opts.tree!), input.runs);
      const model = opts.tree !== undefined ? opts.tree : opts.against!;
      if (opts.json) {
        io.out(`${JSON.stringify(conformanceJson(log, model, tree, result, runs, input.unreadable), null, 2)}\n`);
        return;
      }
      io.out(formatConformance(log, model, result, limit, runs));
    });
};

/** Says on stderr how many runs could not be read, and names the first (they are in `--json` too). */
function reportUnreadable(input: RunsInput, log: string, io: CliIO): void {
  const u = input.unreadable;
  if (u.count === 0) return;
  const shown = u.problems.slice(0, 5).map((p) => `  ${p}`);
  if (u.problems.length > 5) shown.push(`  … and ${u.problems.length - 5} more`);
  io.err(
    `${u.count} run${u.count === 1 ? '' : 's'} of ${log} could not be read and ${u.count === 1 ? 'is' : 'are'} not aligned:\n${shown.join('\n')}`,
  );
}

/** How well health and fitness separate failed from successful runs; null when the runs carry no outcome of both kinds. */
export function outcomeSeparation(runs: readonly RunScore[]): { health: Separation; fitness: Separation } | null {
  const health = separation(runs, 'health');
  const fitness = separation(runs, 'fitness');
  return health && fitness ? { health, fitness } : null;
}

/** The JSON document `--json` prints. */
export function conformanceJson(
  log: string,
  model: string,
  tree: ProcessTree,
  r: LogConformance,
  runs: readonly RunScore[] = [],
  unreadable: RunsInput['unreadable'] = { count: 0, problems: [] },
) {
  const outcomes = runs.filter((x) => x.outcome).length;
  return {
    log,
    model,
    tree: formatProcessTree(tree),
    traces: r.traces,
    cheapestRun: r.cheapestRun,
    percFitTraces: r.percFitTraces,
    averageFitness: r.averageFitness,
    averageHealth: runs.length ? runs.reduce((n, x) => n + x.health, 0) / runs.length : 0,
    /** Runs with an outcome, and how well each score separates the failed ones from the successful ones. */
    outcomes: {
      runs: outcomes,
      successful: runs.filter((x) => x.outcome?.success === true).length,
      failed: runs.filter((x) => x.outcome?.success === false).length,
      separation: outcomeSeparation(runs),
    },
    unreadable,
    runs: runs.map((x) => ({
      id: x.id,
      fitness: x.fitness,
      health: x.health,
      calls: x.calls,
      cost: x.cost,
      skipped: x.skipped,
      beyond: x.beyond,
      failedCalls: x.failedCalls,
      errorAnswers: x.errorAnswers,
      withheldCalls: x.withheldCalls,
      repeatedCalls: x.repeatedCalls,
      ...(x.outcome ? { outcome: x.outcome } : {}),
      ...(x.at !== undefined ? { at: x.at } : {}),
    })),
    variants: r.variants.map((v) => ({
      activities: v.activities,
      count: v.count,
      cost: v.cost,
      fitness: v.fitness,
      deviations: v.deviations,
    })),
  };
}

/**
 * The human report: the log's figures, health and what the outcomes say of both scores, the least
 * healthy runs, then the variants, most frequent first, with their deviations.
 */
export function formatConformance(
  log: string,
  model: string,
  r: LogConformance,
  limit: number,
  runs: readonly RunScore[] = [],
): string {
  const lines = [
    `${log}: ${r.traces} run${r.traces === 1 ? '' : 's'}, ${r.variants.length} variant${r.variants.length === 1 ? '' : 's'}, aligned with ${model} (its cheapest complete run: ${r.cheapestRun} activit${r.cheapestRun === 1 ? 'y' : 'ies'})`,
    `percFitTraces ${r.percFitTraces.toFixed(2)} %   averageFitness ${r.averageFitness.toFixed(4)}`,
  ];
  if (runs.length > 0) {
    const sum = (f: (x: RunScore) => number) => runs.reduce((n, x) => n + f(x), 0);
    const with_ = (f: (x: RunScore) => number) => runs.filter((x) => f(x) > 0).length;
    lines.push(
      `averageHealth ${(sum((x) => x.health) / runs.length).toFixed(4)}   runs with failed calls ${with_((x) => x.failedCalls)}, withheld calls ${with_((x) => x.withheldCalls)}, repeated calls ${with_((x) => x.repeatedCalls)}, calls beyond the model ${with_((x) => x.beyond)}`,
    );
    const sep = outcomeSeparation(runs);
    if (sep) lines.push(sep.health.says, sep.fitness.says);
    else if (runs.some((x) => x.outcome))
      lines.push('outcomes: the runs that carry one are all of one kind; no separation to measure');
    const worst = [...runs]
      .map((x, i) => ({ x, i }))
      .filter(({ x }) => x.health < 1)
      .sort((a, b) => a.x.health - b.x.health || a.i - b.i)
      .slice(0, Math.min(limit === 0 ? runs.length : limit, 10))
      .map(({ x }) => x);
    if (worst.length > 0) {
      lines.push('', 'least healthy runs (health, fitness, and what counted against them):');
      for (const x of worst)
        lines.push(`  ${x.health.toFixed(3)}  ${x.fitness.toFixed(3)}  ${x.id}: ${troubleText(x)}`);
    }
  }
  lines.push('', 'count  cost  fitness  activities');
  const sorted = r.variants
    .map((v, i) => ({ v, i }))
    .sort((a, b) => b.v.count - a.v.count || a.i - b.i)
    .map((x) => x.v);
  const shown = limit === 0 ? sorted : sorted.slice(0, limit);
  for (const v of shown) {
    lines.push(
      `${String(v.count).padStart(5)}  ${String(v.cost).padStart(4)}  ${v.fitness.toFixed(4).padStart(7)}  ${v.activities.length ? v.activities.join(', ') : '(no activity)'}`,
    );
    if (v.deviations.length > 0)
      lines.push(`${' '.repeat(24)}${describeDeviations(v.deviations, v.activities.length)}`);
  }
  if (shown.length < sorted.length)
    lines.push(`… ${sorted.length - shown.length} more variants (--limit 0 prints all)`);
  return `${lines.join('\n')}\n`;
}

/** "2 skipped, 1 beyond the model, 3 failed (2 error answers), 1 repeated; outcome reward=0" */
function troubleText(x: RunScore): string {
  const parts: string[] = [];
  if (x.skipped) parts.push(`${x.skipped} skipped`);
  if (x.beyond) parts.push(`${x.beyond} beyond the model`);
  if (x.failedCalls)
    parts.push(
      `${x.failedCalls} failed${x.errorAnswers ? ` (${x.errorAnswers} error answer${x.errorAnswers === 1 ? '' : 's'})` : ''}`,
    );
  if (x.withheldCalls) parts.push(`${x.withheldCalls} withheld`);
  if (x.repeatedCalls) parts.push(`${x.repeatedCalls} repeated`);
  const outcome = x.outcome ? `; outcome ${x.outcome.field}=${String(x.outcome.value)}` : '';
  return `${parts.join(', ')} of ${x.calls} call${x.calls === 1 ? '' : 's'}${outcome}`;
}

/** "skipped 'a' before event 2; inserted 'b' at event 4" */
export function describeDeviations(deviations: readonly Deviation[], length: number): string {
  return deviations
    .map((d) =>
      d.kind === 'inserted'
        ? `inserted '${d.activity}' at event ${d.position}`
        : d.position > length
          ? `skipped '${d.activity}' at the end`
          : `skipped '${d.activity}' before event ${d.position}`,
    )
    .join('; ');
}

function readTree(file: string): ProcessTree {
  requireFile(file, { what: 'process tree file' });
  const text = readFileSync(file, 'utf8').trim();
  try {
    return parseProcessTree(text);
  } catch (e) {
    if (e instanceof FlowScoutError) {
      throw new FlowScoutError({
        code: e.code,
        message: `${file}: ${e.message}`,
        ...(e.hint ? { hint: e.hint } : {}),
        location: { file, ...(e.location?.path ? { path: e.location.path } : {}) },
      });
    }
    throw e;
  }
}

/** A workflow file parsed with the IR schema; INVALID_WORKFLOW naming the file and the JSON path of the first problem. */
export function readWorkflowFile(file: string): Workflow {
  const doc = readJsonFile(file);
  const parsed = WorkflowSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = `$${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`;
    throw new FlowScoutError({
      code: 'INVALID_WORKFLOW',
      message: `${file} is not a workflow: ${path}: ${issue.message}`,
      hint: 'Pass a workflow JSON (as `flowscout mine --format workflow` or a search writes it); `flowscout validate` lists every problem.',
      location: { file, path },
    });
  }
  return parsed.data;
}

function checkLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--limit must be a whole number ≥ 0, got '${value}'`,
      hint: 'Use e.g. --limit 20, or --limit 0 for every variant.',
    });
  }
  return n;
}
