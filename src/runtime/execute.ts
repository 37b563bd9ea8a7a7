import type { Workflow } from '../graph/schema.js';
import { isPreparedWorkflow, prepareWorkflow, type PreparedWorkflow } from '../graph/prepare.js';
import { decideNode } from './frontier.js';
import { startRun, type NodeResult, type RunInput, type RunOptions } from './run-state.js';
import type { Trace } from './trace.js';

/**
 * The interpreter (docs/DESIGN.md, "Execution"): runs a workflow on one query over real tools and returns
 * its trace — per-node observations, π̂ and r̂. Every node becomes one task that waits for the
 * sources of all its in-edges, then runs (some in-edge live: an OR-join) or is skipped (none live:
 * dead-path elimination). Tasks are created in topological order and only the concurrency bound
 * limits how many run at once, so unguarded fan-out runs in parallel and a join runs once.
 *
 * Takes a prepared workflow (`prepareWorkflow`: validated once, e.g. once per evaluation) or
 * workflow JSON, which is validated here. Throws INVALID_WORKFLOW for an invalid workflow. Everything that goes wrong while running is
 * recorded in the trace instead (see run-state.ts and trace-build.ts for the failure semantics),
 * except an exhausted budget: when a policy throws BUDGET_EXHAUSTED the rest of the run is cancelled
 * and `executeWorkflow` rejects with that error (a `BudgetExceededError`; run-state.ts, `startRun`).
 */
export async function executeWorkflow(
  workflow: Workflow | PreparedWorkflow,
  input: RunInput,
  opts: RunOptions,
): Promise<Trace> {
  const p = validatedOnce(workflow);
  const { adjacency: adj, order, position } = p;
  const run = startRun(p, input, { ...opts, workflowHash: p.hash });
  const tasks = new Map<string, Promise<NodeResult>>();
  for (const id of order) {
    const inEdges = [...adj.in.get(id)!].sort((a, b) => position.get(a.from)! - position.get(b.from)!);
    tasks.set(
      id,
      (async () => {
        const sources = new Map<string, NodeResult>();
        for (const e of inEdges) sources.set(e.from, await tasks.get(e.from)!);
        const decision = decideNode(inEdges, (src) => sources.get(src)!);
        return decision.run ? run.runNode(id, decision.dataSources) : run.skipNode(id);
      })(),
    );
  }
  await Promise.all(tasks.values());
  return run.finish();
}

/**
 * Workflow JSON validated and prepared once per object and content: `serve` and an evaluation run
 * the same object for every request, and validating and hashing a workflow of a few hundred nodes
 * costs more than running one of its nodes. The object's JSON is compared on every run, so a
 * workflow changed in place is validated again.
 */
const validated = new WeakMap<object, { json: string; prepared: PreparedWorkflow }>();

function validatedOnce(workflow: Workflow | PreparedWorkflow): PreparedWorkflow {
  if (isPreparedWorkflow(workflow) || typeof workflow !== 'object' || workflow === null)
    return prepareWorkflow(workflow);
  let json: string;
  try {
    json = JSON.stringify(workflow);
  } catch {
    return prepareWorkflow(workflow);
  }
  const hit = validated.get(workflow);
  if (hit?.json === json) return hit.prepared;
  const prepared = prepareWorkflow(workflow);
  validated.set(workflow, { json, prepared });
  return prepared;
}
