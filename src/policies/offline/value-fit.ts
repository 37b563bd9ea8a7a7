import type { ParamStats } from './cue-stats.js';
import { FILL_WEIGHTS } from './fill-weights.js';
import { findToken, unitFormsAt } from './text.js';
import { contextAt, monthNames, type ValueCandidate } from './value-candidates.js';

/**
 * How a value found in a request fits what the records show of a parameter (fill-args.ts reads it):
 * the family of shapes its values took, whether they are written lower-cased, the template of its
 * dates, and its recorded values that the request writes.
 */

const W = FILL_WEIGHTS;

/** The dominant `{date}` template of a date-shaped parameter, e.g. `{date}T12:00:00.000Z`. */
export function dateTemplate(ps: ParamStats): string | undefined {
  const counts = new Map<string, number>();
  for (const [key, n] of ps.values) {
    const raw = ps.raw.get(key);
    if (typeof raw !== 'string') continue;
    const t = raw.replace(/\d{4}-\d{2}-\d{2}/, '{date}');
    if (t.includes('{date}')) counts.set(t, (counts.get(t) ?? 0) + n);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1])[0];
  return best && best[0] !== '{date}' ? best[0] : undefined;
}

/**
 * True when the records set the parameter often enough (`W.shapeGateMinRecords`) and never to a value
 * of this shape's family (names, codes, numbers, dates, lower-case words, …): `Average True Range` is
 * no value for a parameter that always took `1min` or `1h`.
 */
export function foreignShape(ps: ParamStats | undefined, shape: string): boolean {
  if (!ps || ps.set < W.shapeGateMinRecords) return false;
  const family = shapeFamily(shape);
  for (const [s, n] of ps.shapes) if (n > 0 && shapeFamily(s) === family) return false;
  return true;
}

/**
 * True when the parameter's values are written in lower case although the request writes them
 * capitalised: most of its values found in the request were found so (`Tokyo` passed as `tokyo`),
 * so a name found in the request is passed lower-cased.
 */
export function writtenLowerCase(ps: ParamStats): boolean {
  return ps.fromQuery >= W.shapeGateMinRecords && (ps.loweredFromQuery ?? 0) / ps.fromQuery >= 0.5;
}

/** True when the records passed names the request wrote with spaces joined by hyphens (2+ times). */
export function writtenAsSlug(ps: ParamStats): boolean {
  return (ps.sluggedFromQuery ?? 0) >= 2;
}

/** The family of a value shape (value-candidates.ts, `shapeOf`). */
function shapeFamily(shape: string): string {
  if (/^(code\d|pair|id)$/.test(shape)) return 'code';
  if (/^(int|longint|float)$/.test(shape)) return 'number';
  if (/^(proper|proper-multi|place-region|place-region-tight)$/.test(shape)) return 'name';
  return shape;
}

/** Known values of the parameter that appear in the query (lower-case enumerations such as `compact`). */
export function knownInQuery(query: string, ps: ParamStats | undefined, base: ValueCandidate[]): ValueCandidate[] {
  if (!ps) return [];
  const out: ValueCandidate[] = [];
  for (const key of ps.values.keys()) {
    const raw = ps.raw.get(key);
    const text = typeof raw === 'string' ? raw : String(raw);
    if (text.length < 2 || base.some((b) => b.value === text)) continue;
    let at = findToken(query, text);
    if (at < 0) at = wordFormAt(query, text);
    if (at >= 0) {
      out.push({ value: text, kind: 'known', start: at, source: 'query', ...contextAt(query, at, at + text.length) });
      continue;
    }
    for (const [start, end] of unitFormsAt(query, text))
      out.push({ value: text, kind: 'known', start, source: 'query', ...contextAt(query, start, end) });
  }
  return out;
}

/**
 * Where the request writes another form of a one-word lower-case value (`departing` for
 * `departure`, `arriving` for `arrival`): a word sharing its first letters, at least five and all
 * but its last three; -1 when none does.
 */
function wordFormAt(query: string, value: string): number {
  if (!/^[a-z]{5,}$/.test(value)) return -1;
  const need = Math.max(5, value.length - 3);
  const head = value.slice(0, need);
  for (const m of query.matchAll(/[A-Za-z]+/g)) {
    if (m[0].length >= need && m[0].toLowerCase().startsWith(head)) return m.index ?? 0;
  }
  return -1;
}

/**
 * The months the request names, as numbers (`6` for "June 2024"), for a parameter the records passed
 * a named month's number to at least twice.
 */
export function monthsInQuery(query: string, ps: ParamStats | undefined): ValueCandidate[] {
  if (!ps || (ps.monthFromQuery ?? 0) < 2) return [];
  return monthNames(query).map(({ month, start, end }) => ({
    value: String(month),
    kind: 'number',
    start,
    source: 'query',
    ...contextAt(query, start, end),
  }));
}
