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

/**
 * The events of a log as a reader collects them, before ordering: no object per event, only
 * parallel typed arrays (activity code, timestamp in µs or NaN, the segment it was read in) that
 * grow by doubling. A segment is what the reader saw as one case (an XES trace, a JSONL line, the
 * rows of one CSV case id); `build` groups segments with equal ids when PM4Py would.
 */
export class CaseCollector {
  /** Activity code → name, in first-seen order of the file. */
  readonly names: string[] = [];
  private readonly codes = new Map<string, number>();
  private readonly segmentIds: string[] = [];
  private eventCode = new Int32Array(1024);
  private eventTime = new Float64Array(1024);
  private eventSegment = new Int32Array(1024);
  private n = 0;
  /** Whether any event has a timestamp that parsed. */
  anyTimestamp = false;

  /** The code of an activity name, interning it on first sight. */
  code(name: string): number {
    let c = this.codes.get(name);
    if (c === undefined) {
      c = this.names.length;
      this.codes.set(name, c);
      this.names.push(name);
    }
    return c;
  }

  /** Starts a segment (a case as read) and returns its index. */
  segment(id: string): number {
    this.segmentIds.push(id);
    return this.segmentIds.length - 1;
  }

  setSegmentId(segment: number, id: string): void {
    this.segmentIds[segment] = id;
  }

  /** Segments without an id get their position (an XES trace without a case id). */
  fillBlankIds(): void {
    this.segmentIds.forEach((id, i) => {
      if (id === '') this.segmentIds[i] = String(i);
    });
  }

  get segmentCount(): number {
    return this.segmentIds.length;
  }

  get eventCount(): number {
    return this.n;
  }

  /** Adds an event to `segment` (timestamp in µs, NaN when it has none). */
  add(segment: number, code: number, time: number): void {
    if (this.n === this.eventCode.length) this.grow();
    this.eventCode[this.n] = code;
    this.eventTime[this.n] = time;
    this.eventSegment[this.n] = segment;
    this.n++;
    if (time === time) this.anyTimestamp = true;
  }

  private grow(): void {
    const size = this.eventCode.length * 2;
    const code = new Int32Array(size);
    code.set(this.eventCode);
    const time = new Float64Array(size);
    time.set(this.eventTime);
    const seg = new Int32Array(size);
    seg.set(this.eventSegment);
    this.eventCode = code;
    this.eventTime = time;
    this.eventSegment = seg;
  }

  /** `file` when no event has a parseable timestamp, else `pm4py` (see `CaseOrder`). */
  defaultOrder(): CaseOrder {
    return this.anyTimestamp ? 'pm4py' : 'file';
  }

  /** Orders the cases and events as PM4Py would (see `CaseOrder`) and builds the event log. */
  build(order: CaseOrder, source?: string): EventLog {
    const segments = this.segmentIds.length;
    // Cases: each segment alone (`file`), or segments with equal ids together, first occurrence first.
    const caseOfSegment = new Int32Array(segments);
    const caseIds: string[] = [];
    if (order === 'file') {
      for (let s = 0; s < segments; s++) caseOfSegment[s] = s;
      caseIds.push(...this.segmentIds);
    } else {
      const byId = new Map<string, number>();
      for (let s = 0; s < segments; s++) {
        const id = this.segmentIds[s]!;
        let c = byId.get(id);
        if (c === undefined) {
          c = caseIds.length;
          byId.set(id, c);
          caseIds.push(id);
        }
        caseOfSegment[s] = c;
      }
    }
    // Events grouped by case, in file order within a case (a counting sort: linear).
    const cases = caseIds.length;
    const start = new Int32Array(cases + 1);
    const n = this.n;
    const code = this.eventCode;
    const time = this.eventTime;
    const seg = this.eventSegment;
    for (let e = 0; e < n; e++) start[caseOfSegment[seg[e]!]! + 1]!++;
    for (let c = 0; c < cases; c++) start[c + 1]! += start[c]!;
    const fill = start.slice(0, cases);
    const perm = new Int32Array(n);
    for (let e = 0; e < n; e++) perm[fill[caseOfSegment[seg[e]!]!]!++] = e;

    let caseOrder = Array.from({ length: cases }, (_, c) => c);
    if (order === 'pm4py') {
      let sorted = true;
      for (let c = 1; c < cases && sorted; c++) if (comparePython(caseIds[c - 1]!, caseIds[c]!) > 0) sorted = false;
      if (!sorted) caseOrder = caseOrder.sort((a, b) => comparePython(caseIds[a]!, caseIds[b]!));
    }
    const b = new EventLogBuilder();
    const remap = new Int32Array(this.names.length).fill(-1);
    for (const c of caseOrder) {
      const from = start[c]!;
      const to = start[c + 1]!;
      if (order === 'pm4py') sortByTime(perm, from, to, time);
      const trace = new Int32Array(to - from);
      for (let k = from; k < to; k++) {
        const a = code[perm[k]!]!;
        let id = remap[a]!;
        if (id < 0) id = remap[a] = b.activityId(this.names[a]!);
        trace[k - from] = id;
      }
      b.addTrace(caseIds[c]!, trace);
    }
    return b.build(source);
  }
}

/** Sorts `perm[from..to)` (event indices in file order) stably by timestamp, NaN last, in place. */
function sortByTime(perm: Int32Array, from: number, to: number, time: Float64Array): void {
  let ordered = true;
  let sawMissing = false;
  let prev = -Infinity;
  for (let k = from; k < to; k++) {
    const t = time[perm[k]!]!;
    if (t !== t) sawMissing = true;
    else if (sawMissing || t < prev) {
      ordered = false;
      break;
    } else prev = t;
  }
  if (ordered) return;
  // Event indices rise with file order, so comparing them breaks ties stably.
  const part = Array.from(perm.subarray(from, to));
  part.sort((a, b) => {
    const ta = time[a]!;
    const tb = time[b]!;
    const na = ta !== ta;
    const nb = tb !== tb;
    if (na || nb) return na === nb ? a - b : na ? 1 : -1;
    return ta - tb || a - b;
  });
  perm.set(part, from);
}

/** One case as read, with activity names (for readers that build whole cases). */
export interface RawCase {
  id: string;
  activities: string[];
  /** Parallel to `activities`; omit when the source has no timestamps. */
  timestamps?: number[];
}

/** Orders raw cases as PM4Py would and builds the event log. */
export function buildOrderedLog(cases: RawCase[], order: CaseOrder, source?: string): EventLog {
  const collector = new CaseCollector();
  for (const c of cases) {
    const s = collector.segment(c.id);
    for (let i = 0; i < c.activities.length; i++)
      collector.add(s, collector.code(c.activities[i]!), c.timestamps?.[i] ?? Number.NaN);
  }
  return collector.build(order, source);
}

/** `file` when no event has a parseable timestamp, else `pm4py` (see `CaseOrder`). */
export function defaultOrder(cases: RawCase[]): CaseOrder {
  for (const c of cases) if (c.timestamps?.some((t) => !Number.isNaN(t))) return 'pm4py';
  return 'file';
}
