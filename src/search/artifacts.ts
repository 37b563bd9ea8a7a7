import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FlowScoutError } from '../errors/index.js';
import { toMermaid } from '../graph/to-mermaid.js';
import { compileWorkflow } from '../runtime/compile.js';
import { writeTextFile } from '../util/json-file.js';
import type { SearchResult } from './run-search.js';
import type { Candidate } from './tree.js';

/**
 * The files a search leaves (issue #7, CLI): `best.workflow.json`, `best.workflow.ts` (the compiled
 * standalone module), `best.workflow.mmd` (Mermaid) and `search.json` (the best candidate's id and
 * every candidate with its parent, iteration, edit summary, scores, visits and mean reward). A
 * non-empty output folder is refused without `force`, except the run's own folder when resuming.
 */

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

/** Writes the four files into `dir`; returns their paths. */
export function writeSearchArtifacts(dir: string, result: SearchResult, labels: SearchDocument['labels'], opts: { runId?: string; force?: boolean } = {}): string[] {
  const best = result.best.workflow!;
  const files: Array<[string, string]> = [
    ['best.workflow.json', `${JSON.stringify(best, null, 2)}\n`],
    ['best.workflow.ts', compileWorkflow(best)],
    ['best.workflow.mmd', toMermaid(best)],
    ['search.json', `${JSON.stringify(searchDocument(result, labels, opts.runId), null, 2)}\n`],
  ];
  return files.map(([name, text]) => {
    const file = join(dir, name);
    writeTextFile(file, text, { force: true });
    return file;
  });
}
