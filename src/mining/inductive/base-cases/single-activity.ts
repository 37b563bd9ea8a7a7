import { TAU, type ProcessTree } from '../../process-tree/schema.js';
import type { MiningContext, SubLog } from '../sublog.js';
import type { BaseCase } from '../types.js';

/**
 * Base case: exactly one distinct trace with at most one event is that activity (or `tau` for the
 * empty trace). `{(a,):5}` gives `'a'`, but `{(a,), (a,a)}` is not a base case (docs/DESIGN.md, "Matching PM4Py" §1.2).
 */
export const singleActivityBaseCase: BaseCase = {
  name: 'single-activity',
  apply(log: SubLog, ctx: MiningContext): ProcessTree | null {
    if (log.traces.length !== 1) return null;
    const t = log.traces[0]!;
    if (t.length > 1) return null;
    return t.length === 0 ? TAU : { label: ctx.names[t[0]!]! };
  },
};
