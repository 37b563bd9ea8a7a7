import { alignTraces } from '../../conformance/align-log.js';
import { detectDrift } from '../../conformance/drift.js';
import { observedRunOfTrace, variantsOfRuns, type ObservedRun } from '../../conformance/observed-runs.js';
import { readConformanceProfile, workflowTrees } from '../../conformance/profile.js';
import { scoreRuns } from '../../conformance/run-health.js';
import { FlowScoutError } from '../../errors/index.js';
import { workflowHash } from '../../graph/hash.js';
import type { Workflow } from '../../graph/schema.js';
import { formatProcessTree } from '../../mining/process-tree/format.js';
import type { Store } from '../../store/index.js';

/**
 * The served-workflow pages of the UI: for each workflow `serve --db` stored runs of, the fitness and
 * the health of every run over time (as `serve` scored it when it stored the run; a run stored
 * before runs were scored is scored here the same way: conformance/run-health.ts), the deviating
 * variants with their alignments, and the drift verdict (runs the workflow made, so compared with its own runs in the
 * search when its profile has them). The workflow itself comes from a file given to `flowscout ui
 * --workflow`, or from a search candidate of the same store with the same hash.
 */

/** Served runs read per workflow (the most recent). */
const MAX_RUNS = 5000;
/** Deviating variants shown, most frequent first. */
const MAX_VARIANTS = 30;

export interface ServedWorkflowSummary {
  hash: string;
  name: string;
  runs: number;
  firstAt: string;
  lastAt: string;
  /** Where the UI found the workflow: a `--workflow` file, a search candidate, or nowhere. */
  source: 'file' | 'search' | null;
}

/** Every workflow with served runs (and every `--workflow` file), most recently served first. */
export function servedWorkflows(store: Store, files: readonly Workflow[]): ServedWorkflowSummary[] {
  const byHash = new Map<string, ServedWorkflowSummary>();
  for (const row of store.listServedRuns({ limit: 100_000 })) {
    const hash = row.workflowHash ?? '';
    const s = byHash.get(hash);
    if (s) {
      s.runs++;
      s.firstAt = row.createdAt;
    } else
      byHash.set(hash, {
        hash,
        name: row.workflow,
        runs: 1,
        firstAt: row.createdAt,
        lastAt: row.createdAt,
        source: null,
      });
  }
  for (const w of files) {
    const hash = workflowHash(w);
    if (!byHash.has(hash)) byHash.set(hash, { hash, name: w.name, runs: 0, firstAt: '', lastAt: '', source: 'file' });
  }
  const fileHashes = new Set(files.map(workflowHash));
  const candidates = candidateHashes(store);
  for (const s of byHash.values())
    s.source = fileHashes.has(s.hash) ? 'file' : candidates.has(s.hash) ? 'search' : null;
  return [...byHash.values()].sort((a, b) => b.lastAt.localeCompare(a.lastAt));
}

/** One workflow's page: its runs' fitness over time, deviating variants with their alignments, the drift verdict. */
export function workflowView(store: Store, hash: string, files: readonly Workflow[]) {
  const found = findWorkflow(store, hash, files);
  const rows = store.listServedRuns({ workflowHash: hash, limit: MAX_RUNS }).reverse();
  const runs: ObservedRun[] = [];
  const stored = new Map<string, { fitness?: number; health?: number; status: 'ok' | 'error' }>();
  for (const row of rows) {
    const run = observedRunOfTrace(row.trace, String(row.id), row.createdAt);
    if (!run) continue;
    runs.push(run);
    stored.set(run.id, {
      status: row.status,
      ...(row.fitness !== undefined ? { fitness: row.fitness } : {}),
      ...(row.health !== undefined ? { health: row.health } : {}),
    });
  }
  const anyTool = [...new Set(runs.flatMap((r) => r.tools))];
  const trees = workflowTrees(found.workflow, anyTool);
  const result = alignTraces(variantsOfRuns(runs), trees.tree);
  const byKey = new Map(result.variants.map((v) => [JSON.stringify(v.activities), v]));
  const scores = scoreRuns(runs, trees.tree);
  const profile = readConformanceProfile(found.workflow);
  const drift = detectDrift(found.workflow, profile, runs, { madeByWorkflow: true, runsKind: 'other' });
  return {
    hash,
    name: found.workflow.name,
    source: found.source,
    tree: formatProcessTree(trees.tree),
    cheapestRun: result.cheapestRun,
    percFitTraces: result.percFitTraces,
    averageFitness: result.averageFitness,
    averageHealth: scores.length
      ? scores.reduce((n, x) => n + (stored.get(x.id)?.health ?? x.health), 0) / scores.length
      : 0,
    runs: runs.map((r, i) => {
      const v = byKey.get(JSON.stringify(r.tools))!;
      const kept = stored.get(r.id)!;
      return {
        id: r.id,
        at: r.at ?? '',
        status: kept.status,
        fitness: kept.fitness ?? v.fitness,
        health: kept.health ?? scores[i]!.health,
        cost: v.cost,
        calls: r.tools.length,
        failedCalls: r.failedCalls,
        withheldCalls: r.withheldCalls,
        repeatedCalls: r.repeatedCalls,
      };
    }),
    variants: result.variants.length,
    deviating: result.variants
      .filter((v) => v.cost > 0)
      .sort((a, b) => b.count - a.count || b.cost - a.cost)
      .slice(0, MAX_VARIANTS)
      .map((v) => ({ activities: v.activities, count: v.count, cost: v.cost, fitness: v.fitness, moves: v.moves })),
    drift: {
      drift: drift.drift,
      processChanged: drift.processChanged,
      runsFailMore: drift.runsFailMore,
      reasons: drift.reasons,
      next: drift.next,
      measures: drift.measures,
      comparedWith: drift.comparedWith,
      baselineRuns: drift.baseline?.runs ?? null,
      baselineFitness: drift.baseline?.averageFitness ?? null,
    },
  };
}

function findWorkflow(
  store: Store,
  hash: string,
  files: readonly Workflow[],
): { workflow: Workflow; source: 'file' | 'search' } {
  const file = files.find((w) => workflowHash(w) === hash);
  if (file) return { workflow: file, source: 'file' };
  for (const run of store.listRuns()) {
    const c = store.loadCandidates(run.id).find((x) => x.hash === hash && x.workflow);
    if (c) return { workflow: c.workflow as Workflow, source: 'search' };
  }
  throw new FlowScoutError({
    code: 'NOT_FOUND',
    message: `the store has no workflow with hash ${hash.slice(0, 12)}: it keeps the runs serve answered, not the workflow`,
    hint: 'Start the UI with the workflow file that was served: flowscout ui --workflow <workflow.json>.',
  });
}

function candidateHashes(store: Store): Set<string> {
  const out = new Set<string>();
  for (const run of store.listRuns()) for (const c of store.loadCandidates(run.id)) if (c.hash) out.add(c.hash);
  return out;
}

export type WorkflowView = ReturnType<typeof workflowView>;
