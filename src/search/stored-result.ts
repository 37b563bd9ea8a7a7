import { FlowScoutError } from '../errors/index.js';
import type { Store } from '../store/open-store.js';
import type { SearchDocument } from './artifacts.js';
import type { SearchResult } from './run-search.js';
import type { IterationRow } from './search-context.js';
import { SearchTree } from './tree.js';

/**
 * A stored run as a search result, to write its artifacts again (`flowscout runs show <id> --write
 * <dir>`): the tree rebuilt from its candidates, the best D_val candidate, its iterations and, once
 * it ended, its test scores. Works for a run that is unfinished, stopped or failed: its best so far.
 */
export function storedSearchResult(
  store: Store,
  runId: string,
): { result: SearchResult; labels: SearchDocument['labels'] } {
  const run = store.getRun(runId);
  const tree = SearchTree.fromRows(store.loadCandidates(runId));
  if (tree.size === 0) {
    throw new FlowScoutError({
      code: 'NOT_FOUND',
      message: `run '${runId}' has no scored candidate yet (it stopped before G0 was evaluated)`,
      hint: 'There is nothing to write; resume it or start a new search.',
    });
  }
  const stored = run.result as { test?: SearchResult['test']; testSkipped?: string } | undefined;
  const result: SearchResult = {
    tree,
    root: tree.root,
    best: tree.best(),
    stopKind: 'none',
    stopReason: run.stopReason ?? `${run.status} after iteration ${run.iterationsDone}`,
    iterations: store.loadIterations(runId).map((r) => r.data as unknown as IterationRow),
    usage: run.usage ?? {},
    ...(stored?.test ? { test: stored.test } : {}),
    ...(stored?.testSkipped ? { testSkipped: stored.testSkipped } : {}),
  };
  return { result, labels: { policy: run.policyLabel, judge: run.judgeLabel, optimizer: run.optimizerLabel } };
}
