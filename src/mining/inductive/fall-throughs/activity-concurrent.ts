import { findCut } from '../cuts/index.js';
import { computeDfg, type Dfg } from '../dfg.js';
import type { MiningContext, SubLog } from '../sublog.js';
import type { FallThrough } from '../types.js';
import { splitActivity } from './split-activity.js';

/**
 * Activity concurrent (docs/DESIGN.md, "Matching PM4Py" §3): in Python name order, remove activity `a` from every trace and
 * try the four IM cuts on what is left (IM cuts even inside IMf, on the unfiltered DFG). The first
 * `a` that yields any cut gives `+( IM(a-only traces), IM(L without a) )`. The most expensive step
 * of the miner: one DFG and four cut checks per activity, computed straight from the variants
 * without building the reduced log.
 */
export const activityConcurrentFallThrough: FallThrough = {
  name: 'activity-concurrent',
  apply(log: SubLog, dfg: Dfg, ctx: MiningContext) {
    for (let i = 0; i < dfg.n; i++) {
      const a = dfg.acts[i]!;
      if (findCut(computeDfg(log, ctx, a))) {
        return { kind: 'split', operator: 'and', children: splitActivity(log, a) };
      }
    }
    return null;
  },
};
