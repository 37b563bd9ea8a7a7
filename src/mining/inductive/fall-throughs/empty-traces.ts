import { emptySubLog, SubLogBuilder, type SubLog } from '../sublog.js';
import type { FallThrough } from '../types.js';

/**
 * Empty traces (docs/DESIGN.md, "Matching PM4Py" §1.1, §3): a log holding the empty trace is `X( tau, IM(L without empty
 * traces) )`. PM4Py runs this check before the base cases in every step (so in IM it never fires
 * as a fall-through) and keeps it first in the fall-through list.
 */
export const emptyTracesFallThrough: FallThrough = {
  name: 'empty-traces',
  apply(log: SubLog) {
    const { empty, rest } = withoutEmptyTraces(log);
    if (empty === 0 || rest.traces.length === 0) return null;
    return { kind: 'split', operator: 'xor', children: [emptySubLog(), rest] };
  },
};

/** The number of empty cases and the log without them. */
export function withoutEmptyTraces(log: SubLog): { empty: number; rest: SubLog } {
  let at = -1;
  for (let v = 0; v < log.traces.length; v++) if (log.traces[v]!.length === 0) at = v;
  if (at < 0) return { empty: 0, rest: log };
  const b = new SubLogBuilder();
  for (let v = 0; v < log.traces.length; v++) if (v !== at) b.add(log.traces[v]!, log.counts[v]!);
  return { empty: log.counts[at]!, rest: b.build() };
}
