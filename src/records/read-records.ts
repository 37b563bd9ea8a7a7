import { writeTextFile } from '../util/json-file.js';
import { readJsonlFile } from './read-jsonl.js';
import { RecordSchema, type TaskRecord } from './schema.js';

/**
 * Reading and writing the native record format: JSONL, one `TaskRecord` a line (docs/DESIGN.md, "Records").
 * The reader streams (records files can be large), checks every line against `RecordSchema`, and
 * names the file, line and field of every bad line; a repeated id is a bad line too.
 */

export interface ReadRecordsOptions {
  /** Skip invalid lines (and duplicate ids) instead of failing; they are counted in `skipped`. */
  skipInvalid?: boolean;
  /** At most this many problems are kept in the result and the error (default 50); the rest are counted. */
  maxProblems?: number;
}

export interface ReadRecordsResult {
  records: TaskRecord[];
  /** Lines skipped because they were invalid (only with `skipInvalid`). */
  skipped: number;
  /** Every problem found (up to `maxProblems`), formatted `file:line ($.path): message`. */
  problems: string[];
}

/** What to do when a records file is missing: every importer that writes one (`flowscout import --help`). */
export const RECORDS_MISSING_HINT =
  'Check the path, or create records with `flowscout import <source> … --out <dir>`; sources: traject, toolbench (datasets), openai, anthropic, ai-sdk, otel, or auto (agent logs).';

/**
 * Reads a records JSONL file. Blank lines are ignored. By default any bad line (not JSON, not a
 * record, or a repeated id) makes it throw one FlowScoutError (PARSE_ERROR when a line is not JSON,
 * else INVALID_INPUT) listing every problem in the file, so the user can fix them all at once;
 * with `skipInvalid` the bad lines are skipped and counted.
 */
export async function readRecordsFile(path: string, opts: ReadRecordsOptions = {}): Promise<ReadRecordsResult> {
  const res = await readJsonlFile(path, RecordSchema, {
    ...opts,
    uniqueKey: (r) => r.id,
    noun: 'record',
    shape: 'id, query, reference, calls',
    missingHint: RECORDS_MISSING_HINT,
  });
  return { records: res.values, skipped: res.skipped, problems: res.problems };
}

/** Writes records as JSONL (one compact JSON object a line); refuses to overwrite unless `force`. */
export function writeRecordsFile(path: string, records: readonly TaskRecord[], opts: { force?: boolean } = {}): void {
  const text = records.map((r) => JSON.stringify(r)).join('\n');
  writeTextFile(path, records.length ? `${text}\n` : '', opts);
}
