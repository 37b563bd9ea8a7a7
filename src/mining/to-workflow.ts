import { assertValidWorkflow } from '../graph/validate.js';
import type { Workflow } from '../graph/schema.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { EventLog } from './event-log/event-log.js';
import { formatProcessTree } from './process-tree/format.js';
import type { ProcessTree } from './process-tree/schema.js';
import { buildGraph } from './to-workflow/build-graph.js';
import { compactShape, medianCaseLength } from './to-workflow/compact.js';
import { fitLog } from './to-workflow/fit-log.js';
import { countPositions, expectedPositions, treeToShape, type Shape } from './to-workflow/shape.js';

/** Options of `processTreeToWorkflow`. */
export interface ToWorkflowOptions {
  /** The tools T; descriptions become the tasks of the positions. */
  tools: readonly ToolDescriptor[];
  /** Workflow name. */
  name: string;
  domain?: string;
  /**
   * The log the tree was mined from: supports (how often a position runs) and the target number of
   * positions (the median case length) then come from the data instead of the tree alone.
   */
  log?: EventLog;
  /** Target number of tool positions; default: the log's median case length, else the tree's expected length. */
  positions?: number;
  /**
   * A position (or parallel block) reached by at most this share of the runs is optional (a judge
   * decides whether it runs). Default 0.5: a step that at most half the runs make is optional, so
   * `X( tau, 'b' )` is optional and the steps most runs make are not.
   */
  optionalAtMost?: number;
  /** Tools whose repetitions were retries after errors: a repeated position of only that tool gets `retry`. */
  retryTools?: Iterable<string>;
  /** The noise threshold the tree was mined with (kept in `meta`). */
  noiseThreshold?: number;
}

/**
 * The initial workflow G0 (docs/DESIGN.md, "Mining": process tree → G0, and the abstraction to positions):
 * the tree becomes a shape of generic tool positions (`to-workflow/shape.ts`, alternatives merged
 * position by position in `align.ts`), the shape is compacted to the typical chain length
 * (`compact.ts`), and the shape becomes nodes and edges between a `plan` and a `synthesize` node
 * (`build-graph.ts`). The mined tree string, noise threshold and variant counts go into `meta`.
 * The result passes `validateWorkflow(g0, tools)` (asserted here, so a bug cannot leak out).
 */
export function processTreeToWorkflow(tree: ProcessTree, opts: ToWorkflowOptions): Workflow {
  let shape: Shape = treeToShape(tree);
  if (opts.log) shape = fitLog(shape, opts.log);
  const target = opts.positions ?? (opts.log ? medianCaseLength(opts.log) : Math.round(expectedPositions(shape)));
  const before = countPositions(shape);
  shape = compactShape(shape, Math.max(1, target));
  if (opts.log) shape = fitLog(shape, opts.log);
  const descriptors = new Map(opts.tools.map((t) => [t.name, t]));
  const { nodes, edges, support } = buildGraph(shape, {
    descriptors,
    optionalAtMost: opts.optionalAtMost ?? 0.5,
    retryTools: new Set(opts.retryTools ?? []),
  });
  const meta: Record<string, unknown> = {
    generatedBy: 'flowscout mine',
    processTree: formatProcessTree(tree),
    miner: (opts.noiseThreshold ?? 0) > 0 ? 'IMf' : 'IM',
    noiseThreshold: opts.noiseThreshold ?? 0,
    positions: { aligned: before, target, kept: countPositions(shape) },
    /** Share of the flow reaching each tool position (relative to its enclosing parallel block). */
    positionSupport: support,
  };
  if (opts.domain) meta.domain = opts.domain;
  if (opts.log) {
    meta.cases = opts.log.caseIds.length;
    meta.variantCounts = opts.log.variants.map((v) => v.count);
  }
  const workflow: Workflow = {
    version: 1,
    name: opts.name,
    description: `Initial workflow mined from ${opts.log ? `${opts.log.caseIds.length} past runs` : 'a process tree'}${opts.domain ? ` of the ${opts.domain} domain` : ''}: ${countPositions(shape)} tool positions between a plan and a synthesis step.`,
    nodes,
    edges,
    meta,
  };
  return assertValidWorkflow(workflow, opts.tools, 'G0');
}
