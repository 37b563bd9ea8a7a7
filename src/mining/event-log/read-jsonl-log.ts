import { FlowScoutError } from '../../errors/index.js';
import { JsonTooDeepError, parseJsonBounded } from '../../util/json-depth.js';
import { requireFile } from '../../util/require-file.js';
import type { EventLog } from './event-log.js';
import { CaseCollector, type CaseOrder } from './order-cases.js';
import { limitError, readChunks, resolveLimits, type ReaderLimits } from './read-limits.js';
import { parseTimestamp } from './timestamps.js';

/** Options of `readJsonlLog`. */
export interface ReadJsonlLogOptions {
  /** Default `pm4py`: cases sorted by case-id string, events by timestamp where given. */
  order?: CaseOrder;
  /** Skip bad lines (counted in `log.skipped`) instead of refusing the file. */
  skipInvalid?: boolean;
  /** Caps on unpacked size and line length (see `ReaderLimits`; defaults when omitted). */
  limits?: ReaderLimits;
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
  const collector = new CaseCollector();
  const skipped: Record<string, number> = {};
  let skippedCount = 0;
  await forEachLine(
    file,
    (text, line) => {
      if (text.trim() === '') return;
      if (!opts.skipInvalid) return readCase(text, line);
      try {
        readCase(text, line);
      } catch (e) {
        const why =
          (e as { location?: { path?: string } }).location?.path === '$'
            ? 'not a case object'
            : `bad ${(e as { location?: { path?: string } }).location?.path?.replace(/\[\d+\]/g, '[]') ?? 'line'}`;
        skipped[why] = (skipped[why] ?? 0) + 1;
        skippedCount++;
      }
    },
    opts.limits,
  );
  const log = collector.build(opts.order ?? 'pm4py', file);
  if (skippedCount > 0) log.skipped = { count: skippedCount, reasons: skipped };
  return log;

  function readCase(text: string, line: number): void {
    let value: unknown;
    try {
      value = parseJsonBounded(text);
    } catch (e) {
      if (e instanceof JsonTooDeepError)
        throw bad(file, line, '$', `the JSON is ${e.message} (at column ${e.offset + 1})`);
      throw bad(file, line, '$', `not valid JSON (${(e as Error).message})`);
    }
    const obj = value as { case?: unknown; events?: unknown };
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
      throw bad(file, line, '$', 'expected an object {"case": …, "events": […]}');
    if (typeof obj.case !== 'string' && typeof obj.case !== 'number')
      throw bad(file, line, '$.case', 'expected the case id as a string or number');
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
      if (typeof activity !== 'string' || activity === '')
        throw bad(file, line, `$.events[${i}].activity`, 'expected a non-empty string');
      activities[i] = activity;
      if (ev!.timestamp !== undefined) {
        const ts = parseTimestamp(ev!.timestamp);
        if (Number.isNaN(ts))
          throw bad(
            file,
            line,
            `$.events[${i}].timestamp`,
            `cannot read timestamp ${JSON.stringify(ev!.timestamp)}; use ISO 8601 or a number`,
          );
        timestamps ??= new Array(obj.events.length).fill(Number.NaN);
        timestamps[i] = ts;
      }
    }
    const segment = collector.segment(String(obj.case));
    for (let i = 0; i < activities.length; i++)
      collector.add(segment, collector.code(activities[i]!), timestamps ? timestamps[i]! : Number.NaN);
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

/**
 * Calls `onLine(text, lineNumber)` for every line of a (possibly gzipped) text file, streamed. Lines
 * are split on the bytes (a line that spans chunks is joined once, so a long line costs its length,
 * not its length times the chunks); a line longer than `maxTokenBytes`, or a `.gz` that unpacks past
 * `maxUnpackedBytes`, is refused with INPUT_TOO_LARGE naming the line and the option to raise it.
 */
export async function forEachLine(
  file: string,
  onLine: (text: string, line: number) => void,
  limits?: ReaderLimits,
): Promise<void> {
  const resolved = resolveLimits(limits);
  const max = resolved.maxTokenBytes;
  let pieces: Buffer[] = [];
  let pending = 0;
  let line = 0;
  const emit = (buf: Buffer, from: number, to: number) => {
    line++;
    if (to > from && buf[to - 1] === 13) to--;
    // A UTF-8 byte-order mark (Windows editors write one) is not part of the first line.
    if (line === 1 && to - from >= 3 && buf[from] === 0xef && buf[from + 1] === 0xbb && buf[from + 2] === 0xbf)
      from += 3;
    onLine(buf.toString('utf8', from, to), line);
  };
  const tooLong = () => limitError(file, 'maxTokenBytes', max, `line ${line + 1}`, line + 1);
  for await (const chunk of readChunks(file, resolved)) {
    let from = 0;
    let nl = chunk.indexOf(10);
    if (pending > 0) {
      if (nl < 0) {
        pieces.push(chunk);
        pending += chunk.length;
        if (pending > max) throw tooLong();
        continue;
      }
      if (pending + nl > max) throw tooLong();
      pieces.push(chunk.subarray(0, nl));
      const whole = Buffer.concat(pieces, pending + nl);
      pieces = [];
      pending = 0;
      emit(whole, 0, whole.length);
      from = nl + 1;
      nl = chunk.indexOf(10, from);
    }
    while (nl >= 0) {
      if (nl - from > max) throw tooLong();
      emit(chunk, from, nl);
      from = nl + 1;
      nl = chunk.indexOf(10, from);
    }
    if (from < chunk.length) {
      pieces.push(chunk.subarray(from));
      pending = chunk.length - from;
      if (pending > max) throw tooLong();
    }
  }
  if (pending > 0) {
    const whole = Buffer.concat(pieces, pending);
    emit(whole, 0, whole.length);
  }
}
