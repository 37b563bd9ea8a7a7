import type { EventLog } from './event-log.js';

/** The directly-follows graph of a whole log, by name, for reports and `mine --format json`. */
export interface DfgSummary {
  activities: { name: string; count: number }[];
  edges: { from: string; to: string; count: number }[];
  start: { name: string; count: number }[];
  end: { name: string; count: number }[];
}

/** Counts activities, directly-follows pairs, and start/end activities (case-weighted), largest first. */
export function summarizeDfg(log: EventLog): DfgSummary {
  const acts = new Map<string, number>();
  const edges = new Map<string, { from: string; to: string; count: number }>();
  const start = new Map<string, number>();
  const end = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string, c: number) => m.set(k, (m.get(k) ?? 0) + c);
  for (const v of log.variants) {
    const t = Array.from(v.trace, (id) => log.activities[id]!);
    t.forEach((a, i) => {
      bump(acts, a, v.count);
      if (i > 0) {
        const key = `${t[i - 1]}\u0000${a}`;
        const e = edges.get(key) ?? { from: t[i - 1]!, to: a, count: 0 };
        e.count += v.count;
        edges.set(key, e);
      }
    });
    if (t.length > 0) {
      bump(start, t[0]!, v.count);
      bump(end, t[t.length - 1]!, v.count);
    }
  }
  const list = (m: Map<string, number>) =>
    [...m].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
  return {
    activities: list(acts),
    edges: [...edges.values()].sort(
      (a, b) => b.count - a.count || (a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : 1),
    ),
    start: list(start),
    end: list(end),
  };
}
