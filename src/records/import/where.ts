import { FlowScoutError } from '../../errors/index.js';
import { parseJsonPath, valueAt, type JsonPath } from './json-path.js';

/**
 * `--where <json path><op><value>`: which runs of a log to import (e.g. `reward=1`,
 * `info.status!=failed`, `score>=0.5`). Operators `=` (also `==`), `!=`, `<`, `<=`, `>`, `>=`.
 * Values compare as numbers when both sides are numbers, as true/false/null when the value says so,
 * else as text. A run without the field fails `=` and the comparisons and passes `!=`.
 */

export interface WhereCondition {
  text: string;
  path: JsonPath;
  op: '=' | '!=' | '<' | '<=' | '>' | '>=';
  value: string;
}

/** Parses one `--where` expression; INVALID_INPUT saying the form otherwise. */
export function parseWhere(text: string): WhereCondition {
  const m = /^\s*([^!<>=]+?)\s*(!=|==|<=|>=|=|<|>)\s*(.*?)\s*$/.exec(text);
  if (!m || !m[1]) {
    throw new FlowScoutError({
      code: 'INVALID_INPUT',
      message: `--where '${text}' is not a condition`,
      hint: "Write <json path><op><value> with op one of = != < <= > >=, e.g. --where reward=1 or --where 'info.status!=failed'.",
    });
  }
  const op = m[2] === '==' ? '=' : (m[2] as WhereCondition['op']);
  return { text: text.trim(), path: parseJsonPath(m[1], '--where'), op, value: m[3]!.replace(/^(['"])(.*)\1$/, '$2') };
}

/** True when the run satisfies the condition. */
export function matchesWhere(run: unknown, c: WhereCondition): boolean {
  const v = valueAt(run, c.path);
  if (v === undefined) return c.op === '!=';
  const num = Number(c.value);
  const bothNumbers =
    typeof v === 'number'
      ? c.value.trim() !== '' && Number.isFinite(num)
      : typeof v === 'string' &&
        v.trim() !== '' &&
        Number.isFinite(Number(v)) &&
        c.value.trim() !== '' &&
        Number.isFinite(num);
  if (c.op === '=' || c.op === '!=') {
    const same = bothNumbers
      ? Number(v) === num
      : typeof v === 'object'
        ? JSON.stringify(v) === c.value
        : String(v) === c.value;
    return c.op === '=' ? same : !same;
  }
  if (!bothNumbers) {
    const a = String(v);
    return c.op === '<' ? a < c.value : c.op === '<=' ? a <= c.value : c.op === '>' ? a > c.value : a >= c.value;
  }
  const a = Number(v);
  return c.op === '<' ? a < num : c.op === '<=' ? a <= num : c.op === '>' ? a > num : a >= num;
}
