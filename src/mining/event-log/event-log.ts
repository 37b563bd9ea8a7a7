import { traceKey } from '../inductive/sublog.js';

/**
 * An event log as the miner needs it: cases → activity sequences, summarised as variants
 * (distinct sequences) with counts in first-seen order. Activities are interned to integer ids
 * (`activities[id]` is the name), so a 100,000-case log is a few arrays, not 100,000 objects.
 *
 * Variant order is part of the data: PM4Py's IMf depends on it (docs/DESIGN.md, "Matching PM4Py" §6.6), so readers add
 * cases in the order PM4Py would see them (`order-cases.ts`).
 */
export interface Variant {
  /** Activity ids in order. */
  trace: Int32Array;
  /** Number of cases with exactly this sequence. */
  count: number;
}

/** An event log as distinct activity sequences (variants) with counts, the miner's input. */
export interface EventLog {
  /** Activity id → name, in first-seen order. */
  activities: string[];
  /** Distinct traces with counts, in first-seen order. */
  variants: Variant[];
  /** Case ids in the order they were added. */
  caseIds: string[];
  /** Case index → variant index. */
  caseVariants: Int32Array;
  /** Where the log came from (a file path or "records"), for messages. */
  source?: string;
  /** Rows or lines the reader left out (only with `skipInvalid`), with how many for each reason. */
  skipped?: { count: number; reasons: Record<string, number> };
}

/** Builds an `EventLog` case by case, interning activity names and merging equal sequences. */
export class EventLogBuilder {
  private readonly activityIds = new Map<string, number>();
  private readonly variantIds = new Map<string, number>();
  private readonly activities: string[] = [];
  private readonly variants: Variant[] = [];
  private readonly caseIds: string[] = [];
  private caseVariants: number[] = [];

  /** The id of an activity name, interning it on first sight. */
  activityId(name: string): number {
    let id = this.activityIds.get(name);
    if (id === undefined) {
      id = this.activities.length;
      this.activityIds.set(name, id);
      this.activities.push(name);
    }
    return id;
  }

  /** Adds one case with its activity names in order. */
  addCase(caseId: string, activityNames: readonly string[]): void {
    const trace = new Int32Array(activityNames.length);
    for (let i = 0; i < activityNames.length; i++) trace[i] = this.activityId(activityNames[i]!);
    this.addTrace(caseId, trace);
  }

  /** Adds one case given as activity ids (from `activityId`). */
  addTrace(caseId: string, trace: Int32Array): void {
    const key = traceKey(trace);
    let v = this.variantIds.get(key);
    if (v === undefined) {
      v = this.variants.length;
      this.variantIds.set(key, v);
      this.variants.push({ trace, count: 0 });
    }
    this.variants[v]!.count++;
    this.caseIds.push(caseId);
    this.caseVariants.push(v);
  }

  build(source?: string): EventLog {
    const log: EventLog = {
      activities: this.activities,
      variants: this.variants,
      caseIds: this.caseIds,
      caseVariants: Int32Array.from(this.caseVariants),
    };
    if (source !== undefined) log.source = source;
    return log;
  }
}

/** A log from plain sequences (tests, small programs): case ids are their positions. */
export function eventLogFromTraces(traces: readonly (readonly string[])[], source?: string): EventLog {
  const b = new EventLogBuilder();
  traces.forEach((t, i) => b.addCase(String(i), t));
  return b.build(source);
}

/** The variants with activity names, for display and JSON output. */
export function namedVariants(log: EventLog): { activities: string[]; count: number }[] {
  return log.variants.map((v) => ({ activities: Array.from(v.trace, (id) => log.activities[id]!), count: v.count }));
}

/** Number of cases. */
export function eventLogCaseCount(log: EventLog): number {
  return log.caseIds.length;
}
