import { createReadStream, existsSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { FlowScoutError } from '../errors/index.js';
import { writeTextFile } from '../util/json-file.js';
import { describeIssue, formatLineProblem, type LineProblem } from './issue-text.js';
import { RecordSchema, type TaskRecord } from './schema.js';

/**
 * Reading and writing the native record format: JSONL, one `TaskRecord` a line (DESIGN.md, "records").
 * The reader streams (records files can be large), checks every line against `RecordSchema`, and
 * names the file, line and field of every bad line.
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

/**
 * Reads a records JSONL file. Blank lines are ignored. By default any bad line (not JSON, not a
 * record, or a repeated id) makes it throw one FlowScoutError (PARSE_ERROR when a line is not JSON,
 * else INVALID_INPUT) listing every problem in the file, so the user can fix them all at once;
 * with `skipInvalid` the bad lines are skipped and counted.
 */
export async function readRecordsFile(path: string, opts: ReadRecordsOptions = {}): Promise<ReadRecordsResult> {
  assertReadableFile(path);
  const maxProblems = opts.maxProblems ?? 50;
  const records: TaskRecord[] = [];
  const firstLineOfId = new Map<string, number>();
  const problems: LineProblem[] = [];
  let problemCount = 0;
  let badLines = 0;
  let notJson = false;
  let lineNo = 0;
  const report = (p: LineProblem) => {
    problemCount++;
    if (problems.length < maxProblems) problems.push(p);
  };

  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const raw of lines) {
    lineNo++;
    const text = (lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (text === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      badLines++;
      notJson = true;
      const why = e instanceof Error ? e.message.replace(/ in JSON at position \d+.*$/s, '') : String(e);
      const arrayHint = lineNo === 1 && text.startsWith('[') ? ' (this looks like a JSON array; records files are JSONL: one record object a line)' : '';
      report({ file: path, line: lineNo, message: `not valid JSON: ${why}${arrayHint}` });
      continue;
    }
    const parsed = RecordSchema.safeParse(value);
    if (!parsed.success) {
      badLines++;
      for (const issue of parsed.error.issues) report({ file: path, line: lineNo, ...describeIssue(issue, value) });
      continue;
    }
    const first = firstLineOfId.get(parsed.data.id);
    if (first !== undefined) {
      badLines++;
      report({ file: path, line: lineNo, path: '$.id', message: `duplicate id '${parsed.data.id}' (first used on line ${first})` });
      continue;
    }
    firstLineOfId.set(parsed.data.id, lineNo);
    records.push(parsed.data);
  }

  const texts = problems.map(formatLineProblem);
  if (problemCount > problems.length) texts.push(`… and ${problemCount - problems.length} more problems`);
  if (badLines > 0 && !opts.skipInvalid) {
    throw new FlowScoutError({
      code: notJson ? 'PARSE_ERROR' : 'INVALID_INPUT',
      message: `${badLines} invalid line${badLines === 1 ? '' : 's'} of ${lineNo}:\n  ${texts.join('\n  ')}`,
      hint: 'Fix these lines (one record object a line: id, query, reference, calls), or pass --skip-invalid to skip them.',
      location: { file: path },
      details: { problems: texts },
    });
  }
  return { records, skipped: opts.skipInvalid ? badLines : 0, problems: texts };
}

/** Writes records as JSONL (one compact JSON object a line); refuses to overwrite unless `force`. */
export function writeRecordsFile(path: string, records: readonly TaskRecord[], opts: { force?: boolean } = {}): void {
  const text = records.map((r) => JSON.stringify(r)).join('\n');
  writeTextFile(path, records.length ? `${text}\n` : '', opts);
}

function assertReadableFile(path: string): void {
  if (!existsSync(path)) {
    throw new FlowScoutError({
      code: 'FILE_NOT_FOUND',
      message: `records file not found: ${path}`,
      hint: 'Check the path, or create records with `flowscout import traject|toolbench … --out <dir>`.',
      location: { file: path },
    });
  }
  if (statSync(path).isDirectory()) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${path} is a directory, not a records file`,
      hint: 'Pass the records.jsonl file inside it.',
      location: { file: path },
    });
  }
}
