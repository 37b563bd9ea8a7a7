import type { Dfg } from '../dfg.js';
import type { SubLog } from '../sublog.js';
import type { FallThrough } from '../types.js';
import { splitActivity } from './split-activity.js';

/**
 * Activity once per trace (docs/DESIGN.md, "Matching PM4Py" §3): among the activities that occur exactly once in every
 * trace, the first in Python name order `a` gives `+( a, IM(L without a) )`.
 */
export const activityOncePerTraceFallThrough: FallThrough = {
  name: 'activity-once-per-trace',
  apply(log: SubLog, dfg: Dfg) {
    const { n, local } = dfg;
    const candidate = new Uint8Array(n).fill(1);
    let left = n;
    const occ = new Int32Array(n);
    for (const t of log.traces) {
      occ.fill(0);
      for (let i = 0; i < t.length; i++) occ[local[t[i]!]!]!++;
      for (let a = 0; a < n; a++) {
        if (candidate[a] && occ[a] !== 1) {
          candidate[a] = 0;
          left--;
        }
      }
      if (left === 0) return null;
    }
    const a = candidate.indexOf(1);
    if (a < 0) return null;
    return { kind: 'split', operator: 'and', children: splitActivity(log, dfg.acts[a]!) };
  },
};
