import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { z } from 'zod';
import { FlowScoutError } from '../errors/index.js';
import { JsonTooDeepError, parseJsonBounded } from '../util/json-depth.js';
import { requireFile } from '../util/require-file.js';
import { describeIssue, formatLineProblem, type LineProblem } from './issue-text.js';
import { findMessageArray } from './import/locate-messages.js';

/**
 * A streaming JSONL reader that checks every line against a zod schema and names the file, line
 * and field of every bad line. Records (read-records.ts) and predictions (metrics) both use it.
 */

export interface ReadJsonlOptions<T> {
  /** Skip invalid lines instead of failing; they are counted in `skipped`. */
  skipInvalid?: boolean;
  /** At most this many problems are kept (default 50); the rest are counted. */
  maxProblems?: number;
  /** When given, two lines with the same key are a problem (the later one is the bad line). */
  uniqueKey?: (value: T) => string;
  /** What a line holds, for messages: "record", "prediction". */
  noun: string;
  /** What a valid line looks like, for the hint. */
  shape: string;
  /** Hint line for a missing file. */
  missingHint: string;
}

export interface ReadJsonlResult<T> {
  values: T[];
  /** 1-based line number of each value. */
  lines: number[];
  skipped: number;
  problems: string[];
}

/**
 * Reads `path` line by line (blank lines ignored, BOM stripped). By default any bad line makes it
 * throw one FlowScoutError listing every problem in the file (PARSE_ERROR when a line is not JSON,
 * else INVALID_INPUT); with `skipInvalid` bad lines are skipped and counted.
 */
export async function readJsonlFile<S extends z.ZodType>(
  path: string,
  schema: S,
  opts: ReadJsonlOptions<z.infer<S>>,
): Promise<ReadJsonlResult<z.infer<S>>> {
  assertReadableFile(path, opts);
  const maxProblems = opts.maxProblems ?? 50;
  const values: Array<z.infer<S>> = [];
  const lines: number[] = [];
  const firstLineOf = new Map<string, number>();
  const problems: LineProblem[] = [];
  let problemCount = 0;
  let badLines = 0;
  let notJson = false;
  let lineNo = 0;
  const report = (p: LineProblem) => {
    problemCount++;
    if (problems.length < maxProblems) problems.push(p);
  };

  const reader = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const raw of reader) {
    lineNo++;
    const text = (lineNo === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (text === '') continue;
    let value: unknown;
    try {
      value = parseJsonBounded(text);
    } catch (e) {
      badLines++;
      notJson = true;
      if (e instanceof JsonTooDeepError) {
        report({ file: path, line: lineNo, message: `the JSON is ${e.message} (at column ${e.offset + 1})` });
        continue;
      }
      if (lineNo === 1 && (text.startsWith('[') || text.startsWith('{'))) wholeDocument(path, opts);
      const why = e instanceof Error ? e.message.replace(/ in JSON at position \d+.*$/s, '') : String(e);
      const arrayHint =
        lineNo === 1 && text.startsWith('[')
          ? ` (this looks like a JSON array; ${opts.noun} files are JSONL: one ${opts.noun} object a line)`
          : '';
      report({ file: path, line: lineNo, message: `not valid JSON: ${why}${arrayHint}` });
      continue;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      badLines++;
      for (const issue of parsed.error.issues) report({ file: path, line: lineNo, ...describeIssue(issue, value) });
      continue;
    }
    if (opts.uniqueKey) {
      const key = opts.uniqueKey(parsed.data);
      const first = firstLineOf.get(key);
      if (first !== undefined) {
        badLines++;
        report({
          file: path,
          line: lineNo,
          path: '$.id',
          message: `duplicate id '${key}' (first used on line ${first})`,
        });
        continue;
      }
      firstLineOf.set(key, lineNo);
    }
    values.push(parsed.data);
    lines.push(lineNo);
  }

  const texts = problems.map(formatLineProblem);
  if (problemCount > problems.length) texts.push(`… and ${problemCount - problems.length} more problems`);
  if (badLines > 0 && !opts.skipInvalid) {
    throw new FlowScoutError({
      code: notJson ? 'PARSE_ERROR' : 'INVALID_INPUT',
      message: `${badLines} invalid line${badLines === 1 ? '' : 's'} of ${lineNo}:\n  ${texts.join('\n  ')}`,
      hint: `Fix these lines (one ${opts.noun} object a line: ${opts.shape}), or pass --skip-invalid to skip them.`,
      location: { file: path },
      details: { problems: texts },
    });
  }
  return { values, lines, skipped: opts.skipInvalid ? badLines : 0, problems: texts };
}

/** Files up to this size are parsed whole when their first line is not JSON on its own (see `wholeDocument`). */
const WHOLE_DOCUMENT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A first line that opens a JSON document without closing it: when the whole file is one JSON
 * document (pretty-printed, or an array), say so once, with what it seems to hold, instead of a
 * problem for each of its lines. Returns when the file is not one JSON document (or too large to
 * parse whole), and the lines are reported one by one.
 */
function wholeDocument(path: string, opts: { noun: string; shape: string }): void {
  if (statSync(path).size > WHOLE_DOCUMENT_MAX_BYTES) return;
  let doc: unknown;
  try {
    doc = parseJsonBounded(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return;
  }
  const items = Array.isArray(doc) ? doc : [doc];
  const what = Array.isArray(doc)
    ? `one JSON array of ${doc.length} item${doc.length === 1 ? '' : 's'}`
    : 'one JSON object spread over several lines';
  throw new FlowScoutError({
    code: 'PARSE_ERROR',
    message: `${path} is ${what}, not JSONL (one ${opts.noun} object a line: ${opts.shape})${seemsToHold(items)}`,
    hint:
      `Write one ${opts.noun} a line (for an array: \`jq -c '.[]' ${path} > ${opts.noun}s.jsonl\`). ` +
      "Tool definitions go to --tools; an agent's own logs (runs with their messages) are read by `flowscout import auto <file>`.",
    location: { file: path },
  });
}

/** What a document's items look like, when they look like something FlowScout reads elsewhere. */
function seemsToHold(items: readonly unknown[]): string {
  const first = items.find((x): x is Record<string, unknown> => typeof x === 'object' && x !== null);
  if (!first) return '';
  const has = (k: string) => k in first;
  if (has('name') && (has('inputSchema') || has('input_schema') || has('parameters') || has('function')))
    return '; its items look like tool definitions (name and a parameter schema)';
  if (findMessageArray(first) !== undefined || typeof first.role === 'string')
    return "; its items look like an agent's runs or messages";
  return '';
}

function assertReadableFile(path: string, opts: { noun: string; missingHint: string }): void {
  requireFile(path, { what: `${opts.noun}s file`, hint: opts.missingHint, folder: 'allowed' });
  if (statSync(path).isDirectory()) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `${path} is a directory, not a ${opts.noun}s file`,
      hint: `Pass the JSONL file of ${opts.noun}s inside it.`,
      location: { file: path },
    });
  }
}
