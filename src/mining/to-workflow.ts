import { assertValidWorkflow } from '../graph/validate.js';
import type { Workflow } from '../graph/schema.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { TaskRecord } from '../records/schema.js';
import { retriedTools } from './retry-tools.js';
import type { EventLog } from './event-log/event-log.js';
import { formatProcessTree } from './process-tree/format.js';
import type { ProcessTree } from './process-tree/schema.js';
import { buildGraph } from './to-workflow/build-graph.js';
import {
  addRoutes,
  recordVariants,
  routeFamilies,
  type RouteFamily,
  type RouteOptions,
  type RouteVariant,
} from './to-workflow/routes.js';
import { compactSkeleton, medianCaseLength } from './to-workflow/compact.js';
import { sequenceByReads, toolReads } from './to-workflow/data-flow.js';
import { fitLog } from './to-workflow/fit-log.js';
import {
  countSteps,
  expectedSteps,
  innerSkeletons,
  treeToSkeleton,
  type Skeleton,
  type Slot,
} from './to-workflow/skeleton.js';

/** Options of `processTreeToWorkflow`. */
export interface ToWorkflowOptions {
  /** The tools T; descriptions become the tasks of the steps. */
  tools: readonly ToolDescriptor[];
  /** Workflow name. */
  name: string;
  domain?: string;
  /**
   * The log the tree was mined from: supports (how often a step runs) and the target number of
   * steps (the median case length) then come from the data instead of the tree alone.
   */
  log?: EventLog;
  /** Target number of steps; default: the log's median case length, else the tree's expected length. */
  positions?: number;
  /**
   * A step (or parallel block) reached by at most this share of the runs is optional (a judge
   * decides whether it runs). Default 0.5: a step that at most half the runs make is optional, so
   * `X( tau, 'b' )` is optional and the steps most runs make are not.
   */
  optionalAtMost?: number;
  /**
   * How an optional step is kept. `open` (default): an ungated step with `calls: 'many'`,
   * which makes no call when the plan-to-step hand-off gives it no part of the request; `judge`:
   * behind a judge that decides whether it runs.
   */
  optional?: 'judge' | 'open';
  /** Tools whose repetitions were retries after errors: a repeated step of only that tool gets `retry`. */
  retryTools?: Iterable<string>;
  /**
   * A choice between step sequences stays a branch while the skeleton has at most this many times
   * `positions` steps in all (default 2); past that the cheapest choices are merged into
   * steps that pick their tool (to-workflow/compact.ts).
   */
  branchPositions?: number;
  /**
   * Keep the tree's choices between step sequences as branches (`choice` slots → a judge with
   * structured `choices`; docs/DESIGN.md, "Mining": branches). Default true; false merges every
   * choice's options step by step into steps that pick their tool.
   */
  branches?: boolean;
  /**
   * Per tool, the tools whose outputs its arguments came from in the runs (`toolReads`): a parallel
   * block one of whose branches reads another becomes a sequence, readers last (to-workflow/data-flow.ts).
   */
  reads?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The noise threshold the tree was mined with (kept in `meta`). */
  noiseThreshold?: number;
  /**
   * The log's recurring variants with their requests (`recordVariants`): G0 then routes a request
   * like a variant's past requests to a branch of that variant's tools, and the rest to the mined
   * skeleton (to-workflow/routes.ts). Needs the requests, so only records give it (not XES or CSV).
   * Fewer than two variants give no router (there is nothing to choose).
   */
  routes?: readonly RouteVariant[];
  /** Limits on the routes (count, runs a route needs, keywords per route). */
  routeOptions?: RouteOptions;
  /** At most this many nodes with the routes (default 40): routes that would pass it are left out, the most runs kept first. */
  maxNodes?: number;
}

/**
 * The initial workflow G0 (docs/DESIGN.md, "Mining": process tree → G0, and the abstraction to steps):
 * the tree becomes a skeleton of generic steps (`to-workflow/skeleton.ts`, alternatives merged
 * step by step in `align.ts`), the skeleton is compacted to the typical chain length
 * (`compact.ts`), and the skeleton becomes nodes and edges between a `plan` and a `synthesize` node
 * (`build-graph.ts`). The mined tree string, noise threshold and variant counts go into `meta`.
 * The result passes `validateWorkflow(g0, tools)` (asserted here, so a bug cannot leak out).
 */
export function processTreeToWorkflow(tree: ProcessTree, opts: ToWorkflowOptions): Workflow {
  // The skeleton with the tree's choices between step sequences kept as choices, as far as they fit;
  // when none is left after compaction, the skeleton with every choice merged from the start (the
  // alignment then sees the alternatives' own order, not a compacted one).
  const shapeOf = (choices: boolean) => {
    let shape: Skeleton = treeToSkeleton(tree, { choices });
    if (opts.log) shape = fitLog(shape, opts.log);
    const target = opts.positions ?? (opts.log ? medianCaseLength(opts.log) : Math.round(expectedSteps(shape)));
    const before = countSteps(shape);
    shape = compactSkeleton(shape, Math.max(1, target), (opts.branchPositions ?? 2) * Math.max(1, target));
    if (opts.reads) shape = sequenceByReads(shape, opts.reads);
    if (opts.log) shape = fitLog(shape, opts.log);
    return { shape, target, before };
  };
  const branches = opts.branches ?? true;
  let fitted = shapeOf(branches);
  if (branches && !fitted.shape.some(hasChoice)) fitted = shapeOf(false);
  const { shape, target, before } = fitted;
  const descriptors = new Map(opts.tools.map((t) => [t.name, t]));
  const built = buildGraph(shape, {
    descriptors,
    optionalAtMost: opts.optionalAtMost ?? 0.5,
    retryTools: new Set(opts.retryTools ?? []),
    optional: opts.optional ?? 'open',
  });
  const support = built.support;
  // One variant is no choice: a router would only add a model request per query.
  // The routes that fit G0's node budget (`maxNodes`, default 40: a G0 stays small enough to read), most runs first.
  const routes: RouteFamily[] = [];
  let size = built.nodes.length + 1;
  for (const f of (opts.routes ?? []).length >= 2 ? routeFamilies(opts.routes!, opts.routeOptions) : []) {
    const steps = f.steps?.length ?? f.tools.length;
    if (size + steps > (opts.maxNodes ?? 40)) continue;
    routes.push(f);
    size += steps;
  }
  const { nodes, edges } = routes.length > 0 ? addRoutes(built, routes, descriptors, opts.routeOptions) : built;
  const meta: Record<string, unknown> = {
    generatedBy: 'flowscout mine',
    processTree: formatProcessTree(tree),
    miner: (opts.noiseThreshold ?? 0) > 0 ? 'IMf' : 'IM',
    noiseThreshold: opts.noiseThreshold ?? 0,
    positions: { aligned: before, target, kept: countSteps(shape) },
    /** Share of the flow reaching each step (relative to its enclosing parallel block). */
    positionSupport: support,
  };
  if (routes.length > 0)
    meta.routes = routes.map((r) => ({ tools: r.tools, runs: r.requests.length, variants: r.variants }));
  if (opts.domain) meta.domain = opts.domain;
  if (opts.log) {
    meta.cases = opts.log.caseIds.length;
    meta.variantCounts = opts.log.variants.map((v) => v.count);
  }
  const workflow: Workflow = {
    version: 1,
    name: opts.name,
    description: `Initial workflow mined from ${opts.log ? `${opts.log.caseIds.length} past runs` : 'a process tree'}${opts.domain ? ` of the ${opts.domain} domain` : ''}: ${routes.length > 0 ? `a router over ${routes.length} recurring request types, and for other requests ` : ''}${countSteps(shape)} tool positions between a plan and a synthesis step.`,
    nodes,
    edges,
    meta,
  };
  return assertValidWorkflow(workflow, opts.tools, 'G0');
}

/** True when a slot is, or holds, a choice. */
function hasChoice(slot: Slot): boolean {
  return slot.kind === 'choice' || innerSkeletons(slot).some((s) => s.some(hasChoice));
}

/**
 * What records add to `processTreeToWorkflow` beyond their event log: the tools whose repeats were
 * retries, which tool reads which (data flow), and — unless `routes` is false — the recurring
 * variants a router chooses among. `mine` and the search's G0 both take them from here.
 */
export function recordOptions(
  records: readonly TaskRecord[],
  tools: readonly ToolDescriptor[],
  opts: { routes?: boolean } = {},
): Pick<ToWorkflowOptions, 'retryTools' | 'reads' | 'routes'> {
  return {
    retryTools: retriedTools(records),
    reads: toolReads(records),
    ...(opts.routes === false ? {} : { routes: recordVariants(records, new Map(tools.map((t) => [t.name, t]))) }),
  };
}
