import { observedRunOfTrace, type ObservedRun } from '../conformance/observed-runs.js';
import type { StoreQueries } from '../store/queries.js';

/**
 * A candidate's own runs in a stored search, as conformance reads them: its runs on D_val (else on
 * D_opt) from the traces the store keeps. They are the baseline `drift` compares the workflow's
 * served runs with (`meta.conformance.workflowRuns`): same workflow, same policy, same tools.
 */
export function storedWorkflowRuns(store: StoreQueries, runId: string, candidateId: string): ObservedRun[] {
  const rows = store.loadEvaluations(runId, candidateId);
  const split = rows.some((r) => r.split === 'val') ? 'val' : 'opt';
  const runs: ObservedRun[] = [];
  for (const row of rows) {
    if (row.split !== split) continue;
    const run = observedRunOfTrace(store.loadRecordTrace(runId, candidateId, split, row.recordId), row.recordId);
    if (run) runs.push(run);
  }
  return runs;
}
