import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { redactText } from './redact.js';
import { basename, dirname, join } from 'node:path';
import { FlowScoutError } from '../errors/index.js';
import { fileSystemError } from '../errors/to-flowscout-error.js';
import { JsonTooDeepError, parseJsonBounded } from './json-depth.js';
import { requireFile } from './require-file.js';

/**
 * Parses JSON text; on a syntax error throws PARSE_ERROR naming the file, line and column, so the
 * user can jump straight to the mistake.
 */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return parseJsonBounded(text);
  } catch (e) {
    if (e instanceof JsonTooDeepError) throw jsonTooDeep(e, text, file);
    const msg = e instanceof Error ? e.message : String(e);
    const { line, column } = positionOf(text, msg);
    if (isJsonLines(text))
      throw new FlowScoutError({
        code: 'PARSE_ERROR',
        message: 'this is JSON Lines (one JSON value a line), but one JSON document is expected here',
        hint: 'Pass the file this option asks for (e.g. the tools.config.json or tools.json that `flowscout import` wrote for --tools); a JSONL file of records goes to --records.',
        location: { file },
        cause: e,
      });
    throw new FlowScoutError({
      code: 'PARSE_ERROR',
      message: `not valid JSON: ${cleanMessage(msg)}`,
      hint: 'Fix the JSON at that line and column (a missing comma, quote or bracket is the usual cause).',
      location: { file, line, column },
      cause: e,
    });
  }
}

/** Text whose first two non-blank lines are each a JSON object or array on its own: JSON Lines. */
function isJsonLines(text: string): boolean {
  const lines: string[] = [];
  for (const raw of text.split('\n', 64)) {
    const line = raw.trim();
    if (line !== '') lines.push(line);
    if (lines.length === 2) break;
  }
  if (lines.length < 2) return false;
  return lines.every((line) => {
    if (!line.startsWith('{') && !line.startsWith('[')) return false;
    try {
      parseJsonBounded(line);
      return true;
    } catch {
      return false;
    }
  });
}

/** PARSE_ERROR for JSON nested deeper than FlowScout reads, at the bracket that crosses the limit. */
export function jsonTooDeep(e: JsonTooDeepError, text: string, file: string, line?: number): FlowScoutError {
  const at = lineColumn(text, e.offset);
  return new FlowScoutError({
    code: 'PARSE_ERROR',
    message: `the JSON is ${e.message}`,
    hint: 'Flatten or remove this value; FlowScout refuses deeper JSON rather than run out of stack on it.',
    location: line === undefined ? { file, ...at } : { file, line, column: at.column },
    cause: e,
  });
}

/** Reads and parses a JSON file (FILE_NOT_FOUND / PARSE_ERROR with the location). */
export function readJsonFile(file: string): unknown {
  requireFile(file);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    // Node names no path for some read errors (a directory): name the file asked for.
    throw (e instanceof Error && fileSystemError(e, file)) || e;
  }
  return parseJsonText(text, file);
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lastNl = -1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lastNl = i;
    }
  }
  return { line, column: end - lastNl };
}

function positionOf(text: string, message: string): { line: number; column: number } {
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /position (\d+)/.exec(message);
  if (pos) return lineColumn(text, Number(pos[1]));
  // V8 gives no position for some errors ("Unexpected token 'x', "x{…" is not valid JSON"): find it.
  const at = firstErrorOffset(text);
  if (at !== undefined) return lineColumn(text, at);
  // "Unexpected end of JSON input": the problem is at the end.
  return lineColumn(text, text.trimEnd().length);
}

/**
 * The offset of the first character that makes `text` invalid JSON, by a small recursive-descent
 * scan (used only after JSON.parse failed, to name the place). `undefined` when the text simply ends
 * too early.
 */
export function firstErrorOffset(text: string): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i++] !== ch) (i--, fail());
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail();
  };
  try {
    value();
    ws();
    return i < text.length ? i : undefined;
  } catch (at) {
    return typeof at === 'number' && at < text.length ? at : undefined;
  }
}

function cleanMessage(message: string): string {
  return message
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/\s*\(line \d+ column \d+\)/, '');
}

export interface WriteOptions {
  /** Overwrite an existing file. Without it, an existing file is an error (nothing is lost). */
  force?: boolean;
}

/**
 * The two file-system calls behind every `writeTextFile`: a seam through which a test makes a write
 * fail part-way (a full disk) without needing one.
 */
export const fileWrites = { writeFileSync, renameSync };

/**
 * Writes a text file, creating its folder; refuses to overwrite unless `force`. The text goes to a
 * temporary file beside it that is then renamed over it, so the file is either whole or as it was
 * (a full disk leaves no half file); a failure is FILE_ACCESS naming the file.
 */
export function writeTextFile(file: string, text: string, opts: WriteOptions = {}): void {
  if (!opts.force && existsSync(file)) {
    throw new FlowScoutError({
      code: 'FILE_EXISTS',
      message: `${file} already exists; not overwriting it`,
      hint: 'Choose another output path, or pass --force to overwrite.',
      location: { file },
    });
  }
  mkdirSync(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    // The one redaction pass (redact.ts): no file FlowScout writes carries a key or a credential.
    fileWrites.writeFileSync(temp, redactText(text));
    fileWrites.renameSync(temp, file);
  } catch (e) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Nothing was made there.
    }
    const named = e instanceof Error ? fileSystemError(e, file) : undefined;
    if (!named) throw e;
    // Named after the file asked for, not the temporary one.
    throw new FlowScoutError({
      code: named.code,
      message: `cannot write ${file}: ${named.message}`,
      ...(named.hint ? { hint: named.hint } : {}),
      location: { file },
      cause: e,
    });
  }
}
