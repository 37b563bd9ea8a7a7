import { emptySubLog, SubLogBuilder, type SubLog } from '../sublog.js';
import type { FallThrough } from '../types.js';

/**
 * Cuts every trace into pieces before position i where `cutBefore(prev, next)` holds, and returns
 * the pieces (counts add up) and whether that gave more cases than before.
 */
function cutTraces(log: SubLog, cutBefore: (prev: number, next: number) => boolean): { pieces: SubLog; more: boolean } {
  const b = new SubLogBuilder();
  let before = 0;
  let after = 0;
  for (let v = 0; v < log.traces.length; v++) {
    const t = log.traces[v]!;
    const c = log.counts[v]!;
    before += c;
    let from = 0;
    for (let i = 1; i < t.length; i++) {
      if (cutBefore(t[i - 1]!, t[i]!)) {
        b.add(t.subarray(from, i), c);
        after += c;
        from = i;
      }
    }
    b.add(t.subarray(from), c);
    after += c;
  }
  return { pieces: b.build(), more: after > before };
}

/** Start and end activities (global ids) of a log's non-empty traces. */
function startsAndEnds(log: SubLog): { starts: Set<number>; ends: Set<number> } {
  const starts = new Set<number>();
  const ends = new Set<number>();
  for (const t of log.traces) {
    if (t.length === 0) continue;
    starts.add(t[0]!);
    ends.add(t[t.length - 1]!);
  }
  return { starts, ends };
}

/**
 * Strict tau loop (docs/DESIGN.md, "Matching PM4Py" §3): cut every trace where an end activity is directly followed by a
 * start activity; if that gives more traces, `*( IM(pieces), tau )`.
 */
export const strictTauLoopFallThrough: FallThrough = {
  name: 'strict-tau-loop',
  apply(log: SubLog) {
    const { starts, ends } = startsAndEnds(log);
    const { pieces, more } = cutTraces(log, (p, n) => starts.has(n) && ends.has(p));
    return more ? { kind: 'split', operator: 'loop', children: [pieces, emptySubLog()] } : null;
  },
};

/** Tau loop (docs/DESIGN.md, "Matching PM4Py" §3): the same, but cut before every later occurrence of a start activity. */
export const tauLoopFallThrough: FallThrough = {
  name: 'tau-loop',
  apply(log: SubLog) {
    const { starts } = startsAndEnds(log);
    const { pieces, more } = cutTraces(log, (_p, n) => starts.has(n));
    return more ? { kind: 'split', operator: 'loop', children: [pieces, emptySubLog()] } : null;
  },
};
