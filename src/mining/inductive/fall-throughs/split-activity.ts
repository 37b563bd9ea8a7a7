import { SubLogBuilder, type SubLog } from '../sublog.js';

/**
 * Splits a log into the traces of one activity and the traces without it, for the two
 * "parallel with one activity" fall-throughs: `+( IM(a-only traces), IM(L without a) )`. The
 * a-only sublog keeps its multiplicity (`(a,a)` or `()`), so its subtree is often
 * `X( tau, *( 'a', tau ) )`. Counts add up.
 */
export function splitActivity(log: SubLog, activity: number): [SubLog, SubLog] {
  const only = new SubLogBuilder();
  const other = new SubLogBuilder();
  for (let v = 0; v < log.traces.length; v++) {
    const t = log.traces[v]!;
    const c = log.counts[v]!;
    only.add(
      t.filter((x) => x === activity),
      c,
    );
    other.add(
      t.filter((x) => x !== activity),
      c,
    );
  }
  return [only.build(), other.build()];
}
