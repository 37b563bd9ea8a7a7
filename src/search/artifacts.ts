import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { observedRunOfRecord, type ObservedRun } from '../conformance/observed-runs.js';
import { withConformanceProfile } from '../conformance/profile.js';
import { FlowScoutError } from '../errors/index.js';
import { fileSystemError } from '../errors/to-flowscout-error.js';
import type { Workflow } from '../graph/schema.js';
import { writeRecordsFile } from '../records/read-records.js';
import type { TaskRecord } from '../records/schema.js';
import { toMermaid } from '../graph/to-mermaid.js';
import { compileWorkflow } from '../runtime/compile.js';
import { writeTextFile } from '../util/json-file.js';
import type { SearchResult } from './run-search.js';
import type { Candidate } from './tree.js';

/**
 * The files a search leaves (what `flowscout search` writes): `best.workflow.json`, `best.workflow.ts` (the compiled
 * standalone module), `best.workflow.mmd` (Mermaid) and `search.json` (the best candidate's id and
 * every candidate with its parent, iteration, edit summary, scores, visits and mean reward). A
 * non-empty output folder is refused without `force`, except the run's own folder when resuming.
 */

/**
 * Beside the workflow: the search's test split, so `eval` on it reproduces the test figures the
 * search printed. (What the search learned is in the workflow itself: its bindings and hints.)
 */
export const TEST_RECORDS_FILE = 'test.records.jsonl';

/** One candidate as `search.json` lists it. */
export interface CandidateSummary {
  id: string;
  parent: string | null;
  iteration: number;
  summary: string;
  optReward: number | null;
  valScore: number | null;
  valTc: number | null;
  valEs: number | null;
  visits: number;
  meanReward: number;
  hash?: string;
  duplicateOf?: string;
  error?: string;
}

/** The content of `search.json`. */
export interface SearchDocument {
  run?: string;
  best: string;
  g0: string;
  stopReason: string;
  labels: { policy: string; judge: string; optimizer: string };
  test?: SearchResult['test'];
  savings?: SearchResult['savings'];
  candidates: CandidateSummary[];
}

/**
 * The best workflow as written: named after G0 and the candidate, with the search's provenance in
 * `meta.search` (run, candidate, the edits from G0 to it) and, given the records it was learned
 * from, its conformance profile in `meta.conformance` (what `flowscout drift` compares new runs
 * with). Name and meta do not change its hash.
 */
export function bestWithProvenance(
  result: SearchResult,
  runId?: string,
  profileFrom?: readonly TaskRecord[],
  workflowRuns?: readonly ObservedRun[],
  heldOutFrom?: readonly TaskRecord[],
): Workflow {
  const w = withProvenance(result, runId);
  if (!profileFrom?.length) return w;
  // The conformance profile (meta.conformance; no record text) of the records it was learned from,
  // of the validation records it was not learned from (what new runs of the process are compared
  // with) and of its own runs.
  const learning = profileFrom.map(observedRunOfRecord);
  return withConformanceProfile(w, {
    learning,
    ...(heldOutFrom?.length
      ? { heldOut: [{ workflow: w, learned: learning, heldOut: heldOutFrom.map(observedRunOfRecord) }] }
      : {}),
    ...(workflowRuns ? { workflowRuns } : {}),
  });
}

function withProvenance(result: SearchResult, runId?: string): Workflow {
  const best = result.best;
  const w = structuredClone(best.workflow!);
  if (best.id === result.root.id) return w;
  const edits: string[] = [];
  for (let c: Candidate | undefined = best; c && c.parent !== null; c = result.tree.get(c.parent))
    edits.unshift(c.summary ?? '');
  w.name = `${result.root.workflow!.name} → search ${best.id}`;
  w.meta = {
    ...(w.meta ?? {}),
    search: { ...(runId ? { run: runId } : {}), candidate: best.id, valScore: best.valScore, edits },
  };
  return w;
}

/** Refuses a non-empty folder unless `force` (or `allowExisting`, a resumed run writing its own folder). */
export function checkOutDir(dir: string, opts: { force?: boolean; allowExisting?: boolean } = {}): void {
  if (opts.force || opts.allowExisting || !existsSync(dir)) return;
  const entries = readdirSync(dir);
  if (entries.length === 0) return;
  throw new FlowScoutError({
    code: 'FILE_EXISTS',
    message: `the output folder ${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''})`,
    hint: 'Choose another --out folder, or pass --force to overwrite the search files in it.',
    location: { file: dir },
  });
}

/**
 * Creates `dir` and writes (then removes) a probe file in it, so an output folder that cannot be
 * written fails before a search spends anything, not after it (FILE_ACCESS naming the folder).
 */
export function ensureWritableDir(dir: string): void {
  const probe = join(dir, `.flowscout-write-check-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, 'ok');
    rmSync(probe, { force: true });
  } catch (e) {
    const named = e instanceof Error ? fileSystemError(e, (e as NodeJS.ErrnoException).path ?? dir) : undefined;
    if (named) {
      throw new FlowScoutError({
        code: named.code,
        message: `the output folder ${dir} cannot be written: ${named.message}`,
        hint: `${named.hint ?? ''} Nothing was run.`.trim(),
        location: { file: dir },
        cause: e,
      });
    }
    throw e;
  }
}

/** A candidate as `search.json` lists it (mean reward = W / C). */
export function candidateSummary(c: Candidate): CandidateSummary {
  const s: CandidateSummary = {
    id: c.id,
    parent: c.parent,
    iteration: c.iteration,
    summary: c.summary ?? '',
    optReward: c.optReward ?? null,
    valScore: c.valScore ?? null,
    valTc: c.valTc ?? null,
    valEs: c.valEs ?? null,
    visits: c.visits,
    meanReward: c.visits > 0 ? c.w / c.visits : 0,
  };
  if (c.hash) s.hash = c.hash;
  if (c.duplicateOf) s.duplicateOf = c.duplicateOf;
  if (c.error) s.error = c.error;
  return s;
}

/** The `search.json` document of a finished search. */
export function searchDocument(result: SearchResult, labels: SearchDocument['labels'], runId?: string): SearchDocument {
  return {
    ...(runId ? { run: runId } : {}),
    best: result.best.id,
    g0: result.root.id,
    stopReason: result.stopReason,
    labels,
    ...(result.test ? { test: result.test } : {}),
    ...(result.savings ? { savings: result.savings } : {}),
    candidates: [...result.tree.nodes.values()].map(candidateSummary),
  };
}

/** Writes the four files into `dir`, and the test records when given; returns their paths. */
export function writeSearchArtifacts(
  dir: string,
  result: SearchResult,
  labels: SearchDocument['labels'],
  opts: {
    runId?: string;
    force?: boolean;
    test?: readonly TaskRecord[];
    /** The records the workflow was learned from (D_opt): its conformance profile is measured on them. */
    profileFrom?: readonly TaskRecord[];
    /** Records of the same process it was not learned from (D_val): the baseline new records are compared with. */
    heldOutFrom?: readonly TaskRecord[];
    /** The best workflow's own runs in the search (`storedWorkflowRuns`), the profile's second baseline. */
    workflowRuns?: (best: string) => readonly ObservedRun[];
  } = {},
): string[] {
  const best = bestWithProvenance(
    result,
    opts.runId,
    opts.profileFrom,
    opts.workflowRuns?.(result.best.id),
    opts.heldOutFrom,
  );
  const files: Array<[string, string]> = [
    ['best.workflow.json', `${JSON.stringify(best, null, 2)}\n`],
    ['best.workflow.ts', compileWorkflow(best)],
    ['best.workflow.mmd', toMermaid(best)],
    ['search.json', `${JSON.stringify(searchDocument(result, labels, opts.runId), null, 2)}\n`],
  ];
  const written = files.map(([name, text]) => {
    const file = join(dir, name);
    writeTextFile(file, text, { force: true });
    return file;
  });
  if (opts.test) {
    const file = join(dir, TEST_RECORDS_FILE);
    writeRecordsFile(file, opts.test, { force: true });
    written.push(file);
  }
  return written;
}
