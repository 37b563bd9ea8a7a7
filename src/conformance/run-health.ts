import { traceFitness } from './align-log.js';
import { TreeAligner } from './aligner.js';
import type { ProcessTree } from '../mining/process-tree/schema.js';
import type { ObservedRun } from './observed-runs.js';

/**
 * A per-run score an engineer can act on (docs/guides/conformance.md, "Fitness and health").
 *
 * **Fitness** (PM4Py's) says how far the order and choice of a run's tools is from the model: it
 * says nothing of whether the run worked. A run that called the right tools in the right order
 * and got errors back fits perfectly; a run that flailed through twelve calls with three
 * insertions still scores 0.8, because fitness divides the deviations by the run's length.
 *
 * **Health** counts every piece of trouble the run shows, each as one, with no weights:
 *
 *   trouble = skipped steps + calls beyond the model (both the alignment's moves: its cost)
 *           + failed calls + withheld calls + repeated calls
 *   health  = 1 / (1 + trouble)
 *
 * so a clean run is 1, one problem halves it, and the score is not diluted by the run's length
 * (a long run with problems is no healthier for being long). A call beyond the model that also
 * failed counts twice: it is both off the process and failed. The counts are the run's own
 * evidence (observed-runs.ts); none is tuned to a dataset.
 */

export interface RunScore {
  id: string;
  /** Calls attempted. */
  calls: number;
  /** Alignment cost: skipped + beyond. */
  cost: number;
  /** Steps the model needs that the run lacks (model moves). */
  skipped: number;
  /** Calls the model has no place for (log moves): calls beyond the model. */
  beyond: number;
  /** PM4Py's trace fitness (1 when the run and the model agree, an empty run against a model that allows it included). */
  fitness: number;
  failedCalls: number;
  errorAnswers: number;
  withheldCalls: number;
  repeatedCalls: number;
  /** 1 / (1 + cost + failed + withheld + repeated). */
  health: number;
  outcome?: ObservedRun['outcome'];
  at?: string;
}

/** The health of a run from its alignment cost and its own evidence (see the module comment). */
export function runHealth(cost: number, run: Pick<ObservedRun, 'failedCalls' | 'withheldCalls' | 'repeatedCalls'>) {
  return 1 / (1 + cost + run.failedCalls + run.withheldCalls + run.repeatedCalls);
}

/**
 * The health of a run's calls alone, the alignment left out: 1 / (1 + failed + withheld + repeated
 * calls). Drift reads it to say whether runs fail more, apart from whether the process changed
 * (which fitness, routes and unseen sequences say).
 */
export function callHealth(run: Pick<ObservedRun, 'failedCalls' | 'withheldCalls' | 'repeatedCalls'>): number {
  return runHealth(0, run);
}

/** Every run's fitness and health against the tree; each distinct tool sequence is aligned once. */
export function scoreRuns(runs: readonly ObservedRun[], tree: ProcessTree | TreeAligner): RunScore[] {
  const aligner = tree instanceof TreeAligner ? tree : new TreeAligner(tree);
  const cheapest = aligner.cheapestRun();
  const byKey = new Map<string, { cost: number; skipped: number; beyond: number; fitness: number }>();
  return runs.map((run) => {
    const key = JSON.stringify(run.tools);
    let a = byKey.get(key);
    if (!a) {
      const { cost, moves } = aligner.align(run.tools, { moves: true });
      const beyond = moves!.filter((m) => m.kind === 'log').length;
      a = { cost, skipped: cost - beyond, beyond, fitness: traceFitness(cost, run.tools.length, cheapest) };
      byKey.set(key, a);
    }
    return {
      id: run.id,
      calls: run.tools.length,
      cost: a.cost,
      skipped: a.skipped,
      beyond: a.beyond,
      fitness: a.fitness,
      failedCalls: run.failedCalls,
      errorAnswers: run.errorAnswers,
      withheldCalls: run.withheldCalls,
      repeatedCalls: run.repeatedCalls,
      health: runHealth(a.cost, run),
      ...(run.outcome ? { outcome: run.outcome } : {}),
      ...(run.at !== undefined ? { at: run.at } : {}),
    };
  });
}

/** How well a score separates the runs that failed from those that succeeded. */
export interface Separation {
  /** The score's name (`health`, `fitness`). */
  score: string;
  successful: number;
  failed: number;
  /** P(a successful run scores higher than a failed one), ties counted half: the ROC AUC. 0.5 is chance. */
  auc: number;
  /** A 95 % interval of the AUC (Hanley and McNeil's standard error). */
  interval: [number, number];
  /** True when the interval lies above 0.5: the score tells them apart better than chance. */
  separates: boolean;
  /** One sentence: the figure, and whether it separates. */
  says: string;
}

/**
 * The AUC of `score` on runs that carry an outcome; undefined when fewer than one successful and
 * one failed run carry one.
 */
export function separation(scores: readonly RunScore[], score: 'health' | 'fitness'): Separation | undefined {
  const good = scores.filter((s) => s.outcome?.success === true).map((s) => s[score]);
  const bad = scores.filter((s) => s.outcome?.success === false).map((s) => s[score]);
  if (good.length === 0 || bad.length === 0) return undefined;
  const auc = rocAuc(good, bad);
  const se = hanleyMcNeilSe(auc, good.length, bad.length);
  const interval: [number, number] = [Math.max(0, auc - 1.96 * se), Math.min(1, auc + 1.96 * se)];
  const separates = interval[0] > 0.5;
  const fig = `${score} separates failed from successful runs with AUC ${auc.toFixed(3)} (95 % interval ${interval[0].toFixed(2)}–${interval[1].toFixed(2)}; ${good.length} successful, ${bad.length} failed runs)`;
  const says = separates
    ? fig
    : `${score} does not separate failed from successful runs: AUC ${auc.toFixed(3)} (95 % interval ${interval[0].toFixed(2)}–${interval[1].toFixed(2)}, ${auc < 0.5 ? 'below' : 'not above'} chance at 0.5; ${good.length} successful, ${bad.length} failed runs)`;
  return { score, successful: good.length, failed: bad.length, auc, interval, separates, says };
}

/** P(x > y) + P(x = y) / 2 over every pair of a positive x and a negative y (Mann–Whitney). */
export function rocAuc(positive: readonly number[], negative: readonly number[]): number {
  const all = [...positive.map((v) => ({ v, pos: true })), ...negative.map((v) => ({ v, pos: false }))].sort(
    (a, b) => a.v - b.v,
  );
  // Mid-ranks over ties, then the rank-sum form of the U statistic.
  let rankSum = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j]!.v === all[i]!.v) j++;
    const mid = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (all[k]!.pos) rankSum += mid;
    i = j;
  }
  const n1 = positive.length;
  const n2 = negative.length;
  return (rankSum - (n1 * (n1 + 1)) / 2) / (n1 * n2);
}

function hanleyMcNeilSe(auc: number, nPos: number, nNeg: number): number {
  const q1 = auc / (2 - auc);
  const q2 = (2 * auc * auc) / (1 + auc);
  const v = (auc * (1 - auc) + (nPos - 1) * (q1 - auc * auc) + (nNeg - 1) * (q2 - auc * auc)) / (nPos * nNeg);
  return Math.sqrt(Math.max(0, v));
}
