import type { ParamSchema } from '../contracts/canonical-args.js';
import type { TaskRecord } from '../records/schema.js';
import { addUsage, type Usage } from '../llm/usage.js';
import { mapLimit } from '../util/map-limit.js';
import type { Prediction } from './predictions.js';
import { stability } from './stability.js';
import { meanTc, toolCallCorrectness, type TcResult } from './tool-call-lcs.js';
import { ES_DIMENSIONS, type EsDimension, type Judge, type JudgeScore } from './types.js';

/**
 * Scoring predictions against records (docs/DESIGN.md, "Metrics"): TC per record from the calls, ES per
 * record from the judge, their means, and stability when a record was run more than once. `eval`,
 * the search and the benchmarks all score through this one function.
 *
 * - A record without a prediction counts as an empty trace (no calls, empty answer) and is listed in
 *   `missingPredictions`; predictions whose id is no record are ignored and listed in `unknownPredictions`.
 * - Several predictions with the same id are repeated runs: the record's TC, ES and dimensions are the
 *   means over its runs, and its CV is taken over the runs' ES.
 * - An empty answer scores 0 on every ES dimension without asking the judge. A judge that fails on an
 *   answer scores it 0 and the failure is kept on the record (`judgeError`) and counted.
 * - A record without a reference answer (a run that ended in a tool call, such as a hand-off) has
 *   no ES: the judge is not asked, the record is marked `noReference`, and the means of ES and its
 *   dimensions are taken over the records that have a reference (`esRecords` says how many). TC is
 *   scored on every record.
 */

export type EsDims = Record<EsDimension, number>;

export interface ScoreOptions {
  judge: Judge;
  /** Input schema per tool name, for canonical argument comparison (TC). */
  schemas?: Readonly<Record<string, ParamSchema | undefined>>;
  /** Judge calls in flight at once (default 4). */
  concurrency?: number;
  signal?: AbortSignal;
}

export interface RecordScore {
  id: string;
  tc: number;
  es: number;
  dims: EsDims;
  /** TC detail of the first run (matched, missing, extra, reordered, wrongArgs). */
  detail: TcResult;
  /** Runs scored; a missing prediction is one empty run. */
  runs: number;
  /** True when there was no prediction for this record. */
  missingPrediction?: boolean;
  /** Per-run TC and ES, and the CV of ES, when the record was run more than once. */
  tcRuns?: number[];
  esRuns?: number[];
  cv?: number;
  /** The judge's explanation of the first run, when it gives one. */
  rationale?: string;
  judgeError?: string;
  /** The record has no reference answer: its ES is not scored (0 here, left out of the means). */
  noReference?: true;
}

export interface EvalReport {
  /** Mean TC over records. */
  tc: number;
  /** Mean ES over the records that have a reference answer (0 when none has). */
  es: number;
  dims: EsDims;
  /** Records ES was scored on: those with a reference answer. */
  esRecords: number;
  /** The judge's label, shown with every ES figure (e.g. "offline lexical judge"). */
  judge: string;
  judgeKind: Judge['kind'];
  records: RecordScore[];
  missingPredictions: string[];
  unknownPredictions: string[];
  /** Mean CV of ES over records run more than once; absent when no record was. */
  cv?: number;
  judgeErrors: number;
  usage?: Usage;
  /**
   * Per query (means over records and runs): calls made, calls beyond the reference (no call of their
   * tool to pair with), failed calls (when the runs were executed here), and the graded TC beside the
   * exact one (tool-call-lcs.ts, `gradedTc`).
   */
  calls: { made: number; beyond: number; gradedTc: number; failed?: number };
}

/** Scores predictions (possibly several runs per record) against the records. */
export async function scorePredictions(
  records: readonly TaskRecord[],
  predictions: readonly Prediction[],
  opts: ScoreOptions,
): Promise<EvalReport> {
  const known = new Set(records.map((r) => r.id));
  const byId = new Map<string, Prediction[]>();
  const unknown = new Set<string>();
  for (const p of predictions) {
    if (!known.has(p.id)) {
      unknown.add(p.id);
      continue;
    }
    const list = byId.get(p.id) ?? [];
    list.push(p);
    byId.set(p.id, list);
  }

  const jobs = records.flatMap((record) => {
    const runs = byId.get(record.id) ?? [{ id: record.id, calls: [], answer: '' }];
    return runs.map((run) => ({ record, run }));
  });
  let usage: Usage | undefined;
  const judged = await mapLimit(jobs, opts.concurrency ?? 4, async ({ record, run }): Promise<ScoredRun> => {
    const scored = await scoreRun(record, run, opts);
    if (scored.score.usage) usage = addUsage(usage, scored.score.usage);
    return scored;
  });

  let at = 0;
  const runs = records.map((record) => {
    const n = byId.get(record.id)?.length ?? 1;
    at += n;
    return judged.slice(at - n, at);
  });
  const missing = new Set(records.filter((r) => !byId.has(r.id)).map((r) => r.id));
  return reportFromRuns(records, runs, {
    judge: opts.judge,
    missing,
    unknownPredictions: [...unknown],
    ...(usage ? { usage } : {}),
  });
}

/**
 * One run of one record scored on its own: TC of its calls (with detail) and the judge's ES of its
 * answer. `scorePredictions` scores every run through this, and so does a queue worker for the
 * record it ran, so a distributed evaluation scores exactly as a local one.
 */
export async function scoreRun(
  record: TaskRecord,
  run: Pick<Prediction, 'calls' | 'answer'>,
  opts: Pick<ScoreOptions, 'judge' | 'schemas' | 'signal'>,
): Promise<ScoredRun> {
  const detail = toolCallCorrectness(record.calls, run.calls, { schemas: opts.schemas });
  const { score, error } = await judge(opts.judge, record, run.answer, opts.signal);
  return { detail, score, ...(error !== undefined ? { error } : {}) };
}

/** One scored run of a record: the TC detail of its calls and the judge's score of its answer (or the judge's failure). */
export interface ScoredRun {
  detail: TcResult;
  score: JudgeScore;
  /** Calls of the run that failed (known when the run was executed here, not for predictions). */
  failed?: number;
  /** The judge failed on this answer (it scores 0). */
  error?: string;
}

/** What `reportFromRuns` needs besides the runs. */
export interface ReportOptions {
  judge: Pick<Judge, 'label' | 'kind'>;
  /** Records that had no prediction (their one run is the empty trace). */
  missing?: ReadonlySet<string>;
  unknownPredictions?: string[];
  /** The judge's model usage. */
  usage?: Usage;
}

/**
 * The report over records whose runs are already scored (`runs[i]` are record i's runs, at least
 * one each): per-record means and CV, overall means. `scorePredictions` ends here, and so does
 * `eval <workflow> --repeat N`, whose runs were scored by the search's `evaluateWorkflow`.
 */
export function reportFromRuns(
  records: readonly TaskRecord[],
  runs: ReadonlyArray<readonly ScoredRun[]>,
  opts: ReportOptions,
): EvalReport {
  let judgeErrors = 0;
  const scores: RecordScore[] = records.map((record, i) => {
    const mine = runs[i]!;
    judgeErrors += mine.filter((m) => m.error).length;
    const tcRuns = mine.map((m) => m.detail.tc);
    const esRuns = mine.map((m) => m.score.es);
    const first = mine[0]!;
    const out: RecordScore = {
      id: record.id,
      tc: mean(tcRuns),
      es: mean(esRuns),
      dims: meanDims(mine.map((m) => m.score)),
      detail: first.detail,
      runs: mine.length,
    };
    if (opts.missing?.has(record.id)) out.missingPrediction = true;
    if (!hasReference(record)) out.noReference = true;
    if (mine.length > 1) Object.assign(out, { tcRuns, esRuns, cv: stability([esRuns]).cv });
    if (first.score.rationale) out.rationale = first.score.rationale;
    const error = mine.find((m) => m.error)?.error;
    if (error) out.judgeError = error;
    return out;
  });

  const repeated = scores.filter((s) => s.esRuns && !s.noReference);
  const judged = scores.filter((s) => !s.noReference);
  const all = runs.flat();
  const per = (f: (r: ScoredRun) => number) => (all.length ? mean(all.map(f)) : 0);
  const failedKnown = all.length > 0 && all.every((r) => r.failed !== undefined);
  const report: EvalReport = {
    tc: meanTc(scores),
    es: mean(judged.map((s) => s.es)),
    dims: meanDims(judged.map((s) => s.dims)),
    esRecords: judged.length,
    judge: opts.judge.label,
    judgeKind: opts.judge.kind,
    records: scores,
    missingPredictions: records.filter((r) => opts.missing?.has(r.id)).map((r) => r.id),
    unknownPredictions: opts.unknownPredictions ?? [],
    judgeErrors,
    calls: {
      made: per((r) => r.detail.kHat),
      beyond: per((r) => r.detail.beyond),
      gradedTc: per((r) => r.detail.gradedTc),
      ...(failedKnown ? { failed: per((r) => r.failed!) } : {}),
    },
  };
  if (repeated.length) report.cv = stability(repeated.map((s) => s.esRuns!)).cv;
  if (opts.usage) report.usage = opts.usage;
  return report;
}

/** Input schemas by tool name, from tool descriptors (for `schemas`). */
export function schemasFromTools(
  tools: ReadonlyArray<{ name: string; inputSchema: Record<string, unknown> }>,
): Record<string, ParamSchema> {
  return Object.fromEntries(tools.map((t) => [t.name, t.inputSchema as ParamSchema]));
}

const ZERO: JudgeScore = { correctness: 0, completeness: 0, relevance: 0, clarity: 0, es: 0 };

/** True when the record has a reference answer to score ES against. */
export function hasReference(record: Pick<TaskRecord, 'reference'>): boolean {
  return record.reference.trim() !== '';
}

/** `ES … on 12 of 15 records (3 have no reference answer)` when some records have none; '' when all have one. */
export function esCoverage(esRecords: number, records: number): string {
  return esRecords === records
    ? ''
    : `ES on ${esRecords} of ${records} records (${records - esRecords} without a reference answer: TC only)`;
}

async function judge(
  j: Judge,
  record: TaskRecord,
  answer: string,
  signal?: AbortSignal,
): Promise<{ score: JudgeScore; error?: string }> {
  if (!hasReference(record)) return { score: { ...ZERO, rationale: 'no reference answer: ES not scored' } };
  if (answer.trim() === '') return { score: { ...ZERO, rationale: 'empty answer' } };
  try {
    return { score: await j.score({ query: record.query, reference: record.reference, answer, signal }) };
  } catch (e) {
    if (signal?.aborted) throw e;
    return { score: ZERO, error: e instanceof Error ? e.message : String(e) };
  }
}

function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function meanDims(items: ReadonlyArray<Pick<JudgeScore, EsDimension>>): EsDims {
  return Object.fromEntries(ES_DIMENSIONS.map((d) => [d, mean(items.map((i) => i[d]))])) as EsDims;
}
