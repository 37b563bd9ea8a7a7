import { isDiskFull } from '../../errors/index.js';
import { traceWithOutputsOnce } from '../../runtime/trace-file.js';
import type { ServedRun } from '../../serve/workflow-service.js';
import type { Store } from '../../store/index.js';

/**
 * `serve --db`: each answered request goes to the store with its trace (each tool output once,
 * runtime/trace-file.ts; each bounded by the run, runtime/output-bound.ts), the status its client
 * was told, and its fitness and health against the workflow, scored as it is stored
 * (serve-monitor.ts). A full disk must not
 * stop the answers, nor fill the log with a line per request: the first run that cannot be written
 * for lack of space says so once, with what to do; later ones are counted, and when writing works
 * again one line says how many were not recorded. Any other failure is thrown to the caller (the
 * service reports it per request: it is not expected to clear by itself).
 */
export function servedRunRecorder(
  store: Pick<Store, 'recordServedRun' | 'file'>,
  workflow: { name: string; hash: string },
  err: (line: string) => void,
): (run: ServedRun) => void {
  let unrecorded = 0;
  return (run) => {
    const { trace } = run;
    try {
      store.recordServedRun({
        workflow: workflow.name,
        workflowHash: workflow.hash,
        transport: run.transport,
        policyLabel: trace.policy,
        query: trace.query,
        // What the client was told: a run that served nothing is stored as an error too.
        status: run.status,
        answer: trace.answer,
        ...(run.figures ? { fitness: run.figures.fitness, health: run.figures.health } : {}),
        ...(trace.error !== undefined ? { error: trace.error } : {}),
        durationMs: trace.totals.durationMs,
        trace: traceWithOutputsOnce(trace),
      });
    } catch (e) {
      if (!isDiskFull(e)) throw e;
      if (unrecorded++ === 0)
        err(
          `the disk holding the store ${store.file} is full: served runs are not recorded until it has space again; ` +
            'requests are still answered. Free some space on that disk (or restart serve with --db on another disk); ' +
            'recording resumes by itself.',
        );
      return;
    }
    if (unrecorded > 0) {
      err(
        `recording served runs in ${store.file} again; ${unrecorded} run${unrecorded === 1 ? ' was' : 's were'} answered but not recorded while the disk was full`,
      );
      unrecorded = 0;
    }
  };
}
