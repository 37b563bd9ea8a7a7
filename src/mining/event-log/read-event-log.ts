import { FlowScoutError } from '../../errors/index.js';
import { readRecordsFile } from '../../records/read-records.js';
import type { TaskRecord } from '../../records/schema.js';
import { readFileSync } from 'node:fs';
import { parseJsonBounded } from '../../util/json-depth.js';
import { parseJsonText } from '../../util/json-file.js';
import { requireFile } from '../../util/require-file.js';
import type { EventLog } from './event-log.js';
import { eventLogFromRecords, type FromRecordsOptions } from './from-records.js';
import { readCsvLog, type ReadCsvOptions } from './read-csv.js';
import { forEachLine, readJsonlLog, type ReadJsonlLogOptions } from './read-jsonl-log.js';
import type { ReaderLimits } from './read-limits.js';
import { readXes, type ReadXesOptions } from './read-xes.js';

/** What `readEventLog` found in a file. */
export type EventLogSource = 'xes' | 'csv' | 'jsonl-events' | 'records';

export interface ReadEventLogOptions
  extends ReadCsvOptions, Pick<ReadXesOptions, 'caseKey' | 'activityKey' | 'timestampKey' | 'lifecycle'> {
  /** Caps on unpacked size and token lengths for every format (see `ReaderLimits`). */
  limits?: ReaderLimits;
  /** For records: how calls become activities. */
  activity?: FromRecordsOptions['activity'];
  /** Skip (and count, in `log.skipped`) what cannot be read instead of refusing the file. */
  skipInvalid?: boolean;
}

export interface ReadEventLogResult {
  log: EventLog;
  source: EventLogSource;
  /** The records, when the file held records. */
  records?: TaskRecord[];
}

/**
 * Reads any input the `mine` command accepts, by extension and, for JSONL, by the first line:
 * `.xes` / `.xes.gz` (XES), `.csv` (named columns), `.jsonl` / `.json` holding either records
 * (`{"id", "query", "calls", …}`, mined with one case per record) or an event log
 * (`{"case", "events"}`).
 */
export async function readEventLog(file: string, opts: ReadEventLogOptions = {}): Promise<ReadEventLogResult> {
  requireFile(file);
  const lower = file.toLowerCase().replace(/\.gz$/, '');
  if (lower.endsWith('.xes')) {
    const xesOpts: ReadXesOptions = {};
    if (opts.caseKey) xesOpts.caseKey = opts.caseKey;
    if (opts.activityKey ?? opts.activityColumn) xesOpts.activityKey = (opts.activityKey ?? opts.activityColumn)!;
    if (opts.timestampKey ?? opts.timestampColumn) xesOpts.timestampKey = (opts.timestampKey ?? opts.timestampColumn)!;
    if (opts.lifecycle) xesOpts.lifecycle = opts.lifecycle;
    if (opts.skipInvalid) xesOpts.skipInvalid = true;
    if (opts.limits) xesOpts.limits = opts.limits;
    return { log: await readXes(file, xesOpts), source: 'xes' };
  }
  if (lower.endsWith('.csv') || lower.endsWith('.tsv')) {
    const csvOpts: ReadCsvOptions = { ...opts };
    if (lower.endsWith('.tsv') && !csvOpts.separator) csvOpts.separator = '\t';
    return { log: await readCsvLog(file, csvOpts), source: 'csv' };
  }
  if (lower.endsWith('.jsonl') || lower.endsWith('.json') || lower.endsWith('.ndjson')) {
    const kind = await sniffJsonl(file, opts.limits);
    if (kind === 'records') {
      const { records, skipped } = await readRecordsFile(file, opts.skipInvalid ? { skipInvalid: true } : {});
      const fromOpts: FromRecordsOptions = {};
      if (opts.activity) fromOpts.activity = opts.activity;
      const log = eventLogFromRecords(records, fromOpts);
      log.source = file;
      if (skipped > 0) log.skipped = { count: skipped, reasons: { 'invalid record line': skipped } };
      return { log, source: 'records', records };
    }
    const jsonlOpts: ReadJsonlLogOptions = {};
    if (opts.skipInvalid) jsonlOpts.skipInvalid = true;
    if (opts.limits) jsonlOpts.limits = opts.limits;
    return { log: await readJsonlLog(file, jsonlOpts), source: 'jsonl-events' };
  }
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `cannot tell the format of ${file} from its extension`,
    hint: 'Pass records (.jsonl), a JSONL event log (.jsonl), an XES log (.xes, .xes.gz) or a CSV log (.csv).',
    location: { file },
  });
}

/** Looks at the first non-empty line: records have "calls", event logs have "events". */
async function sniffJsonl(file: string, limits: ReaderLimits | undefined): Promise<'records' | 'events'> {
  let first: string | undefined;
  let firstLine = 0;
  try {
    await forEachLine(
      file,
      (text, line) => {
        if (first === undefined && text.trim() !== '') {
          first = text;
          firstLine = line;
          throw STOP;
        }
      },
      limits,
    );
  } catch (e) {
    if (e !== STOP) throw e;
  }
  if (first === undefined) {
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${file} is empty`,
      hint: 'Pass a file with one record or one case a line.',
      location: { file },
    });
  }
  let value: unknown;
  try {
    value = parseJsonBounded(first);
  } catch (e) {
    if (/\.json$/i.test(file)) notJsonLines(file, first);
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${file}:${firstLine}: not valid JSON (${(e as Error).message})`,
      hint: 'Each line must be one JSON object: a record or {"case", "events"}.',
      location: { file, line: firstLine },
    });
  }
  if (value && typeof value === 'object' && 'events' in value) return 'events';
  if (value && typeof value === 'object' && 'calls' in value) return 'records';
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `${file}:${firstLine}: neither a record (with "calls") nor an event-log case (with "events")`,
    hint: 'Records look like {"id", "query", "reference", "calls": [{"tool", "args"}]}; event-log cases like {"case", "events": [{"activity"}]}.',
    location: { file, line: firstLine },
  });
}

/**
 * A `.json` file whose first line is not a whole JSON value: when the file is one JSON document
 * (pretty-printed), say that mine reads JSON Lines and how to convert it; otherwise name where the
 * document breaks. Returns only when the file is not JSON at all in either form.
 */
function notJsonLines(file: string, firstLine: string): void {
  const text = readFileSync(file, 'utf8');
  let doc: unknown;
  try {
    doc = parseJsonText(text, file);
  } catch (e) {
    // A document that opens on a line of its own is pretty-printed JSON: name where it breaks.
    if (/^[[{]$/.test(firstLine.trim())) throw e;
    return;
  }
  const lines = text.split('\n').length;
  const items = Array.isArray(doc)
    ? `an array of ${doc.length} item${doc.length === 1 ? '' : 's'}`
    : doc !== null && typeof doc === 'object'
      ? 'an object'
      : 'a single value';
  throw new FlowScoutError({
    code: 'INVALID_INPUT',
    message: `${file} is one JSON document over ${lines} lines (${items}); mine reads JSON Lines: one record or one {"case", "events"} object a line`,
    hint: Array.isArray(doc)
      ? `Write one item a line, e.g. \`jq -c '.[]' ${file} > ${file.replace(/\.json$/i, '')}.jsonl\`, and mine that file.`
      : 'Write each record or case as one line of a .jsonl file (e.g. with `jq -c`), and mine that file.',
    location: { file },
  });
}

const STOP = new Error('stop');
