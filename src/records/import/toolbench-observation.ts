import { MAX_VALUE_DEPTH, parseJsonBounded } from '../../util/json-depth.js';
/**
 * Parsing the two JSON strings a ToolBench path carries per call (docs/DESIGN.md, "Data formats" §4, steps 4-5, §8):
 * the model's `arguments` and the tool's observation `content` (`{"error", "response"}`), which is
 * often cut at the maximum observation length and then not valid JSON.
 */

/** The key that holds arguments that were not a JSON object, so such a call never equals a valid one. */
export const UNPARSED_ARGUMENTS_KEY = '__unparsed_arguments';

/** Parses `function_call.arguments`: empty → `{}`; a JSON object → itself; anything else is kept under UNPARSED_ARGUMENTS_KEY. */
export function parseArguments(text: string | null | undefined): { args: Record<string, unknown>; parsed: boolean } {
  const s = (text ?? '').trim();
  if (s === '') return { args: {}, parsed: true };
  try {
    const value: unknown = parseJsonBounded(s, MAX_VALUE_DEPTH);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return { args: value as Record<string, unknown>, parsed: true };
  } catch {
    // fall through
  }
  return { args: { [UNPARSED_ARGUMENTS_KEY]: s }, parsed: false };
}

export interface Observation {
  /** The response as recorded (usually a Python-literal string); the raw content when it was truncated. */
  output: unknown;
  status: 'ok' | 'error';
  truncated: boolean;
}

const LEADING_ERROR = /^\s*\{\s*"error"\s*:\s*"((?:[^"\\]|\\.)*)"/;

/**
 * Reads an observation: JSON `{error, response}` → output = response (or the error text when the
 * response is empty), status = error when `error` is not empty. Content that is not valid JSON (cut
 * off with `...`) is kept as the raw string; its status comes from the leading `"error"` field when
 * that survived the cut.
 */
export function parseObservation(content: string | null | undefined): Observation {
  const raw = content ?? '';
  try {
    const value: unknown = parseJsonBounded(raw, MAX_VALUE_DEPTH);
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'error' in value) {
      const { error, response } = value as { error?: unknown; response?: unknown };
      const err = typeof error === 'string' ? error : error ? JSON.stringify(error) : '';
      const empty = response === undefined || response === null || response === '';
      return { output: empty && err ? err : (response ?? ''), status: err ? 'error' : 'ok', truncated: false };
    }
    return { output: value, status: 'ok', truncated: false };
  } catch {
    const m = LEADING_ERROR.exec(raw);
    return { output: raw, status: m && m[1] !== '' ? 'error' : 'ok', truncated: true };
  }
}

/** The reference answer from the double-encoded `final_answer` (ToolBench's own fallback when it is not JSON). */
export function parseFinalAnswer(text: string | null | undefined): { answer: string; returnType?: string } | undefined {
  const s = text ?? '';
  try {
    const value = parseJsonBounded(s, MAX_VALUE_DEPTH) as { final_answer?: unknown; return_type?: unknown };
    if (value && typeof value === 'object') {
      const returnType = typeof value.return_type === 'string' ? value.return_type : undefined;
      if (typeof value.final_answer === 'string') return { answer: value.final_answer, returnType };
      return returnType ? { answer: '', returnType } : undefined;
    }
  } catch {
    // ToolBench: take the text after `"final_answer": "`.
    const at = s.indexOf('"final_answer": "');
    if (at >= 0) return { answer: s.slice(at + '"final_answer": "'.length).replace(/"\s*}?\s*$/, '') };
  }
  return undefined;
}
