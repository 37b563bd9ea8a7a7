import type { FallThrough } from '../types.js';
import { activityConcurrentFallThrough } from './activity-concurrent.js';
import { activityOncePerTraceFallThrough } from './activity-once-per-trace.js';
import { emptyTracesFallThrough } from './empty-traces.js';
import { flowerFallThrough } from './flower.js';
import { strictTauLoopFallThrough, tauLoopFallThrough } from './tau-loops.js';

/** The fall-throughs in PM4Py's order (docs/DESIGN.md, "Matching PM4Py" §1.4); the flower always applies. */
export const FALL_THROUGHS: readonly FallThrough[] = [
  emptyTracesFallThrough,
  activityOncePerTraceFallThrough,
  activityConcurrentFallThrough,
  strictTauLoopFallThrough,
  tauLoopFallThrough,
  flowerFallThrough,
];

export {
  activityConcurrentFallThrough,
  activityOncePerTraceFallThrough,
  emptyTracesFallThrough,
  flowerFallThrough,
  strictTauLoopFallThrough,
  tauLoopFallThrough,
};
