import type { Call, TaskRecord } from '../../records/schema.js';
import { EventLogBuilder, type EventLog } from './event-log.js';

/** Options of `eventLogFromRecords`. */
export interface FromRecordsOptions {
  /** The activity of a call (default: its tool name). */
  activity?: (call: Call, record: TaskRecord) => string;
  /** Leave out records without calls (default: keep them as empty traces, i.e. optional steps). */
  skipEmpty?: boolean;
}

/**
 * The event log of a set of records (docs/DESIGN.md, "Mining"): one case
 * per record (its id), one event per call of π in order, activity = the tool name. Records are
 * taken in the given order (records carry no timestamps; their order is the file order).
 */
export function eventLogFromRecords(records: readonly TaskRecord[], opts: FromRecordsOptions = {}): EventLog {
  const b = new EventLogBuilder();
  const name = opts.activity ?? ((c: Call) => c.tool);
  for (const r of records) {
    if (opts.skipEmpty && r.calls.length === 0) continue;
    b.addCase(
      r.id,
      r.calls.map((c) => name(c, r)),
    );
  }
  return b.build('records');
}

/**
 * Names an activity by the parent tool of a ToolBench function name (`<api>_for_<tool>` → `<tool>`),
 * to mine at the level of tools rather than APIs. Names without `_for_` are kept as they are.
 */
export function activityByParentTool(call: Call): string {
  const at = call.tool.lastIndexOf('_for_');
  return at > 0 ? call.tool.slice(at + 5) : call.tool;
}
