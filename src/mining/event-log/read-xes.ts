import { FlowScoutError } from '../../errors/index.js';
import { requireFile } from '../../util/require-file.js';
import type { EventLog } from './event-log.js';
import { CaseCollector, type CaseOrder } from './order-cases.js';
import type { ReaderLimits } from './read-limits.js';
import { parseTimestamp, parseTimestampBytes } from './timestamps.js';
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
  /** Caps on unpacked size and token lengths (see `ReaderLimits`; defaults when omitted). */
  limits?: ReaderLimits;
}

const ATTRIBUTE_TAGS = new Set(['string', 'date', 'int', 'float', 'boolean', 'id', 'list', 'container']);
const KEY = Buffer.from('key');
const VALUE = Buffer.from('value');
const LIFECYCLE = 'lifecycle:transition';

/**
 * Reads an XES event log (plain or `.gz`), streamed through our own byte-level tokenizer. Only
 * attributes that are direct children of a `<trace>` or `<event>` count (nested attributes and
 * `<global>` defaults are ignored, as PM4Py's reader does), and of those only the case id, the
 * activity, the timestamp and the lifecycle are decoded; events go into typed arrays, not objects.
 * An event without an activity cannot be mined: the file is refused naming the first such line and
 * the count, unless `skipInvalid` (then they are left out and counted in `log.skipped`). Events are
 * ordered as PM4Py orders them (cases by case-id string, events by timestamp; see `order-cases.ts`).
 * `limits` bound the unpacked size and the length of tags, comments and declarations.
 */
export async function readXes(file: string, opts: ReadXesOptions = {}): Promise<EventLog> {
  requireFile(file, { what: 'event log' });
  const caseKey = opts.caseKey ?? 'concept:name';
  const activityKey = opts.activityKey ?? 'concept:name';
  const timestampKey = opts.timestampKey ?? 'time:timestamp';
  const caseKeyBytes = Buffer.from(caseKey);
  const activityKeyBytes = Buffer.from(activityKey);
  const timestampKeyBytes = Buffer.from(timestampKey);
  const lifecycleBytes = Buffer.from(LIFECYCLE);
  const wantLifecycle = opts.lifecycle;
  const collector = new CaseCollector();
  const stack: string[] = [];
  let segment = -1;
  let inEvent = false;
  /** The current event's activity code (see `collector.code`). */
  let activity: number | undefined;
  const activities = new BytesInterner(collector);
  let ts = Number.NaN;
  let lifecycle: string | undefined;
  let sawLog = false;
  let events = 0;
  let noActivity = 0;
  let firstNoActivity = 0;

  await tokenizeXmlFile(
    file,
    {
      open(name, tag) {
        const parent = stack[stack.length - 1];
        stack.push(name);
        if (name === 'log') sawLog = true;
        else if (name === 'trace' && parent === 'log') {
          segment = collector.segment('');
        } else if (name === 'event' && parent === 'trace') {
          inEvent = true;
          activity = undefined;
          ts = Number.NaN;
          lifecycle = undefined;
        } else if (ATTRIBUTE_TAGS.has(name)) {
          const k = tag.indexOf(KEY);
          if (k < 0) return;
          if (parent === 'event' && inEvent) {
            if (tag.valueIs(k, activityKeyBytes, activityKey)) {
              const v = tag.indexOf(VALUE);
              activity =
                v < 0
                  ? collector.code('')
                  : tag.hasReference(v)
                    ? collector.code(tag.value(v))
                    : activities.code(tag.buf, tag.start(v), tag.end(v));
            } else if (tag.valueIs(k, timestampKeyBytes, timestampKey)) {
              const v = tag.indexOf(VALUE);
              ts =
                v < 0
                  ? Number.NaN
                  : tag.hasReference(v)
                    ? parseTimestamp(tag.value(v))
                    : parseTimestampBytes(tag.buf, tag.start(v), tag.end(v));
            } else if (wantLifecycle !== undefined && tag.valueIs(k, lifecycleBytes, LIFECYCLE)) {
              const v = tag.indexOf(VALUE);
              lifecycle = v < 0 ? undefined : tag.value(v);
            }
          } else if (parent === 'trace' && segment >= 0 && tag.valueIs(k, caseKeyBytes, caseKey)) {
            const v = tag.indexOf(VALUE);
            collector.setSegmentId(segment, v < 0 ? '' : tag.value(v));
          }
        }
      },
      close(name, line) {
        stack.pop();
        if (name === 'event' && inEvent && segment >= 0) {
          events++;
          if (activity === undefined && noActivity++ === 0) firstNoActivity = line;
          if (activity !== undefined && (wantLifecycle === undefined || lifecycle === wantLifecycle))
            collector.add(segment, activity, ts);
          inEvent = false;
        } else if (name === 'event') {
          inEvent = false;
        } else if (name === 'trace') {
          segment = -1;
        }
      },
    },
    opts.limits,
  );
  const cases = collector.segmentCount;
  if (!sawLog) {
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${file} has no <log> element; it is not an XES event log`,
      hint: 'Pass an XES file (<log><trace><event>…), a CSV with named columns, or a JSONL event log.',
      location: { file },
    });
  }
  if (cases > 0 && events === 0) {
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${file} has ${cases} traces but no events`,
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
  collector.fillBlankIds();
  const log = collector.build(opts.order ?? collector.defaultOrder(), file);
  if (noActivity > 0) log.skipped = { count: noActivity, reasons: { [`event without '${activityKey}'`]: noActivity } };
  return log;
}

/**
 * Activity names straight from the bytes of the file: an activity repeats in almost every event, so
 * each distinct byte string is decoded once (hashed, then compared byte for byte) and every later
 * event costs no string at all.
 */
class BytesInterner {
  private readonly table = new Map<number, { bytes: Buffer; code: number }[]>();

  constructor(private readonly collector: CaseCollector) {}

  code(buf: Buffer, from: number, to: number): number {
    let h = 0x811c9dc5;
    for (let k = from; k < to; k++) h = Math.imul(h ^ buf[k]!, 0x01000193);
    let bucket = this.table.get(h);
    if (bucket) {
      for (const entry of bucket) if (sameBytes(entry.bytes, buf, from, to)) return entry.code;
    } else {
      bucket = [];
      this.table.set(h, bucket);
    }
    const code = this.collector.code(buf.toString('utf8', from, to));
    bucket.push({ bytes: Buffer.from(buf.subarray(from, to)), code });
    return code;
  }
}

function sameBytes(a: Buffer, buf: Buffer, from: number, to: number): boolean {
  if (a.length !== to - from) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== buf[from + k]) return false;
  return true;
}
