import type { Dfg } from '../dfg.js';
import { emptySubLog, SubLogBuilder, type SubLog } from '../sublog.js';
import type { FallThrough } from '../types.js';

/**
 * Flower model (docs/DESIGN.md, "Matching PM4Py" §3, §6.9): the last resort, `*( X(all activities), tau )`. Built as PM4Py
 * builds it: a loop whose do log holds one single-event trace per activity (in Python name order;
 * the XOR cut then splits it) and whose redo log is empty (which gives tau). Always applies to a
 * log without empty traces.
 */
export const flowerFallThrough: FallThrough = {
  name: 'flower',
  apply(log: SubLog, dfg: Dfg) {
    if (log.traces.some((t) => t.length === 0)) return null;
    const doLog = new SubLogBuilder();
    for (let i = 0; i < dfg.n; i++) doLog.add(Int32Array.of(dfg.acts[i]!), 1);
    return { kind: 'split', operator: 'loop', children: [doLog.build(), emptySubLog()] };
  },
};
