import { createHash } from 'node:crypto';
import { z } from 'zod';
import { FlowScoutError } from '../errors/index.js';
import type { Workflow } from '../graph/schema.js';
import type { ProcessTree } from '../mining/process-tree/schema.js';
import { TreeAligner } from './aligner.js';
import { variantsOfRuns, type ObservedRun } from './observed-runs.js';
import { callHealth, scoreRuns } from './run-health.js';
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
  /**
   * How often a new run shows a tool sequence not seen: for the learning runs the share of their
   * sequences that occur once (Good–Turing); for held-out runs the share whose sequence the runs
   * the workflow was learned from never showed (measured).
   */
  unseenVariantRate: z.number().min(0).max(1),
  /** Failed calls per call. */
  failedCallRate: z.number().min(0).max(1),
  /** Withheld calls per call. */
  withheldCallRate: z.number().min(0).max(1),
  /** The mean health of the runs (run-health.ts); absent in profiles written before health was measured. */
  averageHealth: z.number().min(0).max(1).optional(),
  /** The mean health of the runs' calls alone, the alignment left out (`callHealth`): what says whether runs fail more. */
  averageCallHealth: z.number().min(0).max(1).optional(),
  /** The share of runs whose log says they failed, of those with an outcome; null when none has one (absent in older profiles). */
  failedRuns: z.number().min(0).max(1).nullable().optional(),
  /** The distinct tool sequences seen: `variantHash` of each. */
  variants: z.array(z.string().regex(/^[0-9a-f]{16}$/)),
});

/**
 * What a workflow's runs looked like when it was learned (`meta.conformance`), so that `drift` can
 * compare new runs with it. Small and text-free: figures, and the tool sequences seen as hashes (no
 * request, answer, argument or tool name).
 *
 * - `learning`: the runs it was learned from (the records' calls). They fit the workflow better
 *   than any new run of the same process can, since it was made from them;
 * - `heldOut`: runs of the same process it was NOT learned from — a search's D_val records, or for
 *   `mine` each part of its input measured against a workflow mined from the other parts — what
 *   new records and agent logs are compared with (absent in older profiles: `learning` then);
 * - `workflowRuns`: the workflow's own runs on held-out records during the search that made it,
 *   what its served runs and traces are compared with (absent for a mined G0).
 */
export const ConformanceProfileSchema = z.strictObject({
  version: z.literal(1),
  learning: BaselineSchema,
  heldOut: BaselineSchema.optional(),
  workflowRuns: BaselineSchema.optional(),
});

export type Baseline = z.infer<typeof BaselineSchema>;
/** What a workflow carries in `meta.conformance` for drift to compare new runs with (`ConformanceProfileSchema`). */
export type ConformanceProfile = z.infer<typeof ConformanceProfileSchema>;

/** The measures of a set of runs against a workflow, as the profile and `drift` share them. */
export interface RunMeasures {
  runs: number;
  averageFitness: number;
  percFitTraces: number;
  outsideRoutes: number | null;
  failedCallRate: number;
  withheldCallRate: number;
  /** The mean health of the runs (run-health.ts). */
  averageHealth: number;
  /** The mean health of the runs' calls alone: 1 / (1 + failed + withheld + repeated calls), the alignment left out. */
  averageCallHealth: number;
  /** Runs whose log says they failed, as a share of the runs with an outcome; null when none has one. */
  failedRuns: number | null;
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

/** Sums over runs, so that measures of several sets (the folds of a held-out baseline) add up. */
interface RunSums {
  runs: number;
  fitness: number;
  fitting: number;
  health: number;
  callHealth: number;
  outside: number | null;
  calls: number;
  failed: number;
  withheld: number;
  withOutcome: number;
  failedRuns: number;
}

function sumRuns(trees: WorkflowTrees, runs: readonly ObservedRun[]): RunSums {
  const scores = scoreRuns(runs, trees.tree);
  let outside: number | null = null;
  if (trees.routes.length > 0) {
    outside = 0;
    for (const v of variantsOfRuns(runs)) {
      if (trees.routes.every((r) => r.aligner.align(v.activities).cost > 0)) outside += v.count;
    }
  }
  return {
    runs: runs.length,
    fitness: scores.reduce((n, s) => n + s.fitness, 0),
    fitting: scores.filter((s) => s.fitness === 1).length,
    health: scores.reduce((n, s) => n + s.health, 0),
    callHealth: runs.reduce((n, r) => n + callHealth(r), 0),
    outside,
    calls: runs.reduce((n, r) => n + r.tools.length, 0),
    failed: runs.reduce((n, r) => n + r.failedCalls, 0),
    withheld: runs.reduce((n, r) => n + r.withheldCalls, 0),
    withOutcome: runs.filter((r) => r.outcome).length,
    failedRuns: runs.filter((r) => r.outcome?.success === false).length,
  };
}

function addSums(a: RunSums, b: RunSums): RunSums {
  return {
    runs: a.runs + b.runs,
    fitness: a.fitness + b.fitness,
    fitting: a.fitting + b.fitting,
    health: a.health + b.health,
    callHealth: a.callHealth + b.callHealth,
    outside: a.outside === null || b.outside === null ? (a.outside ?? b.outside) : a.outside + b.outside,
    calls: a.calls + b.calls,
    failed: a.failed + b.failed,
    withheld: a.withheld + b.withheld,
    withOutcome: a.withOutcome + b.withOutcome,
    failedRuns: a.failedRuns + b.failedRuns,
  };
}

function measuresOf(s: RunSums): RunMeasures {
  const share = (x: number, of: number) => (of > 0 ? x / of : 0);
  return {
    runs: s.runs,
    averageFitness: share(s.fitness, s.runs),
    percFitTraces: 100 * share(s.fitting, s.runs),
    outsideRoutes: s.outside === null ? null : share(s.outside, s.runs),
    failedCallRate: share(s.failed, s.calls),
    withheldCallRate: share(s.withheld, s.calls),
    averageHealth: share(s.health, s.runs),
    averageCallHealth: share(s.callHealth, s.runs),
    failedRuns: s.withOutcome > 0 ? s.failedRuns / s.withOutcome : null,
  };
}

/** Fitness, health, routes and call failures of `runs` against the workflow's trees. */
export function measureRuns(trees: WorkflowTrees, runs: readonly ObservedRun[]): RunMeasures {
  return measuresOf(sumRuns(trees, runs));
}

function toolsOf(runs: readonly ObservedRun[]): string[] {
  return [...new Set(runs.flatMap((r) => r.tools))];
}

function rounded(m: RunMeasures, unseenVariantRate: number, variants: Iterable<string>): Baseline {
  return {
    runs: m.runs,
    averageFitness: round(m.averageFitness),
    percFitTraces: round(m.percFitTraces),
    outsideRoutes: m.outsideRoutes === null ? null : round(m.outsideRoutes),
    unseenVariantRate: round(unseenVariantRate),
    failedCallRate: round(m.failedCallRate),
    withheldCallRate: round(m.withheldCallRate),
    averageHealth: round(m.averageHealth),
    averageCallHealth: round(m.averageCallHealth),
    failedRuns: m.failedRuns === null ? null : round(m.failedRuns),
    variants: [...new Set(variants)].sort(),
  };
}

/** The baseline of `runs` against the workflow (the sequences that occur once estimate the unseen rate). */
export function baselineOf(workflow: Workflow, runs: readonly ObservedRun[]): Baseline {
  const m = measureRuns(workflowTrees(workflow, toolsOf(runs)), runs);
  const counts = new Map<string, number>();
  for (const r of runs) {
    const h = variantHash(r.tools);
    counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  const once = [...counts.values()].filter((c) => c === 1).length;
  return rounded(m, runs.length > 0 ? once / runs.length : 0, counts.keys());
}

/** One part of a held-out baseline: runs measured against a workflow learned without them. */
export interface HeldOutPart {
  /** The workflow learned without `heldOut` (for a search: the workflow itself, learned from D_opt). */
  workflow: Workflow;
  /** The runs it was learned from (whose sequences count as seen). */
  learned: readonly ObservedRun[];
  /** The runs it was not learned from. */
  heldOut: readonly ObservedRun[];
}

/**
 * The baseline of runs the workflow was not learned from: each part's held-out runs measured
 * against the workflow learned without them, pooled; the unseen rate is the measured share of
 * held-out runs whose sequence the part's learning runs never showed. `variants` lists every
 * sequence seen in learning and held-out runs alike. Undefined when no part holds a run.
 */
export function heldOutBaseline(parts: readonly HeldOutPart[]): Baseline | undefined {
  let sums: RunSums | undefined;
  let unseen = 0;
  const variants = new Set<string>();
  for (const p of parts) {
    if (p.heldOut.length === 0) continue;
    const s = sumRuns(workflowTrees(p.workflow, toolsOf([...p.learned, ...p.heldOut])), p.heldOut);
    sums = sums ? addSums(sums, s) : s;
    const seen = new Set(p.learned.map((r) => variantHash(r.tools)));
    for (const h of seen) variants.add(h);
    for (const r of p.heldOut) {
      const h = variantHash(r.tools);
      if (!seen.has(h)) unseen++;
      variants.add(h);
    }
  }
  if (!sums) return undefined;
  return rounded(measuresOf(sums), unseen / sums.runs, variants);
}

/** What a profile is made of: the learning runs, and when known held-out runs and the workflow's own runs. */
export interface ProfileRuns {
  learning: readonly ObservedRun[];
  /** Runs of the same process the workflow was not learned from (see `heldOutBaseline`). */
  heldOut?: readonly HeldOutPart[];
  /** The workflow's own runs on held-out records. */
  workflowRuns?: readonly ObservedRun[];
}

/** The profile of the runs a workflow was learned from and, when given, of held-out runs and its own. */
export function conformanceProfile(workflow: Workflow, runs: ProfileRuns): ConformanceProfile {
  const heldOut = runs.heldOut ? heldOutBaseline(runs.heldOut) : undefined;
  return {
    version: 1,
    learning: baselineOf(workflow, runs.learning),
    ...(heldOut ? { heldOut } : {}),
    ...(runs.workflowRuns?.length ? { workflowRuns: baselineOf(workflow, runs.workflowRuns) } : {}),
  };
}

/** The workflow with its profile in `meta.conformance`. */
export function withConformanceProfile(workflow: Workflow, runs: ProfileRuns): Workflow {
  return {
    ...workflow,
    meta: { ...(workflow.meta ?? {}), conformance: conformanceProfile(workflow, runs) },
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
