import { setMaxListeners } from 'node:events';
import type { FlowScoutError } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import type { ExecutionPolicy, LlmNodeRequest, ToolPlanRequest } from '../policies/types.js';
import { isBudgetExhausted } from './node-step.js';
import { startRun as startRunState, type RunInput, type RunOptions, type WorkflowRun } from './run-state.js';

/**
 * The run object `executeWorkflow` and compiled modules drive: run-state.ts's run plus the rule that
 * a budget stops a run (DESIGN.md, "budgets … stop a run cleanly"). Every other failure of a node is
 * recorded in the trace and the run goes on; an exhausted budget would only make every later model
 * request fail the same way, so the first BUDGET_EXHAUSTED error a policy throws
 *
 * 1. cancels the rest of the run (running nodes stop promptly, waiting ones are skipped), and
 * 2. is thrown by `finish()` in place of the trace, so `executeWorkflow` (and a compiled module's
 *    `run`) rejects with it — the `BudgetExceededError` of `src/llm/budget.ts`, code BUDGET_EXHAUSTED.
 *
 * The caller's own signal keeps its meaning: cancelling still returns a trace ending in `cancelled`.
 */
export function startRun(workflow: Workflow, input: RunInput, opts: RunOptions): WorkflowRun {
  const stop = new AbortController();
  let exhausted: FlowScoutError | undefined;
  const watch = <T>(pending: Promise<T>): Promise<T> =>
    pending.catch((e: unknown) => {
      if (isBudgetExhausted(e) && !exhausted) {
        exhausted = e;
        stop.abort(e);
      }
      throw e;
    });
  const inner = opts.policy;
  // The policy as it is (identity, label, memo scope, any other member) but for its two decisions, watched.
  const policy: ExecutionPolicy = Object.create(inner, {
    runLlmNode: { value: (req: LlmNodeRequest) => watch(inner.runLlmNode(req)) },
    planToolCalls: { value: (req: ToolPlanRequest) => watch(inner.planToolCalls(req)) },
  });
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  // Every node waiting for a concurrency slot, and every tool call in flight, listens to this signal
  // (and removes its listener when done): a wide fan-out legitimately has more than Node's default
  // of 10, which would print a spurious "possible memory leak" warning.
  setMaxListeners(0, signal);
  const run = startRunState(workflow, input, { ...opts, policy, signal });
  return {
    workflow: run.workflow,
    runNode: run.runNode,
    skipNode: run.skipNode,
    finish() {
      const trace = run.finish();
      if (exhausted) throw exhausted;
      return trace;
    },
  };
}
