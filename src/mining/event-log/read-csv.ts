import { openSync, readSync, closeSync } from 'node:fs';
import { FlowScoutError } from '../../errors/index.js';
import { requireFile } from '../../util/require-file.js';
import { readCsvRows, guessSeparator } from './csv-rows.js';
import type { EventLog } from './event-log.js';
import { CaseCollector, type CaseOrder } from './order-cases.js';
import type { ReaderLimits } from './read-limits.js';
import { parseTimestamp } from './timestamps.js';

/** Options of `readCsvLog`; columns are detected from the header when not given. */
export interface ReadCsvOptions {
  caseColumn?: string;
  activityColumn?: string;
  /** Without a timestamp column, events keep file order. */
  timestampColumn?: string;
  /** One character; guessed from the header (`,` `;` tab `|`) when omitted. */
  separator?: string;
  order?: CaseOrder;
  /** Skip rows with a blank case id, activity or timestamp (counted in `log.skipped`) instead of refusing the file. */
  skipInvalid?: boolean;
  /** Caps on unpacked size and row length (see `ReaderLimits`; defaults when omitted). */
  limits?: ReaderLimits;
}

/** Header names tried in order when a column is not named (XES names first, then common ones). */
const CANDIDATES = {
  case: ['case:concept:name', 'CaseID', 'Case ID', 'case_id', 'caseid', 'case', 'trace_id', 'trace'],
  activity: ['concept:name', 'Activity', 'activity_name', 'activity', 'event', 'task', 'tool'],
  timestamp: ['time:timestamp', 'Timestamp', 'timestamp', 'time', 'datetime', 'date', 'end_time', 'complete_timestamp'],
} as const;

/**
 * Reads an event log from CSV with named columns (PM4Py's `format_dataframe` path). A row with a
 * blank case id, activity or (when a timestamp column is used) timestamp cannot be placed in a case:
 * PM4Py drops such rows silently; here the file is refused naming the first such lines and their
 * count, unless `skipInvalid`, which drops them and counts them in `log.skipped` (the command says
 * how many and why). A timestamp that does not parse is always an error. Cases are ordered by
 * case-id string and events by timestamp, stably (docs/DESIGN.md, "Matching PM4Py" §0). Errors name the file, the line and
 * the column.
 */
export async function readCsvLog(file: string, opts: ReadCsvOptions = {}): Promise<EventLog> {
  requireFile(file, { what: 'event log' });
  const separator = opts.separator ?? guessSeparator(firstLine(file));
  if (separator.length !== 1) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `the CSV separator must be one character, got ${JSON.stringify(separator)}`,
      hint: 'Use e.g. --separator ";".',
    });
  }
  let header: string[] | null = null;
  let cols = { caseIdx: -1, actIdx: -1, tsIdx: -1 };
  const collector = new CaseCollector();
  const byId = new Map<string, number>();
  const skipped = { rows: 0, why: {} as Record<string, number>, lines: [] as number[] };
  const skip = (why: string, line: number) => {
    skipped.rows++;
    skipped.why[why] = (skipped.why[why] ?? 0) + 1;
    if (skipped.lines.length < 5) skipped.lines.push(line);
  };
  await readCsvRows(
    file,
    separator,
    (fields, line) => {
      if (!header) {
        header = fields.map((h) => h.trim());
        cols = resolveColumns(header, opts, file);
        return;
      }
      const id = fields[cols.caseIdx]?.trim() ?? '';
      const activity = fields[cols.actIdx] ?? '';
      if (id === '') return skip(`blank case id (column '${header[cols.caseIdx]}')`, line);
      if (activity.trim() === '') return skip(`blank activity (column '${header[cols.actIdx]}')`, line);
      let ts = Number.NaN;
      if (cols.tsIdx >= 0) {
        ts = parseTimestamp(fields[cols.tsIdx] ?? '');
        if (Number.isNaN(ts)) {
          if ((fields[cols.tsIdx] ?? '').trim() === '')
            return skip(`blank timestamp (column '${header[cols.tsIdx]}')`, line);
          throw new FlowScoutError({
            code: 'PARSE_ERROR',
            message: `cannot read timestamp ${JSON.stringify(fields[cols.tsIdx])} in column '${header[cols.tsIdx]}'`,
            hint: 'Use ISO 8601 timestamps (2024-01-31 13:45:00+01:00), or name another column with --timestamp-column.',
            location: { file, line },
          });
        }
      }
      let segment = byId.get(id);
      if (segment === undefined) {
        segment = collector.segment(id);
        byId.set(id, segment);
      }
      collector.add(segment, collector.code(activity), ts);
    },
    opts.limits,
  );
  if (!header) {
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `${file} is empty`,
      hint: 'A CSV event log needs a header row and one row per event.',
      location: { file },
    });
  }
  if (skipped.rows > 0 && !opts.skipInvalid) {
    const reasons = Object.entries(skipped.why)
      .map(([why, n]) => `${n} with a ${why}`)
      .join(', ');
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${file}: ${skipped.rows} row${skipped.rows === 1 ? '' : 's'} cannot be placed in a case (${reasons}), first on line${skipped.lines.length === 1 ? '' : 's'} ${skipped.lines.join(', ')}`,
      hint: 'Fill in those cells, or pass --skip-invalid to leave those rows out (they are counted).',
      location: { file, line: skipped.lines[0]! },
    });
  }
  const log = collector.build(opts.order ?? 'pm4py', file);
  if (skipped.rows > 0) log.skipped = { count: skipped.rows, reasons: skipped.why };
  return log;
}

function resolveColumns(header: string[], opts: ReadCsvOptions, file: string) {
  const find = (kind: keyof typeof CANDIDATES, named: string | undefined, required: boolean): number => {
    if (named !== undefined) {
      const i = header.indexOf(named);
      if (i < 0) {
        throw new FlowScoutError({
          code: 'INVALID_INPUT',
          message: `${file} has no column '${named}' (${kind}); columns: ${header.join(', ')}`,
          hint: `Name one of the columns above with --${kind === 'case' ? 'case' : kind}-column.`,
          location: { file, line: 1 },
        });
      }
      return i;
    }
    for (const cand of CANDIDATES[kind]) {
      const i = header.indexOf(cand);
      if (i >= 0) return i;
    }
    const lower = header.map((h) => h.toLowerCase().replace(/[^a-z0-9]/g, ''));
    for (const cand of CANDIDATES[kind]) {
      const i = lower.indexOf(cand.toLowerCase().replace(/[^a-z0-9]/g, ''));
      if (i >= 0) return i;
    }
    if (!required) return -1;
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${file}: cannot tell which column holds the ${kind === 'case' ? 'case id' : 'activity'}; columns: ${header.join(', ')}`,
      hint: `Pass --${kind}-column <name> (looked for ${CANDIDATES[kind].join(', ')}).`,
      location: { file, line: 1 },
    });
  };
  return {
    caseIdx: find('case', opts.caseColumn, true),
    actIdx: find('activity', opts.activityColumn, true),
    tsIdx: find('timestamp', opts.timestampColumn, false),
  };
}

/** The first line of a file (for separator detection), without reading the whole file. */
function firstLine(file: string): string {
  if (file.toLowerCase().endsWith('.gz')) return ',';
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(65536);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    const nl = text.search(/\r?\n/);
    return nl < 0 ? text : text.slice(0, nl);
  } finally {
    closeSync(fd);
  }
}
