/**
 * The log the inductive miner recurses on: distinct traces (variants) with their counts, PM4Py's
 * "UVCL" (a Python Counter from trace tuple to frequency; docs/DESIGN.md, "Matching PM4Py" §0). The miner works on variants
 * with counts and never on expanded traces. Traces hold integer activity ids (see `MiningContext`),
 * so building, hashing and projecting them is cheap.
 *
 * Order matters in one place (docs/DESIGN.md, "Matching PM4Py" §6.6): a Counter keeps keys in first-insertion order, and
 * PM4Py's concurrency projection *assigns* a count instead of adding it, so the last variant that
 * maps to a projected trace wins. `SubLogBuilder` offers both `add` and `set` to reproduce that.
 */

/** Distinct traces (activity ids) with counts, in first-insertion order. */
export interface SubLog {
  traces: Int32Array[];
  counts: number[];
}

/** Shared facts about the activities of one discovery run. */
export interface MiningContext {
  /** Activity id → name. */
  names: readonly string[];
  /** Activity id → position of its name in Python's sorted order (docs/DESIGN.md, "Matching PM4Py" §6.3). */
  rank: Int32Array;
}

const EMPTY = new Int32Array(0);

/** A string key for a trace: one UTF-16 unit per id (ids < 65536), or a joined list otherwise. */
export function traceKey(trace: Int32Array): string {
  const n = trace.length;
  if (n === 0) return '';
  if (n <= 4096) {
    let wide = false;
    for (let i = 0; i < n; i++)
      if (trace[i]! > 0xffff) {
        wide = true;
        break;
      }
    if (!wide) return String.fromCharCode.apply(null, trace as unknown as number[]);
  }
  return `#${trace.join(',')}`;
}

/** Collects projected traces, merging equal ones like a Python Counter. */
export class SubLogBuilder {
  private readonly index = new Map<string, number>();
  readonly traces: Int32Array[] = [];
  readonly counts: number[] = [];

  /** `counter.update({trace: count})`: adds to an existing count. */
  add(trace: Int32Array, count: number): void {
    const at = this.slot(trace);
    this.counts[at]! += count;
  }

  /** `counter[trace] = count`: replaces an existing count, keeping its position (docs/DESIGN.md, "Matching PM4Py" §6.6). */
  set(trace: Int32Array, count: number): void {
    this.counts[this.slot(trace)] = count;
  }

  /** The position of `trace`, appended with count 0 when it is new (a Counter keeps first-insertion order). */
  private slot(trace: Int32Array): number {
    const key = traceKey(trace);
    const at = this.index.get(key);
    if (at !== undefined) return at;
    this.index.set(key, this.traces.length);
    this.traces.push(trace);
    this.counts.push(0);
    return this.traces.length - 1;
  }

  build(): SubLog {
    return { traces: this.traces, counts: this.counts };
  }
}

/** The empty log (no traces at all). */
export function emptySubLog(): SubLog {
  return { traces: [], counts: [] };
}

/** Copies the ids of `trace` for which `keep` holds into a new array. */
export function filterTrace(trace: Int32Array, keep: (id: number) => boolean): Int32Array {
  let n = 0;
  for (let i = 0; i < trace.length; i++) if (keep(trace[i]!)) n++;
  if (n === trace.length) return trace;
  if (n === 0) return EMPTY;
  const out = new Int32Array(n);
  let j = 0;
  for (let i = 0; i < trace.length; i++) {
    const a = trace[i]!;
    if (keep(a)) out[j++] = a;
  }
  return out;
}

/** Total number of cases in a log. */
export function caseCount(log: SubLog): number {
  let s = 0;
  for (const c of log.counts) s += c;
  return s;
}
