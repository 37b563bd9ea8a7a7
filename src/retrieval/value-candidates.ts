/**
 * Argument values found in text by type (docs/DESIGN.md, "Policies": values found in the request
 * and in upstream outputs by type): quoted strings, dates, coordinates, numbers, codes and ids
 * (tickers, IATA codes, hotel ids, `BTC/USD` pairs), capitalised spans (places, companies) and
 * names joined by slashes. Each candidate keeps the words before and after it, which the argument
 * filler (policies/offline/fill-args.ts) compares with the words a step's hint says are written
 * around a parameter's values.
 */

export type CandidateKind = 'quoted' | 'date' | 'coord' | 'number' | 'code' | 'id' | 'proper' | 'known' | 'output';

export interface ValueCandidate {
  /** The value as it would be passed (dates normalised to YYYY-MM-DD). */
  value: string;
  kind: CandidateKind;
  /** Offset in the source text (for ordering). */
  start: number;
  source: 'query' | 'output';
  /** Up to three lower-case words right before the value (nearest last). */
  before: string[];
  /** The lower-case word right after it. */
  after: string;
  /** For output candidates: the key that held the value. */
  key?: string;
  /** Words that name what the value is by its place, e.g. `latitude` for the first number of a coordinate pair. */
  role?: string[];
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const MONTH_RE =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

/** The months' capitalised names ("in June 2024"). */
const MONTH_NAMES = new RegExp(`\\b(${MONTHS.map((m) => m[0]!.toUpperCase() + m.slice(1)).join('|')})\\b`, 'g');

const LAT_ROLE = ['lat', 'latitude'];
const LON_ROLE = ['lon', 'lng', 'long', 'longitude'];

/** Words that start sentences or requests and are capitalised for that reason only. */
const NOT_PROPER = new Set(
  "You Your Yours We Our He She They Their His Her Dear January February March April May June July August September October November December Monday Tuesday Wednesday Thursday Friday Saturday Sunday I Im I'm I'd I'll Can Could Would Will Please Then After Finally First Also Next Lastly And But So Also Show Get Find Check Give Tell What Which How Where When Why The A An My Our This That These Those It Its For From In On At To Of With By Is Are Do Does Let Once Additionally Afterwards Before Now Here There Let's Last Search Look Retrieve Fetch Pull Provide List Since Because However Although While If When Once After Before During Given Based Using Following Ok Okay Yes No Thanks Thank Hi Hello Great Next Lastly Finally Additionally Moreover".split(
    ' ',
  ),
);

const CONNECTORS = new Set([
  'of',
  'de',
  'es',
  'el',
  'di',
  'des',
  'der',
  'den',
  'la',
  'del',
  'da',
  'do',
  'du',
  'le',
  'van',
  'von',
  'and',
  '&',
  'am',
  'upon',
  'on',
]);

/** The (up to three) words before [start, end) of `text` and the word after it, lower-cased. */
export function contextAt(text: string, start: number, end: number): { before: string[]; after: string } {
  const before = (
    text
      .slice(Math.max(0, start - 60), start)
      .toLowerCase()
      .match(/[a-z0-9]+/g) ?? []
  ).slice(-3);
  const after =
    (text
      .slice(end, end + 30)
      .toLowerCase()
      .match(/[a-z0-9]+/) ?? [''])[0] ?? '';
  return { before, after };
}

/** The first four-digit year (19xx/20xx) within 60 characters after `from`, else the last one before it. */
function nearbyYear(text: string, from: number): string | undefined {
  const after = /\b(19|20)\d{2}\b/.exec(text.slice(from, from + 60));
  if (after) return after[0];
  const before = text.slice(0, from).match(/\b(19|20)\d{2}\b/g);
  return before ? before[before.length - 1] : undefined;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Every value candidate in a query, in order of appearance (overlaps allowed: `BTC/USD` and `BTC`). */
export function queryCandidates(text: string): ValueCandidate[] {
  const out: ValueCandidate[] = [];
  const taken: Array<[number, number]> = [];
  const add = (value: string, kind: CandidateKind, start: number, end: number, claim = false) => {
    if (!value.trim()) return;
    out.push({ value, kind, start, source: 'query', ...contextAt(text, start, end) });
    if (claim) taken.push([start, end]);
  };
  const isTaken = (s: number, e: number) => taken.some(([a, b]) => s < b && e > a);

  for (const m of text.matchAll(/(^|[\s(:])(["'“‘])([^"'“”‘’\n]{1,80})(["'”’])(?=[\s,.;:!?)]|$)/g)) {
    const start = (m.index ?? 0) + m[1]!.length + 1;
    add(m[3]!, 'quoted', start, start + m[3]!.length);
  }
  // E-mail addresses, and ids written in lower case with underscores or hyphens and digits
  // (sara_doe_496, arguello-5324616).
  for (const m of text.matchAll(
    /[A-Za-z0-9][\w.+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}|\b[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+\b/g,
  )) {
    const s = m.index ?? 0;
    if (m[0].includes('@') || /\d/.test(m[0])) add(m[0], 'id', s, s + m[0].length, true);
  }
  for (const m of text.matchAll(/\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2}))?)?/g)) {
    const s = m.index ?? 0;
    add(`${m[1]}-${pad(Number(m[2]))}-${pad(Number(m[3]))}`, 'date', s, s + m[0].length, true);
  }
  // "September 2-9, 2025" (a range), "September 3rd, 2025", "September 3rd" (the year from the nearest
  // year written after it, else before it).
  const monthFirst = new RegExp(
    `\\b${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:\\s*[-–]\\s*(\\d{1,2})(?:st|nd|rd|th)?)?(?:,?\\s+(\\d{4}))?`,
    'gi',
  );
  for (const m of text.matchAll(monthFirst)) {
    const s = m.index ?? 0;
    if (isTaken(s, s + m[0].length)) continue;
    const month = MONTHS.findIndex((x) => x.startsWith(m[1]!.toLowerCase().slice(0, 3))) + 1;
    const year = m[4] ?? nearbyYear(text, s + m[0].length);
    const date = (day: string) =>
      year ? `${year}-${pad(month)}-${pad(Number(day))}` : `${pad(month)}-${pad(Number(day))}`;
    add(date(m[2]!), 'date', s, s + m[0].length, true);
    if (m[3]) add(date(m[3]), 'date', s + m[0].indexOf(m[3], m[1]!.length + m[2]!.length), s + m[0].length);
  }
  const dayFirst = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\.?,?\\s+(\\d{4})`, 'gi');
  for (const m of text.matchAll(dayFirst)) {
    const s = m.index ?? 0;
    if (isTaken(s, s + m[0].length)) continue;
    const month = MONTHS.findIndex((x) => x.startsWith(m[2]!.toLowerCase().slice(0, 3))) + 1;
    add(`${m[3]}-${pad(month)}-${pad(Number(m[1]))}`, 'date', s, s + m[0].length, true);
  }
  const coordParts = new Map<number, string[]>();
  for (const m of text.matchAll(
    /(-?\d{1,3}\.\d{2,})°?\s*[NS]?\s*[,/]\s*(?:and\s+)?(?:longitude\s+)?(-?\d{1,3}\.\d{2,})°?/g,
  )) {
    const s = m.index ?? 0;
    add(`${m[1]},${m[2]}`, 'coord', s, s + m[0].length);
    // A pair written longitude first gives itself away: a latitude lies within ±90.
    const lonFirst = Math.abs(Number(m[1])) > 90 && Math.abs(Number(m[2])) <= 90;
    coordParts.set(s, lonFirst ? LON_ROLE : LAT_ROLE);
    coordParts.set(s + m[0].lastIndexOf(m[2]!), lonFirst ? LAT_ROLE : LON_ROLE);
  }
  // Codes and ids: tickers, IATA/ICAO, currency pairs, alphanumeric ids (0P0001HUIC, KJ286).
  // (A one-letter prefix joined by a separator, as in A-1012, is part of the id.)
  for (const m of text.matchAll(
    /\b[A-Z][/\-:][A-Z0-9]{2,}(?:[/,\-:][A-Z0-9]{2,})*\b|\b[A-Z0-9][A-Z0-9.]*[A-Z0-9](?:[/,\-:][A-Z0-9]{2,})*\b|\b[A-Z]\b/g,
  )) {
    const v = m[0];
    const s = m.index ?? 0;
    if (isTaken(s, s + v.length)) continue;
    const hasLetter = /[A-Z]/.test(v);
    const hasDigit = /\d/.test(v);
    if (!hasLetter) continue;
    if (v.length === 1 && v !== 'I') continue;
    if (v === 'I' || v === 'A') continue;
    add(v, hasDigit ? 'id' : 'code', s, s + v.length);
    // "#W2378156", "order #1003": an id written after '#' is also offered with it.
    if (hasDigit && text[s - 1] === '#') add(`#${v}`, 'id', s - 1, s + v.length);
    if (/[/,\-:]/.test(v))
      for (const part of v.split(/[/,\-:]/))
        if (part.length >= 2) add(part, 'code', s + v.indexOf(part), s + v.indexOf(part) + part.length);
  }
  for (const m of text.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*[A-Za-z])/g)) {
    const s = m.index ?? 0;
    if (isTaken(s, s + m[0].length)) continue;
    add(m[0], /^\d{5,}$/.test(m[0]) ? 'id' : 'number', s, s + m[0].length);
    const role = coordParts.get(s);
    if (role) out[out.length - 1]!.role = role;
  }
  // Ordinals ("from the 10th position") give their number.
  for (const m of text.matchAll(/\b(\d+)(?:st|nd|rd|th)\b/gi)) {
    const s = m.index ?? 0;
    if (!isTaken(s, s + m[0].length)) add(m[1]!, 'number', s, s + m[0].length);
  }
  // A path of names joined by slashes, as time zones are written (America/New_York, Europe/Berlin): one value.
  for (const m of text.matchAll(/(?<![\w/])[A-Z][a-z]+(?:\/[A-Z][a-z]+(?:_[A-Z][a-z]+)*)+(?![\w/])/g)) {
    const s = m.index ?? 0;
    if (!isTaken(s, s + m[0].length)) add(m[0], 'proper', s, s + m[0].length);
  }
  const spans = properSpans(text);
  for (const span of spans) add(span.value, 'proper', span.start, span.start + span.value.length);
  // "Paris, France", "London, UK": a place and its region, written with and without the space.
  for (let i = 0; i + 1 < spans.length; i++) {
    const a = spans[i]!;
    const b = spans[i + 1]!;
    const gap = text.slice(a.start + a.value.length, b.start);
    if (!/^,\s?$/.test(gap)) continue;
    const end = b.start + b.value.length;
    add(`${a.value}, ${b.value}`, 'proper', a.start, end);
    add(`${a.value},${b.value}`, 'proper', a.start, end);
  }
  // "Seattle, WA", "Seattle, WA, US": a place with its region and country codes, the whole chain as written.
  for (const m of text.matchAll(/\b([A-Z][a-z][\w'-]*(?: [A-Z][a-z][\w'-]*)*)((?:,\s?[A-Z]{2,3}\b)+)/g)) {
    const s = m.index ?? 0;
    let end = s + m[1]!.length;
    const parts = [m[1]!];
    for (const code of m[2]!.matchAll(/,\s?([A-Z]{2,3})\b/g)) {
      parts.push(code[1]!);
      end += code[0].length;
    }
    add(parts.join(', '), 'proper', s, end);
    add(parts.join(','), 'proper', s, end);
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Months the text names by their capitalised English name ("in June 2024"), with their number
 * (1-12) and where the name is written.
 */
export function monthNames(text: string): Array<{ month: number; start: number; end: number }> {
  const out: Array<{ month: number; start: number; end: number }> = [];
  for (const m of text.matchAll(MONTH_NAMES))
    out.push({
      month: MONTHS.indexOf(m[1]!.toLowerCase()) + 1,
      start: m.index ?? 0,
      end: (m.index ?? 0) + m[1]!.length,
    });
  return out;
}

/** Maximal runs of capitalised words (with connectors such as "of", "de"), minus sentence starters. */
export function properSpans(text: string): Array<{ value: string; start: number }> {
  const spans: Array<{ value: string; start: number }> = [];
  const tokens = [...text.matchAll(/[A-Za-zÀ-ÿ][\w'’.-]*[\wÀ-ÿ]|[A-Za-zÀ-ÿ]|&/g)];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i]!;
    if (!isCapital(t[0]) || NOT_PROPER.has(bare(t[0]))) {
      i++;
      continue;
    }
    let j = i;
    let end = i;
    while (j + 1 < tokens.length) {
      const next = tokens[j + 1]!;
      const gap = text.slice((tokens[j]!.index ?? 0) + tokens[j]![0].length, next.index ?? 0);
      if (!/^[\s-]{0,2}$/.test(gap)) break;
      if (isCapital(next[0]) && !NOT_PROPER.has(bare(next[0]))) {
        j++;
        end = j;
      } else if (CONNECTORS.has(next[0].toLowerCase()) && j + 2 < tokens.length && isCapital(tokens[j + 2]![0])) {
        j++;
      } else break;
    }
    const s = t.index ?? 0;
    const last = tokens[end]!;
    const value = text
      .slice(s, (last.index ?? 0) + last[0].length)
      .replace(/[.'’]+$/, '')
      .replace(/['’]s$/, '');
    if (value.length > 1) spans.push({ value, start: s });
    i = end + 1;
  }
  return spans;
}

/** A word without a contraction or possessive ending: `What's` → `What`. */
function bare(word: string): string {
  return word.replace(/['’](s|re|ll|d|ve|m|t)$/i, '');
}

function isCapital(word: string): boolean {
  return /^[A-ZÀ-Ý]/.test(word) && /[a-zà-ÿ]/.test(word);
}

/**
 * Key/value pairs in a tool output: parsed JSON objects (also JSON given as text, as MCP tools
 * return it; a list gives a pair per item under its key), or `'key': value` pairs of the Python
 * literals ToolBench-style tools return (often truncated, so parsed with a pattern, not a parser).
 */
export function outputPairs(output: unknown, limit = 400): Array<{ key: string; value: string }> {
  const pairs: Array<{ key: string; value: string }> = [];
  const visit = (v: unknown, key: string | undefined, depth: number) => {
    if (pairs.length >= limit || depth > 6) return;
    if (v === null || v === undefined) return;
    if (typeof v === 'string') {
      if (key !== undefined) pairs.push({ key, value: v });
      else if (/[{[]/.test(v)) {
        // JSON text (what MCP and many HTTP tools return) is read as the value it holds; other
        // text (Python literals, truncated output) by pattern.
        const parsed = parseJsonText(v);
        if (parsed !== undefined) visit(parsed, undefined, depth + 1);
        else textPairs(v, pairs, limit);
      }
      return;
    }
    if (typeof v === 'number' || typeof v === 'boolean') {
      if (key !== undefined) pairs.push({ key, value: String(v) });
      return;
    }
    if (Array.isArray(v)) for (const x of v) visit(x, key, depth + 1);
    else for (const [k, x] of Object.entries(v as Record<string, unknown>)) visit(x, k, depth + 1);
  };
  visit(output, undefined, 0);
  return pairs;
}

/**
 * What an output offers a later call: the output itself when it is one bare value (a tool that
 * answers with the id itself, `sara_doe_496`), under the empty key, then its key/value pairs.
 */
export function outputValues(output: unknown, limit?: number): Array<{ key: string; value: string }> {
  const bare =
    (typeof output === 'string' && /^\S{1,80}$/.test(output.trim())) || typeof output === 'number'
      ? [{ key: '', value: String(output).trim() }]
      : [];
  return [...bare, ...outputPairs(output, limit)];
}

/** Longest output text parsed as JSON; longer text is read by pattern only. */
const MAX_JSON_TEXT = 200_000;

/** The value a JSON object or array text holds, or undefined when the text is not exactly that. */
function parseJsonText(text: string): unknown {
  const t = text.trim();
  if (t.length > MAX_JSON_TEXT || !/^[{[]/.test(t) || !/[}\]]$/.test(t)) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return v !== null && typeof v === 'object' ? v : undefined;
  } catch {
    return undefined;
  }
}

const PAIR_VALUE = `\\s*:\\s*(?:'((?:[^'\\\\]|\\\\.){0,200})'|"((?:[^"\\\\]|\\\\.){0,200})"|(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)|(True|False|true|false))`;
const LITERAL_PAIR = new RegExp(`['"]([A-Za-z_][\\w .-]{0,40})['"]${PAIR_VALUE}`, 'g');
const LITERAL_PAIR_DIGIT_KEYS = new RegExp(`['"]([A-Za-z0-9_][\\w .-]{0,40})['"]${PAIR_VALUE}`, 'g');

/**
 * The `'key': value` pairs of Python-literal (or JSON) text, read by pattern, appended to `pairs` up
 * to `limit`; `digitKeys` also takes keys that start with a digit (Alpha Vantage's `'1. Information'`).
 */
export function textPairs(
  text: string,
  pairs: Array<{ key: string; value: string }>,
  limit: number,
  digitKeys = false,
): void {
  for (const m of text.matchAll(digitKeys ? LITERAL_PAIR_DIGIT_KEYS : LITERAL_PAIR)) {
    if (pairs.length >= limit) break;
    pairs.push({ key: m[1]!, value: m[2] ?? m[3] ?? m[4] ?? m[5] ?? '' });
  }
}

/** A coarse shape of a value, used to learn which shapes a parameter takes (e.g. `code3`, `date`). */
export function shapeOf(value: unknown): string {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value !== 'string') return 'other';
  const v = value.trim();
  if (/^(true|false)$/i.test(v)) return 'bool';
  if (/^\d{4}-\d{2}-\d{2}/.test(v)) return 'date';
  if (/^-?\d+$/.test(v)) return v.length >= 5 ? 'longint' : 'int';
  if (/^-?\d+\.\d+$/.test(v)) return 'float';
  if (/^-?\d+\.\d+\s*,\s*-?\d+\.\d+$/.test(v)) return 'coord';
  if (/^[A-Z]{2,6}[/,\-:] ?[A-Z]{2,6}$/.test(v)) return 'pair';
  if (/^[A-Z]+$/.test(v)) return `code${Math.min(v.length, 6)}`;
  if (/^[A-Z0-9.]+$/.test(v) && /\d/.test(v)) return 'id';
  if (/^[A-Z][^,]*[a-z][^,]*,\s?[A-Z][^,]*$/.test(v)) return v.includes(', ') ? 'place-region' : 'place-region-tight';
  if (/^[A-Z][a-z]/.test(v)) return v.includes(' ') ? 'proper-multi' : 'proper';
  if (/^[a-z0-9_.\-/]+$/.test(v)) return 'lower';
  return 'text';
}
