import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { FlowScoutError, formatLocation } from '../../errors/index.js';
import { JsonTooDeepError, parseJsonBounded } from '../../util/json-depth.js';
import { parseJsonText } from '../../util/json-file.js';
import { requireFile } from '../../util/require-file.js';

/**
 * The inputs of an agent-log import: files or folders (searched recursively for `.json`, `.jsonl`
 * and `.ndjson`, in name order), each read as one JSON document or, when it is JSON Lines, as one
 * document a line. A line or file that is not JSON becomes a document with a `problem` naming the
 * file, line and column, so the importer can report it with the others (or skip it).
 */

/** One parsed JSON document of an input file (a whole file, or one line of a JSONL file). */
export interface InputDocument {
  file: string;
  /** 1-based line for a JSONL line. */
  line?: number;
  value?: unknown;
  /** Set instead of `value` when the text is not JSON: `file:line:column: not valid JSON: …`. */
  problem?: string;
}

const EXTENSIONS = new Set(['.json', '.jsonl', '.ndjson']);

/** Expands folders into their JSON/JSONL files (sorted); a missing path is FILE_NOT_FOUND. */
export function inputFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    requireFile(p, {
      what: 'input',
      hint: 'Pass log files (JSON or JSONL) or folders that hold them.',
      folder: 'allowed',
    });
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  if (out.length === 0) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `no .json, .jsonl or .ndjson files in ${paths.join(', ')}`,
      hint: 'Pass the log files themselves, or a folder that holds them.',
    });
  }
  return out;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (EXTENSIONS.has(extname(name).toLowerCase())) out.push(p);
  }
  return out;
}

/** Reads every input file into documents. */
export function readInputDocuments(paths: readonly string[]): InputDocument[] {
  return inputFiles(paths).flatMap(readDocuments);
}

/** One file → its documents: the whole file when it is one JSON value, else one per non-empty line. */
export function readDocuments(file: string): InputDocument[] {
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  const nonEmpty = lines.filter((l) => l.trim() !== '');
  if (nonEmpty.length === 0) return [{ file, problem: `${file}: the file is empty` }];
  const jsonLines = /\.(jsonl|ndjson)$/i.test(file) || (nonEmpty.length > 1 && parses(nonEmpty[0]!));
  if (!jsonLines) {
    try {
      return [{ file, value: parseJsonText(text, file) }];
    } catch (e) {
      if (e instanceof FlowScoutError) return [{ file, problem: `${formatLocation(e.location)}${e.message}` }];
      throw e;
    }
  }
  const docs: InputDocument[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    try {
      docs.push({ file, line: i + 1, value: parseJsonBounded(line) });
    } catch (e) {
      if (e instanceof JsonTooDeepError)
        return void docs.push({
          file,
          line: i + 1,
          problem: `${file}:${i + 1}:${e.offset + 1}: the JSON is ${e.message}`,
        });
      const why = e instanceof Error ? e.message.replace(/ in JSON at position \d+.*$/s, '') : String(e);
      docs.push({ file, line: i + 1, problem: `${file}:${i + 1}: not valid JSON: ${why}` });
    }
  });
  return docs;
}

function parses(text: string): boolean {
  try {
    parseJsonBounded(text);
    return true;
  } catch {
    return false;
  }
}
