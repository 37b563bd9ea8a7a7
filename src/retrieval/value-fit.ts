import type { ParamHint, ValueShape } from '../graph/schema.js';
import { findToken, unitFormsAt } from '../text/words.js';
import { contextAt, type ValueCandidate } from '../text/values.js';
import { shapeFamily, valueShape } from '../dataflow/value-shape.js';

/**
 * How a value found in a request is written for a parameter (the hint's `format`: a date template,
 * lower case, words joined), the parameter's recurring values the request writes and the values it
 * writes apart that the parameter passes joined, as candidates, and how well a found value fits a
 * parameter by its shape, the words around it and its name, and the written names of a language or
 * region code another parameter passes (policies/offline/fill-args.ts reads them).
 */

/**
 * The share of the parameter's values with the value's shape; 0 for another shape of a family it
 * takes (a long id where short ones were seen); undefined for a family it never takes, and for an
 * integer where its values were all decimals or the reverse (the `2` of "within 2 km" is no
 * latitude; decided on D_val over seven domains: docs/guides/benchmarks.md, History).
 */
export function shapeFit(value: unknown, hint: ParamHint | undefined, prior: number): number | undefined {
  const shapes = hint?.shapes;
  if (!shapes || Object.keys(shapes).length === 0) return prior;
  const shape = valueShape(value);
  const share = shapes[shape];
  if (share !== undefined) return share;
  // An integer (of any length) and a decimal are told apart as if of two families.
  const kind = (s: ValueShape) =>
    shapeFamily(s) === 'number' ? (s === 'float' ? 'decimal' : 'integer') : shapeFamily(s);
  return Object.keys(shapes).some((s) => kind(s as ValueShape) === kind(shape)) ? 0 : undefined;
}

/** The largest share among the cue words next to a value found in the request. */
export function cueFit(c: ValueCandidate, hint: ParamHint | undefined): number {
  let best = 0;
  for (const w of c.before.slice(-2)) best = Math.max(best, hint?.before?.[w] ?? 0);
  if (c.after) best = Math.max(best, hint?.after?.[c.after] ?? 0);
  return best;
}

/** A word of the parameter's name stands next to the value (or names its role). */
export function namedBy(c: ValueCandidate, nameWords: readonly string[]): boolean {
  return (
    c.before.slice(-2).some((w) => nameWords.includes(w)) ||
    nameWords.includes(c.after) ||
    (c.role ?? []).some((w) => nameWords.includes(w))
  );
}

/** The candidate's value as the parameter's format writes it. */
export function formatted(c: ValueCandidate, format: ParamHint['format']): string {
  let value = c.value;
  if (!format) return value;
  if (c.kind === 'date' && format.template) value = format.template.replace('{date}', value);
  // A parameter learned to pass lower case passes a code written in capitals so too (`NPR` → `npr`).
  if (format.lower && (c.kind === 'proper' || c.kind === 'code')) value = value.toLowerCase();
  if (c.kind === 'proper' && format.join) value = value.replace(/[\s,]+/g, format.join);
  // A written pair (`BTC/USD`) is passed with the parameter's own separator.
  const parts = value.split(/\s?[/,\-:]\s?/);
  if (c.kind === 'code' && format.listSep && parts.length > 1 && parts.every((x) => x.length >= 2))
    value = parts.join(format.listSep);
  return value;
}

/** The parameter's known values (recurring or documented) that the request writes (as they are, in another word form, or with a unit spelled out). */
export function knownInQuery(
  query: string,
  values: ReadonlyArray<string | number | boolean>,
  base: readonly ValueCandidate[],
): ValueCandidate[] {
  const out: ValueCandidate[] = [];
  for (const raw of values) {
    const text = String(raw);
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
 * `departure`): a word sharing its first letters, at least five and all but its last three.
 */
function wordFormAt(query: string, value: string): number {
  if (!/^[a-z]{5,}$/.test(value)) return -1;
  const head = value.slice(0, Math.max(5, value.length - 3));
  for (const m of query.matchAll(/[A-Za-z]+/g))
    if (m[0].length >= head.length && m[0].toLowerCase().startsWith(head)) return m.index ?? 0;
  return -1;
}

/**
 * For a parameter whose format passes several values joined (`listSep`): each two codes, ids or
 * numbers the request writes one after the other within `spans` (the call's part of the request; all of it when none),
 * joined by that string (a pair written whole is rewritten by `formatted`).
 */
export function joinedInQuery(
  query: string,
  base: readonly ValueCandidate[],
  hint: ParamHint | undefined,
  spans: ReadonlyArray<readonly [number, number]>,
): ValueCandidate[] {
  const sep = hint?.format?.listSep;
  if (!sep) return [];
  const within = (c: ValueCandidate) => spans.length === 0 || spans.some(([a, b]) => c.start >= a && c.start < b);
  const codes = base.filter((c) => (c.kind === 'code' || c.kind === 'id' || c.kind === 'number') && within(c));
  const out: ValueCandidate[] = [];
  const add = (value: string, start: number, end: number) => {
    if (!out.some((o) => o.value === value && o.start === start))
      out.push({ value, kind: 'code', start, source: 'query', ...contextAt(query, start, end) });
  };
  const single = codes.filter((c) => !/[/,\-:]/.test(c.value));
  for (let i = 0; i + 1 < single.length && out.length < MAX_JOINED; i++) {
    const [a, b] = [single[i]!, single[i + 1]!];
    if (a.value !== b.value) add(`${a.value}${sep}${b.value}`, a.start, b.start + b.value.length);
  }
  return out;
}
const MAX_JOINED = 12;

/** Words of a parameter name that ask for one part of a person's name: its first or its last word. */
const NAME_PART: Record<string, 'first' | 'last'> = {
  first: 'first',
  given: 'first',
  last: 'last',
  family: 'last',
  surname: 'last',
};

/**
 * The part of a person's name a parameter takes: `surname`, or a part word right before `name`
 * (`first_name`, `familyName`); a part word alone says nothing (`fund_family`, `last_updated`).
 */
/** Which part of a person's name a parameter takes, by its name words (`first_name`, `surname`). */
export function namePart(words: readonly string[]): 'first' | 'last' | undefined {
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === 'surname') return 'last';
    if (NAME_PART[w] && words[i + 1] === 'name') return NAME_PART[w];
  }
  return undefined;
}

/**
 * For a parameter that takes one part of a person's name (`first_name`, `last_name`, `surname`),
 * that part of each name of two or three words the request writes ("Yusuf Rossi" gives Yusuf and Rossi);
 * a name written after an article or `in` is a place or a thing, not a person ("the Big Apple", "in San Diego").
 */
export function nameParts(words: readonly string[], base: readonly ValueCandidate[]): ValueCandidate[] {
  const part = namePart(words);
  if (!part) return [];
  const out: ValueCandidate[] = [];
  for (const c of base) {
    if (c.kind !== 'proper' || /[,]/.test(c.value) || /^(the|a|an|in)$/.test(c.before.at(-1) ?? '')) continue;
    const ws = c.value.split(/\s+/);
    if (ws.length < 2 || ws.length > 3) continue;
    const w = part === 'first' ? ws[0]! : ws[ws.length - 1]!;
    const at = part === 'first' ? c.start : c.start + c.value.lastIndexOf(w);
    out.push({ ...c, value: w, start: at });
  }
  return out;
}

const LANGUAGES = new Intl.DisplayNames(['en'], { type: 'language' });
const REGIONS = new Intl.DisplayNames(['en'], { type: 'region' });

/** The English names of a language or region code (`en` English, `IN` India), lower case; none for another value. */
export function codeNames(value: unknown): string[] {
  if (typeof value !== 'string' || !/^[a-z]{2,3}$/i.test(value)) return [];
  const nameIn = (names: Intl.DisplayNames, code: string) => {
    try {
      return names.of(code)?.toLowerCase();
    } catch {
      return undefined; // not a code the runtime knows
    }
  };
  const code = value.toLowerCase();
  return [nameIn(LANGUAGES, code), nameIn(REGIONS, value.toUpperCase())].filter(
    (n): n is string => n !== undefined && n !== code,
  );
}
