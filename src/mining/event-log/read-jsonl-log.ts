import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { gzipError } from '../../errors/to-flowscout-error.js';
import { FlowScoutError } from '../../errors/index.js';
import { JsonTooDeepError, parseJsonBounded } from '../../util/json-depth.js';
import { requireFile } from '../../util/require-file.js';
import type { EventLog } from './event-log.js';
import { buildOrderedLog, type CaseOrder, type RawCase } from './order-cases.js';
import { parseTimestamp } from './timestamps.js';

/** Options of `readJsonlLog`. */
export interface ReadJsonlLogOptions {
  /** Default `pm4py`: cases sorted by case-id string, events by timestamp where given. */
  order?: CaseOrder;
  /** Skip bad lines (counted in `log.skipped`) instead of refusing the file. */
  skipInvalid?: boolean;
}

/**
 * Reads a JSONL event log, one case a line:
 * `{"case": "c1", "events": [{"activity": "search", "timestamp": "2024-01-01T10:00:00Z"}, …]}`
 * or with the activities as plain strings, `{"case": "c1", "events": ["search", "fetch"]}`
 * (`timestamp` optional; `case` a string or number). Streams the file line by line. Errors name the
 * file, the line and the JSON path. Ordering follows PM4Py's DataFrame path (docs/DESIGN.md, "Matching PM4Py" §0): zero-padded
 * case ids keep file order.
 */
export async function readJsonlLog(file: string, opts: ReadJsonlLogOptions = {}): Promise<EventLog> {
  requireFile(file, { what: 'event log' });
  const cases: RawCase[] = [];
  const skipped: Record<string, number> = {};
  let skippedCount = 0;
  await forEachLine(file, (text, line) => {
    if (text.trim() === '') return;
    if (!opts.skipInvalid) return readCase(text, line);
    try {
      readCase(text, line);
    } catch (e) {
      const why = (e as { location?: { path?: string } }).location?.path === '$' ? 'not a case object' : `bad ${(e as { location?: { path?: string } }).location?.path?.replace(/\[\d+\]/g, '[]') ?? 'line'}`;
      skipped[why] = (skipped[why] ?? 0) + 1;
      skippedCount++;
    }
  });
  const log = buildOrderedLog(cases, opts.order ?? 'pm4py', file);
  if (skippedCount > 0) log.skipped = { count: skippedCount, reasons: skipped };
  return log;

  function readCase(text: string, line: number): void {
    let value: unknown;
    try {
      value = parseJsonBounded(text);
    } catch (e) {
      if (e instanceof JsonTooDeepError) throw bad(file, line, '$', `the JSON is ${e.message} (at column ${e.offset + 1})`);
      throw bad(file, line, '$', `not valid JSON (${(e as Error).message})`);
    }
    const obj = value as { case?: unknown; events?: unknown };
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw bad(file, line, '$', 'expected an object {"case": …, "events": […]}');
    if (typeof obj.case !== 'string' && typeof obj.case !== 'number') throw bad(file, line, '$.case', 'expected the case id as a string or number');
    if (!Array.isArray(obj.events)) throw bad(file, line, '$.events', 'expected an array of events');
    const activities: string[] = new Array(obj.events.length);
    let timestamps: number[] | undefined;
    for (let i = 0; i < obj.events.length; i++) {
      // An event is an object {"activity", "timestamp"?} or the activity itself as a plain string.
      const raw = obj.events[i] as unknown;
      if (typeof raw === 'string') {
        if (raw === '') throw bad(file, line, `$.events[${i}]`, 'expected a non-empty activity name');
        activities[i] = raw;
        continue;
      }
      const ev = raw as { activity?: unknown; timestamp?: unknown } | null;
      const activity = ev?.activity;
      if (typeof activity !== 'string' || activity === '') throw bad(file, line, `$.events[${i}].activity`, 'expected a non-empty string');
      activities[i] = activity;
      if (ev!.timestamp !== undefined) {
        const ts = parseTimestamp(ev!.timestamp);
        if (Number.isNaN(ts)) throw bad(file, line, `$.events[${i}].timestamp`, `cannot read timestamp ${JSON.stringify(ev!.timestamp)}; use ISO 8601 or a number`);
        timestamps ??= new Array(obj.events.length).fill(Number.NaN);
        timestamps[i] = ts;
      }
    }
    cases.push(timestamps ? { id: String(obj.case), activities, timestamps } : { id: String(obj.case), activities });
  }
}

function bad(file: string, line: number, path: string, message: string): FlowScoutError {
  return new FlowScoutError({
    code: 'PARSE_ERROR',
    message,
    hint: 'Each line of a JSONL event log is {"case": "c1", "events": [{"activity": "search", "timestamp": "…"}]} or {"case": "c1", "events": ["search", "fetch"]}.',
    location: { file, line, path },
  });
}

/** Calls `onLine(text, lineNumber)` for every line of a (possibly gzipped) text file, streamed. */
export async function forEachLine(file: string, onLine: (text: string, line: number) => void): Promise<void> {
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  const stream = file.toLowerCase().endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (e) => stream.destroy(e));
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let line = 0;
  const feed = (text: string, final: boolean) => {
    const s = rest + text;
    let from = 0;
    for (let nl = s.indexOf('\n'); nl >= 0; nl = s.indexOf('\n', from)) {
      line++;
      onLine(s.charCodeAt(nl - 1) === 13 ? s.slice(from, nl - 1) : s.slice(from, nl), line);
      from = nl + 1;
    }
    rest = s.slice(from);
    if (final && rest.length > 0) {
      line++;
      onLine(rest, line);
      rest = '';
    }
  };
  let first = true;
  try {
    for await (const chunk of stream) {
      let text = decoder.write(chunk as Buffer);
      // A UTF-8 byte-order mark (Windows editors write one) is not part of the first line.
      if (first && text.length > 0) {
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        first = false;
      }
      feed(text, false);
    }
  } catch (e) {
    throw (e instanceof Error && gzipError(e, file)) || e;
  }
  feed(decoder.end(), true);
}
