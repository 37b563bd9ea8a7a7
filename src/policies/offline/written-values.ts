import { canonicalArgs } from '../../contracts/canonical-args.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { TaskRecord } from '../../records/schema.js';
import type { ParamStats, ToolStats } from './cue-stats.js';
import { findToken } from './text.js';

/**
 * Recurring parameter values written in a request (docs/DESIGN.md, "Policies"): which of a
 * parameter's values count, whether a request writes one, and, learned from the records, how often
 * the parameter was set when its request wrote one (presence.ts reads it).
 */

/**
 * Calls a parameter value must have in the records to be kept in a distilled model (a recurring
 * constant, not one record's value). Chosen on D_val (mean G0 TC, bundled domains, seeds 0-2):
 * 0.375 keeping every value (which copies records' values into other requests' calls), 0.362 at 2,
 * 0.338 at 3; 3, because two calls can be one record's.
 */
export const KEEP_VALUE_CALLS = 3;

/**
 * The values of a parameter that count as written in a request: recurring (set in at least
 * `KEEP_VALUE_CALLS` calls, as a distilled model keeps them) and long enough to be a word (3+).
 */
export function writtenValues(ps: ParamStats): string[] {
  const out: string[] = [];
  for (const [key, n] of ps.values) {
    if (n < KEEP_VALUE_CALLS) continue;
    const raw = ps.raw.get(key);
    const text = typeof raw === 'string' ? raw : String(raw);
    if (text.length >= 3 && typeof raw !== 'boolean' && !/^-?\d+(\.\d+)?$/.test(text)) out.push(text);
  }
  return out;
}

/** True when the request writes one of the values (as a whole token, case aside). */
export function writesValue(query: string, values: readonly string[]): boolean {
  return values.some((v) => findToken(query, v) >= 0);
}

/** Second pass: per parameter, the calls whose request writes one of its recurring values, and how many set it. */
export function countWrittenValues(
  records: readonly TaskRecord[],
  byName: ReadonlyMap<string, ToolDescriptor>,
  model: { tools: ReadonlyMap<string, ToolStats>; params: ReadonlyMap<string, ParamStats> },
): void {
  const written = new Map<ParamStats, string[]>();
  const valuesOf = (ps: ParamStats) => {
    let v = written.get(ps);
    if (!v) written.set(ps, (v = writtenValues(ps)));
    return v;
  };
  for (const record of records) {
    for (const call of record.calls) {
      const tool = byName.get(call.tool);
      const ts = tool ? model.tools.get(tool.name) : undefined;
      if (!tool || !ts) continue;
      const args = canonicalArgs(call.args, tool.inputSchema);
      for (const [name, ps] of ts.params) {
        for (const stats of [ps, model.params.get(name)!]) {
          const values = valuesOf(stats);
          if (values.length === 0 || !writesValue(record.query, values)) continue;
          const w = (stats.whenValueWritten ??= { calls: 0, set: 0 });
          w.calls++;
          if (args[name] !== undefined) w.set++;
        }
      }
    }
  }
}
