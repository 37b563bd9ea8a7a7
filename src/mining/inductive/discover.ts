import { FlowScoutError } from '../../errors/index.js';
import type { EventLog } from '../event-log/event-log.js';
import { foldProcessTree } from '../process-tree/fold.js';
import type { ProcessTree, ProcessTreeOperatorNode } from '../process-tree/schema.js';
import { sortProcessTree } from '../process-tree/sort.js';
import { comparePython } from '../python-order.js';
import { BASE_CASES } from './base-cases/index.js';
import { findCut } from './cuts/index.js';
import { computeDfg, filterDfg } from './dfg.js';
import { FALL_THROUGHS } from './fall-throughs/index.js';
import { withoutEmptyTraces } from './fall-throughs/empty-traces.js';
import { caseCount, emptySubLog, type MiningContext, type SubLog } from './sublog.js';
import type { StepResult } from './types.js';

/** Options of `discoverProcessTree`. */
export interface DiscoverOptions {
  /**
   * 0 (default) runs the inductive miner IM; a value in (0, 1] runs IMf with that noise threshold
   * (PM4Py: "IMf if noise_threshold > 0, else IM"; docs/DESIGN.md, "Matching PM4Py" §0).
   */
  noiseThreshold?: number;
}

/**
 * Discovers a process tree from an event log with the inductive miner (Leemans et al.: IM, and IMf
 * for infrequent behaviour), reproducing PM4Py 2.7.11's behaviour so that
 * `formatProcessTree(discoverProcessTree(log))` equals PM4Py's `str(tree)` (docs/DESIGN.md, "Matching PM4Py" §0–§6):
 * each step runs empty traces → base cases → cuts (XOR, strict sequence, concurrency, loop) →
 * [IMf: cuts on the filtered DFG] → fall-throughs, then the tree is folded and sorted.
 *
 * The recursion runs on an explicit work stack, so a log with tens of thousands of variants cannot
 * overflow the call stack; it works on variants with counts, never on expanded traces.
 */
export function discoverProcessTree(log: EventLog, opts: DiscoverOptions = {}): ProcessTree {
  const noise = opts.noiseThreshold ?? 0;
  if (!(noise >= 0 && noise <= 1)) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `noise threshold must be between 0 and 1, got ${noise}`,
      hint: 'Use 0 for IM, or e.g. 0.2 for IMf.',
    });
  }
  const ctx: MiningContext = { names: log.activities, rank: activityRanks(log.activities) };
  const root: SubLog = { traces: log.variants.map((v) => v.trace), counts: log.variants.map((v) => v.count) };
  return sortProcessTree(foldProcessTree(mineRaw(root, ctx, noise)));
}

/** Python-order rank of every activity id. */
function activityRanks(names: readonly string[]): Int32Array {
  const ids = names.map((_, i) => i);
  ids.sort((a, b) => comparePython(names[a]!, names[b]!));
  const rank = new Int32Array(names.length);
  ids.forEach((id, r) => (rank[id] = r));
  return rank;
}

interface Task {
  log: SubLog;
  parent: ProcessTreeOperatorNode | null;
  slot: number;
}

/** The unfolded, unsorted tree: PM4Py's recursion, as a loop over a work stack. */
export function mineRaw(log: SubLog, ctx: MiningContext, noise: number): ProcessTree {
  let result: ProcessTree | null = null;
  const stack: Task[] = [{ log, parent: null, slot: 0 }];
  while (stack.length > 0) {
    const task = stack.pop()!;
    const step = mineStep(task.log, ctx, noise);
    let node: ProcessTree;
    if (step.kind === 'leaf') {
      node = step.tree;
    } else {
      const op: ProcessTreeOperatorNode = { op: step.operator, children: new Array(step.children.length) };
      node = op;
      for (let i = step.children.length - 1; i >= 0; i--) stack.push({ log: step.children[i]!, parent: op, slot: i });
    }
    if (task.parent) task.parent.children[task.slot] = node;
    else result = node;
  }
  return result!;
}

/** One recursion step of IM / IMf (docs/DESIGN.md, "Matching PM4Py" §1, §4). */
export function mineStep(input: SubLog, ctx: MiningContext, noise: number): StepResult {
  let log = input;
  // 1. Empty traces, before the base cases. IMf drops them when they are at most noise·|L|.
  const { empty, rest } = withoutEmptyTraces(log);
  if (empty > 0) {
    if (rest.traces.length === 0) return { kind: 'leaf', tree: { tau: true } };
    if (noise === 0 || empty > noise * caseCount(log)) {
      return { kind: 'split', operator: 'xor', children: [emptySubLog(), rest] };
    }
    log = rest;
  }
  // 2. Base cases.
  for (const base of BASE_CASES) {
    const tree = base.apply(log, ctx);
    if (tree) return { kind: 'leaf', tree };
  }
  // 3. Cuts on the DFG of the log.
  const dfg = computeDfg(log, ctx);
  const found = findCut(dfg);
  if (found)
    return { kind: 'split', operator: found.cut.operator, children: found.cut.project(log, dfg, found.groups) };
  // 3b. IMf: cuts on the filtered DFG; the unfiltered log is projected with those groups.
  if (noise > 0) {
    const filtered = filterDfg(dfg, noise);
    const again = findCut(filtered);
    if (again)
      return { kind: 'split', operator: again.cut.operator, children: again.cut.project(log, filtered, again.groups) };
  }
  // 4. Fall-throughs on the unfiltered log; the flower always applies.
  for (const ft of FALL_THROUGHS) {
    const r = ft.apply(log, dfg, ctx);
    if (r) return r;
  }
  throw new FlowScoutError({ code: 'INTERNAL', message: 'no fall-through applied (the flower always should)' });
}
