import { createHash } from 'node:crypto';
import { z } from 'zod';
import { FlowScoutError } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import type { ProcessTree } from '../mining/process-tree/schema.js';
import { alignTraces } from './align-log.js';
import { TreeAligner } from './aligner.js';
import { variantsOfRuns, type ObservedRun } from './observed-runs.js';
import { workflowProcessTree, workflowRoutes } from './workflow-tree.js';

/** The measures of one set of runs against the workflow, as a baseline for `drift`. */
export const BaselineSchema = z.strictObject({
  /** How many runs it was measured on. */
  runs: z.number().int().min(0),
  /** PM4Py's `averageFitness` of those runs against the workflow's own process tree. */
  averageFitness: z.number().min(0).max(1),
  /** PM4Py's `percFitTraces` (0–100). */
  percFitTraces: z.number().min(0).max(100),
  /** Share of runs that fit none of the workflow's routes exactly; null for a workflow without routes. */
  outsideRoutes: z.number().min(0).max(1).nullable(),
  /** Share of runs whose tool sequence occurs once (Good–Turing: how often a new run shows a sequence not seen). */
  unseenVariantRate: z.number().min(0).max(1),
  /** Failed calls per call. */
  failedCallRate: z.number().min(0).max(1),
  /** Withheld calls per call. */
  withheldCallRate: z.number().min(0).max(1),
  /** The distinct tool sequences seen: `variantHash` of each. */
  variants: z.array(z.string().regex(/^[0-9a-f]{16}$/)),
});

/**
 * What a workflow's runs looked like when it was learned (`meta.conformance`), so that `drift` can
 * compare new runs with it. Small and text-free: figures, and the tool sequences seen as hashes (no
 * request, answer, argument or tool name).
 *
 * - `learning`: the runs it was learned from (the records' calls), what new records and agent logs
 *   are compared with;
 * - `workflowRuns`: the workflow's own runs on held-out records during the search that made it,
 *   what its served runs and traces are compared with (absent for a mined G0).
 */
export const ConformanceProfileSchema = z.strictObject({
  version: z.literal(1),
  learning: BaselineSchema,
  workflowRuns: BaselineSchema.optional(),
});

export type Baseline = z.infer<typeof BaselineSchema>;
export type ConformanceProfile = z.infer<typeof ConformanceProfileSchema>;

/** The measures of a set of runs against a workflow, as the profile and `drift` share them. */
export interface RunMeasures {
  runs: number;
  averageFitness: number;
  percFitTraces: number;
  outsideRoutes: number | null;
  failedCallRate: number;
  withheldCallRate: number;
}

/** A tool sequence's hash: the first 16 hex digits of SHA-256 over the names joined by NUL. */
export function variantHash(tools: readonly string[]): string {
  return createHash('sha256').update(tools.join('\u0000')).digest('hex').slice(0, 16);
}

/** The trees runs are measured against: the workflow's, and one per route. */
export interface WorkflowTrees {
  tree: ProcessTree;
  routes: { route: string; aligner: TreeAligner }[];
}

/** The workflow's trees; tool nodes that name no tools accept any of `anyTool`. */
export function workflowTrees(workflow: Workflow, anyTool: readonly string[]): WorkflowTrees {
  return {
    tree: workflowProcessTree(workflow, { anyTool }),
    routes: workflowRoutes(workflow).map((route) => ({
      route,
      aligner: new TreeAligner(workflowProcessTree(workflow, { anyTool, route })),
    })),
  };
}

/** Fitness, routes and call failures of `runs` against the workflow's trees. */
export function measureRuns(trees: WorkflowTrees, runs: readonly ObservedRun[]): RunMeasures {
  const variants = variantsOfRuns(runs);
  const fit = alignTraces(variants, trees.tree);
  let outside: number | null = null;
  if (trees.routes.length > 0) {
    let n = 0;
    for (const v of variants) {
      if (trees.routes.every((r) => r.aligner.align(v.activities).cost > 0)) n += v.count;
    }
    outside = runs.length > 0 ? n / runs.length : 0;
  }
  const calls = runs.reduce((n, r) => n + r.tools.length, 0);
  const failed = runs.reduce((n, r) => n + r.failedCalls, 0);
  const withheld = runs.reduce((n, r) => n + r.withheldCalls, 0);
  return {
    runs: runs.length,
    averageFitness: fit.averageFitness,
    percFitTraces: fit.percFitTraces,
    outsideRoutes: outside,
    failedCallRate: calls > 0 ? failed / calls : 0,
    withheldCallRate: calls > 0 ? withheld / calls : 0,
  };
}

/** The baseline of `runs` against the workflow. */
export function baselineOf(workflow: Workflow, runs: readonly ObservedRun[]): Baseline {
  const anyTool = [...new Set(runs.flatMap((r) => r.tools))];
  const m = measureRuns(workflowTrees(workflow, anyTool), runs);
  const counts = new Map<string, number>();
  for (const r of runs) {
    const h = variantHash(r.tools);
    counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  const once = [...counts.values()].filter((c) => c === 1).length;
  return {
    runs: m.runs,
    averageFitness: round(m.averageFitness),
    percFitTraces: round(m.percFitTraces),
    outsideRoutes: m.outsideRoutes === null ? null : round(m.outsideRoutes),
    unseenVariantRate: runs.length > 0 ? round(once / runs.length) : 0,
    failedCallRate: round(m.failedCallRate),
    withheldCallRate: round(m.withheldCallRate),
    variants: [...counts.keys()].sort(),
  };
}

/** The profile of the runs a workflow was learned from and, when given, of its own runs. */
export function conformanceProfile(
  workflow: Workflow,
  learning: readonly ObservedRun[],
  workflowRuns?: readonly ObservedRun[],
): ConformanceProfile {
  return {
    version: 1,
    learning: baselineOf(workflow, learning),
    ...(workflowRuns?.length ? { workflowRuns: baselineOf(workflow, workflowRuns) } : {}),
  };
}

/** The workflow with its profile in `meta.conformance`. */
export function withConformanceProfile(
  workflow: Workflow,
  learning: readonly ObservedRun[],
  workflowRuns?: readonly ObservedRun[],
): Workflow {
  return {
    ...workflow,
    meta: { ...(workflow.meta ?? {}), conformance: conformanceProfile(workflow, learning, workflowRuns) },
  };
}

/** The workflow's profile, if it has one; INVALID_WORKFLOW naming the JSON path when it is malformed. */
export function readConformanceProfile(workflow: Workflow, file?: string): ConformanceProfile | undefined {
  const raw = workflow.meta?.conformance;
  if (raw === undefined) return undefined;
  const parsed = ConformanceProfileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = `$.meta.conformance${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}`;
  throw new FlowScoutError({
    code: 'INVALID_WORKFLOW',
    message: `${file ? `${file}: ` : ''}${path}: ${issue.message}`,
    hint: 'meta.conformance is the profile a search or `flowscout mine --format workflow` writes; delete it and drift falls back to fixed thresholds.',
    location: { ...(file ? { file } : {}), path },
  });
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
