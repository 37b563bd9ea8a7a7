import type { EventLog } from '../mining/event-log/event-log.js';
import type { ProcessTree } from '../mining/process-tree/schema.js';
import { TreeAligner, type AlignmentMove } from './aligner.js';

/** A deviation of a trace from the model: an activity it skipped or one it inserted, and where. */
export interface Deviation {
  /** `skipped`: the model needed the activity and the trace lacks it; `inserted`: the trace has it where the model allows none. */
  kind: 'skipped' | 'inserted';
  activity: string;
  /** 1-based: the event inserted, or the event the skipped activity should have come before (length + 1 at the end). */
  position: number;
}

/** One variant (distinct activity sequence) aligned against the model. */
export interface VariantConformance {
  activities: string[];
  /** How many traces have exactly this sequence. */
  count: number;
  /** Optimal alignment cost: log moves plus model moves on activities. */
  cost: number;
  /** PM4Py's trace fitness: 1 − cost / (trace length + the model's cheapest complete run); 1 when that sum is 0 (an empty run the model allows). */
  fitness: number;
  deviations: Deviation[];
  /** The whole alignment, synchronous moves included (silent steps left out). */
  moves: AlignmentMove[];
}

/** A log aligned against a model, with PM4Py's two log-level figures. */
export interface LogConformance {
  /** Number of traces (cases). */
  traces: number;
  /** The number of activities on the model's cheapest complete run. */
  cheapestRun: number;
  /** Variants in the log's order. */
  variants: VariantConformance[];
  /** PM4Py's `percFitTraces`: the percentage (0–100) of traces whose fitness is exactly 1. */
  percFitTraces: number;
  /** PM4Py's `averageFitness`: the mean fitness over traces (each trace counts, not each variant). */
  averageFitness: number;
}

/** Traces as activity sequences with counts, e.g. an event log's variants. */
export interface CountedTrace {
  activities: string[];
  count: number;
}

/**
 * Aligns every variant once against the tree and adds up PM4Py's figures (PM4Py 2.7.11: alignment
 * fitness evaluation over the per-trace results of `conformance_diagnostics_alignments`).
 */
export function alignTraces(traces: readonly CountedTrace[], tree: ProcessTree | TreeAligner): LogConformance {
  const aligner = tree instanceof TreeAligner ? tree : new TreeAligner(tree);
  const cheapestRun = aligner.cheapestRun();
  let total = 0;
  let fit = 0;
  let sum = 0;
  const variants = traces.map(({ activities, count }) => {
    const { cost, moves } = aligner.align(activities, { moves: true });
    const fitness = traceFitness(cost, activities.length, cheapestRun);
    total += count;
    if (fitness === 1) fit += count;
    sum += fitness * count;
    return { activities, count, cost, fitness, deviations: deviationsOf(moves!), moves: moves! };
  });
  return {
    traces: total,
    cheapestRun,
    variants,
    percFitTraces: total > 0 ? (100 * fit) / total : 0,
    averageFitness: total > 0 ? sum / total : 0,
  };
}

/** `alignTraces` over an event log's variants. */
export function alignEventLog(log: EventLog, tree: ProcessTree | TreeAligner): LogConformance {
  return alignTraces(
    log.variants.map((v) => ({ activities: Array.from(v.trace, (id) => log.activities[id]!), count: v.count })),
    tree,
  );
}

/**
 * PM4Py's fitness of one trace from its alignment cost (in moves). One case departs from PM4Py: a
 * run with no event against a model whose cheapest complete run has none (every step optional)
 * fits it exactly and scores 1, where PM4Py's formula divides 0 by 0 and scores 0. A run that
 * made no call is aligned like any other, not scored 0 by default.
 */
export function traceFitness(cost: number, length: number, cheapestRun: number): number {
  const denominator = length + cheapestRun;
  return denominator > 0 ? 1 - cost / denominator : 1;
}

/** The log and model moves of an alignment as deviations. */
export function deviationsOf(moves: readonly AlignmentMove[]): Deviation[] {
  return moves
    .filter((m) => m.kind !== 'sync')
    .map((m) => ({ kind: m.kind === 'log' ? 'inserted' : 'skipped', activity: m.activity, position: m.position + 1 }));
}
