import type { LoopState } from './commit.js';
import { iterationRandom } from './iteration-random.js';
import { applyOutcome, stopBefore, turnEventLoop, type LoopResult } from './mcts.js';
import type { SearchContext } from './search-context.js';
import { BudgetStop, expandAndSimulate } from './step.js';
import type { Candidate, SearchTree } from './tree.js';

/**
 * Beam search, the ablation of the paper's experiments (docs/DESIGN.md, "Baselines and ablations": Beam,
 * top-3 per step, the same candidate budget). Step d expands each of the `beamWidth` best candidates
 * of depth d − 1 (by D_opt reward; ties: created first) with `children` children each; the next beam
 * is the best of those children. It stops after J candidates (the MCTS iteration budget), after P
 * candidates without a better D_val score, when a budget runs out, or when a step leaves nothing to
 * expand. The beam is recomputed from the tree, so a resumed run continues where it stopped.
 */
export async function runBeamLoop(ctx: SearchContext, state: LoopState): Promise<LoopResult> {
  const s = ctx.settings;
  const now = ctx.now ?? Date.now;
  const started = now();
  while (state.iterationsDone < s.iterations) {
    await turnEventLoop();
    const early = stopBefore(ctx, state);
    if (early) return early;
    const next = nextParent(state.tree, s.beamWidth, s.children);
    if (!next)
      return { stopKind: 'iterations', stopReason: 'nothing left to expand (every candidate of the last step failed)' };
    const t = state.iterationsDone + 1;
    let outcome;
    try {
      outcome = await expandAndSimulate(ctx, state.tree, next.id, t, iterationRandom(s.seed, t));
    } catch (e) {
      if (e instanceof BudgetStop) return { stopKind: 'budget', stopReason: e.reason };
      throw e;
    }
    const row = applyOutcome(ctx, state, outcome, pathTo(state.tree, next.id), t, 0, now() - started);
    ctx.onIteration?.(row);
  }
  return { stopKind: 'iterations', stopReason: `reached ${s.iterations} candidates` };
}

/** The beam member to expand next, or undefined when the last step left nothing expandable. */
export function nextParent(tree: SearchTree, width: number, children: number): Candidate | undefined {
  const depthOf = new Map<string, number>();
  for (const c of tree.nodes.values()) depthOf.set(c.id, c.parent === null ? 0 : depthOf.get(c.parent)! + 1);
  const maxDepth = Math.max(...depthOf.values());
  // The beam of the deepest level that still has members without their children, else the next level.
  for (const d of maxDepth === 0 ? [0] : [maxDepth - 1, maxDepth]) {
    const beam = beamAt(tree, depthOf, d, width);
    const open = beam.find((c) => c.children.length < children);
    if (open) return open;
  }
  return undefined;
}

function beamAt(tree: SearchTree, depthOf: Map<string, number>, depth: number, width: number): Candidate[] {
  return [...tree.nodes.values()]
    .filter((c) => depthOf.get(c.id) === depth && tree.expandable(c.id))
    .sort((a, b) => (b.optReward ?? 0) - (a.optReward ?? 0) || a.seq - b.seq)
    .slice(0, width);
}

function pathTo(tree: SearchTree, id: string): string[] {
  const path: string[] = [];
  for (let c: Candidate | undefined = tree.get(id); c; c = c.parent === null ? undefined : tree.get(c.parent))
    path.unshift(c.id);
  return path;
}
