import { FlowScoutError } from '../../errors/index.js';
import { requireFile } from '../../util/require-file.js';
import type { EventLog } from './event-log.js';
import { buildOrderedLog, defaultOrder, type CaseOrder, type RawCase } from './order-cases.js';
import { parseTimestamp } from './timestamps.js';
import { tokenizeXmlFile } from './xml-tokenizer.js';

/** Options of `readXes`. */
export interface ReadXesOptions {
  /** Trace attribute holding the case id (default `concept:name`). */
  caseKey?: string;
  /** Event attribute holding the activity (default `concept:name`). */
  activityKey?: string;
  /** Event attribute holding the timestamp (default `time:timestamp`). */
  timestampKey?: string;
  /**
   * Keep only events with this `lifecycle:transition` (e.g. `complete`). Default: keep all, as
   * PM4Py does (`reviewing.xes` has start and complete events, and PM4Py mines both).
   */
  lifecycle?: string;
  /** Leave out events without an activity (counted in `log.skipped`) instead of refusing the file. */
  skipInvalid?: boolean;
  /** Case/event order (see `CaseOrder`); default `pm4py`, or `file` when no timestamp parses. */
  order?: CaseOrder;
}

const ATTRIBUTE_TAGS = new Set(['string', 'date', 'int', 'float', 'boolean', 'id', 'list', 'container']);

/**
 * Reads an XES event log (plain or `.gz`), streamed through our own tokenizer. Only attributes that
 * are direct children of a `<trace>` or `<event>` count (nested attributes and `<global>` defaults
 * are ignored, as PM4Py's reader does). An event without an activity cannot be mined: the file is
 * refused naming the first such line and the count, unless `skipInvalid` (then they are left out and
 * counted in `log.skipped`). Events are ordered
 * as PM4Py orders them (cases by case-id string, events by timestamp; see `order-cases.ts`).
 */
export async function readXes(file: string, opts: ReadXesOptions = {}): Promise<EventLog> {
  requireFile(file, { what: 'event log' });
  const caseKey = opts.caseKey ?? 'concept:name';
  const activityKey = opts.activityKey ?? 'concept:name';
  const timestampKey = opts.timestampKey ?? 'time:timestamp';
  const cases: RawCase[] = [];
  const stack: string[] = [];
  let current: RawCase | null = null;
  let event: { activity?: string; ts?: number; lifecycle?: string } | null = null;
  let sawLog = false;
  let events = 0;
  let noActivity = 0;
  let firstNoActivity = 0;

  await tokenizeXmlFile(file, {
    open(name, attrs) {
      const parent = stack[stack.length - 1];
      stack.push(name);
      if (name === 'log') sawLog = true;
      else if (name === 'trace' && parent === 'log') {
        current = { id: '', activities: [], timestamps: [] };
        cases.push(current);
      } else if (name === 'event' && parent === 'trace') {
        event = {};
      } else if (ATTRIBUTE_TAGS.has(name) && attrs.key !== undefined) {
        if (parent === 'event' && event) {
          if (attrs.key === activityKey) event.activity = attrs.value ?? '';
          else if (attrs.key === timestampKey) event.ts = parseTimestamp(attrs.value);
          else if (attrs.key === 'lifecycle:transition') event.lifecycle = attrs.value;
        } else if (parent === 'trace' && current && attrs.key === caseKey) {
          current.id = attrs.value ?? '';
        }
      }
    },
    close(name, line) {
      stack.pop();
      if (name === 'event' && event && current) {
        events++;
        if (event.activity === undefined && noActivity++ === 0) firstNoActivity = line;
        const keep = event.activity !== undefined && (opts.lifecycle === undefined || event.lifecycle === opts.lifecycle);
        if (keep) {
          current.activities.push(event.activity!);
          current.timestamps!.push(event.ts ?? Number.NaN);
        }
        event = null;
      } else if (name === 'trace') {
        current = null;
      }
    },
  });
  if (!sawLog) {
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${file} has no <log> element; it is not an XES event log`,
      hint: 'Pass an XES file (<log><trace><event>…), a CSV with named columns, or a JSONL event log.',
      location: { file },
    });
  }
  if (cases.length > 0 && events === 0) {
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${file} has ${cases.length} traces but no events`,
      hint: 'Each <trace> needs <event> elements with a concept:name.',
      location: { file },
    });
  }
  if (noActivity > 0 && !opts.skipInvalid) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${file}: ${noActivity} event${noActivity === 1 ? ' has' : 's have'} no '${activityKey}' attribute (the activity), the first ending on line ${firstNoActivity}`,
      hint: `Give every event its activity, name another attribute with --activity-column, or pass --skip-invalid to leave those events out (they are counted).`,
      location: { file, line: firstNoActivity },
    });
  }
  cases.forEach((c, i) => {
    if (c.id === '') c.id = String(i);
  });
  const log = buildOrderedLog(cases, opts.order ?? defaultOrder(cases), file);
  if (noActivity > 0) log.skipped = { count: noActivity, reasons: { [`event without '${activityKey}'`]: noActivity } };
  return log;
}
