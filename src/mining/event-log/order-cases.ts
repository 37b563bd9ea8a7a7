import { comparePython } from '../python-order.js';
import { EventLogBuilder, type EventLog } from './event-log.js';

/**
 * The order in which PM4Py sees cases and events (docs/DESIGN.md, "Matching PM4Py" §0, §6.6–6.7), which IMf depends on.
 *
 * - `pm4py` (the DataFrame path of `pm4py.read_xes` / `format_dataframe`): events are grouped by
 *   case id (equal ids form one case), cases are sorted by case id as *strings* (Python order, so
 *   "10" comes before "9"), and each case's events are stably sorted by timestamp (events without
 *   one go last, in file order).
 * - `file`: cases and events exactly as read (PM4Py's legacy EventLog path). Used when a log has no
 *   parseable timestamps at all, e.g. the partial-order logs whose timestamps are "?", which PM4Py
 *   can only mine that way.
 */
export type CaseOrder = 'pm4py' | 'file';

/** One event as read: its activity, its timestamp (µs, NaN when missing) and its position. */
export interface RawCase {
  id: string;
  activities: string[];
  /** Parallel to `activities`; omit when the source has no timestamps. */
  timestamps?: number[];
}

/** Orders raw cases as PM4Py would and builds the event log. */
export function buildOrderedLog(cases: RawCase[], order: CaseOrder, source?: string): EventLog {
  const b = new EventLogBuilder();
  if (order === 'file') {
    for (const c of cases) b.addCase(c.id, c.activities);
    return b.build(source);
  }
  // Group equal case ids (first occurrence keeps the position; events concatenate in file order).
  const byId = new Map<string, RawCase>();
  const grouped: RawCase[] = [];
  for (const c of cases) {
    const seen = byId.get(c.id);
    if (!seen) {
      const copy: RawCase = { id: c.id, activities: c.activities.slice() };
      if (c.timestamps) copy.timestamps = c.timestamps.slice();
      byId.set(c.id, copy);
      grouped.push(copy);
    } else {
      seen.activities.push(...c.activities);
      if (seen.timestamps || c.timestamps) {
        seen.timestamps = [...(seen.timestamps ?? seen.activities.map(() => Number.NaN)), ...(c.timestamps ?? c.activities.map(() => Number.NaN))];
      }
    }
  }
  let sorted = true;
  for (let i = 1; i < grouped.length && sorted; i++) if (comparePython(grouped[i - 1]!.id, grouped[i]!.id) > 0) sorted = false;
  if (!sorted) grouped.sort((x, y) => comparePython(x.id, y.id));
  for (const c of grouped) b.addCase(c.id, sortByTime(c));
  return b.build(source);
}

/** The activities of a case in stable timestamp order (NaN last). */
function sortByTime(c: RawCase): string[] {
  const ts = c.timestamps;
  if (!ts) return c.activities;
  let ordered = true;
  let sawMissing = false;
  let prev = -Infinity;
  for (const t of ts) {
    if (Number.isNaN(t)) sawMissing = true;
    else if (sawMissing || t < prev) {
      ordered = false;
      break;
    } else prev = t;
  }
  if (ordered) return c.activities;
  const idx = c.activities.map((_, i) => i);
  idx.sort((a, b) => {
    const ta = ts[a]!;
    const tb = ts[b]!;
    const na = Number.isNaN(ta);
    const nb = Number.isNaN(tb);
    if (na || nb) return na === nb ? a - b : na ? 1 : -1;
    return ta - tb || a - b;
  });
  return idx.map((i) => c.activities[i]!);
}

/** `file` when no event has a parseable timestamp, else `pm4py` (see `CaseOrder`). */
export function defaultOrder(cases: RawCase[]): CaseOrder {
  for (const c of cases) if (c.timestamps?.some((t) => !Number.isNaN(t))) return 'pm4py';
  return 'file';
}
