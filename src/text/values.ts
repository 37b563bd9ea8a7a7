import * as chrono from 'chrono-node';
import { readText, type Token } from './read.js';

/**
 * Argument values written in a request, by kind (docs/DESIGN.md, "Reading requests": values found in the
 * request by kind), each with the words around it that a step's hint compares with the words its
 * parameter's values had around them. The libraries find what they can: dates (chrono-node, written
 * as YYYY-MM-DD), numbers, e-mail addresses, URLs and names (wink-nlp's entities and parts of
 * speech, read.ts). What no library reads stays a rule of its own, each said where it is: quoted
 * text, codes and ids by their shape (tickers, `BTC/USD`, `KJ286`, `sara_doe_496`), a pair of
 * coordinates, a path of names (`America/New_York`), a place with its region (`Seattle, WA, US`).
 * Rules that paid on none of the domains beyond the three bundled ones were dropped
 * (docs/guides/benchmarks.md, History).
 */

export type CandidateKind = 'quoted' | 'date' | 'coord' | 'number' | 'code' | 'id' | 'proper' | 'known' | 'output';

export interface ValueCandidate {
  /** The value as it would be passed (dates as YYYY-MM-DD). */
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

const LAT_ROLE = ['lat', 'latitude'];
const LON_ROLE = ['lon', 'lng', 'long', 'longitude'];

/** The (up to three) words before [start, end) of `text` and the word after it, lower-cased. */
export function contextAt(text: string, start: number, end: number): { before: string[]; after: string } {
  const before = (
    text
      .slice(Math.max(0, start - 60), start)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).slice(-3);
  const after =
    (text
      .slice(end, end + 30)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/u) ?? [''])[0] ?? '';
  return { before, after };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date chrono-node read, as the text writes it: YYYY-MM-DD, or MM-DD when it writes no year. */
function dateText(c: chrono.ParsedComponents): string | undefined {
  if (!c.isCertain('month') || !c.isCertain('day')) return undefined;
  const md = `${pad(c.get('month')!)}-${pad(c.get('day')!)}`;
  return c.isCertain('year') ? `${c.get('year')!}-${md}` : md;
}

/** A fixed reference day, so that the same text always reads the same (relative dates are not read). */
const REFERENCE = new Date(Date.UTC(2000, 0, 1));

/** Parts of speech no name takes: a capitalised one is so by its place ("Can", "The", "Then"). */
const FUNCTION_WORDS = new Set(['PRON', 'DET', 'AUX', 'ADP', 'CCONJ', 'SCONJ', 'PART', 'INTJ', 'PUNCT', 'SYM']);

const isCap = (t: Token) => /^\p{Lu}/u.test(t.text) && /\p{Ll}/u.test(t.text);
/** Particles inside names ("Dar es Salaam", "Frankfurt am Main", "Stratford upon Avon"): no library lists them. */
const CONNECT = new Set('of de es el di des der den la le del da do du van von and & am upon on'.split(' '));

/** Every value candidate in a request, in order of appearance (overlaps allowed: `Paris, France` and `Paris`). */
export function queryCandidates(text: string): ValueCandidate[] {
  const out: ValueCandidate[] = [];
  const taken: Array<[number, number]> = [];
  const add = (value: string, kind: CandidateKind, start: number, end: number, claim = false) => {
    if (!value.trim()) return;
    out.push({ value, kind, start, source: 'query', ...contextAt(text, start, end) });
    if (claim) taken.push([start, end]);
  };
  const isTaken = (s: number, e: number) => taken.some(([a, b]) => s < b && e > a);
  const { tokens, entities } = readText(text);

  // Quoted text: no library marks it; it is the request's own value.
  for (const m of text.matchAll(/(^|[\s(:])(["'“‘])([^"'“”‘’\n]{1,80})(["'”’])(?=[\s,.;:!?)]|$)/g)) {
    const start = (m.index ?? 0) + m[1]!.length + 1;
    add(m[3]!, 'quoted', start, start + m[3]!.length);
  }
  // E-mail addresses and URLs (the library's), and lower-case ids with digits joined by _ or -
  // (`sara_doe_496`, `arguello-5324616`: the tokenizer cuts them apart).
  for (const e of entities) if (e.type === 'EMAIL' || e.type === 'URL') add(e.value, 'id', e.start, e.end, true);
  for (const m of text.matchAll(/\b[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+\b/g)) {
    const s = m.index ?? 0;
    if (/\d/.test(m[0]) && !isTaken(s, s + m[0].length)) add(m[0], 'id', s, s + m[0].length, true);
  }
  // Dates, by chrono-node (a range gives both ends; a relative date is not read).
  for (const r of chrono.parse(text, REFERENCE)) {
    const end = r.index + r.text.length;
    // A date written with no digit is relative to the day it was asked ("now", "tomorrow"): not read.
    if (isTaken(r.index, end) || !/\d/.test(r.text)) continue;
    const first = dateText(r.start);
    if (!first) continue;
    add(first, 'date', r.index, end, true);
    const last = r.end ? dateText(r.end) : undefined;
    if (last && last !== first) add(last, 'date', r.index, end);
  }
  // A pair of coordinates ("48.85, 2.35", "36.8S, 144.0"): no library reads one. Its numbers get
  // the roles of latitude and longitude (written longitude first when the first lies beyond ±90).
  const roles = new Map<number, string[]>();
  for (const m of text.matchAll(
    /(-?\d{1,3}\.\d{2,})°?\s*[NS]?\s*[,/]\s*(?:and\s+)?(?:longitude\s+)?(-?\d{1,3}\.\d{2,})°?/g,
  )) {
    const s = m.index ?? 0;
    add(`${m[1]},${m[2]}`, 'coord', s, s + m[0].length);
    const lonFirst = Math.abs(Number(m[1])) > 90 && Math.abs(Number(m[2])) <= 90;
    roles.set(s, lonFirst ? LON_ROLE : LAT_ROLE);
    roles.set(s + m[0].lastIndexOf(m[2]!), lonFirst ? LAT_ROLE : LON_ROLE);
  }
  // Codes and ids by their shape (tickers, IATA/ICAO codes, `BTC/USD`, `0P0001HUIC`, `KJ286`, `#W1001`):
  // a whitespace-delimited chunk of capitals and digits with at least one capital.
  for (const m of text.matchAll(
    /\b[A-Z][/\-:][A-Z0-9]{2,}(?:[/,\-:][A-Z0-9]{2,})*\b|\b[A-Z0-9][A-Z0-9.]*[A-Z0-9](?:[/,\-:][A-Z0-9]{2,})*\b/g,
  )) {
    const v = m[0];
    const s = m.index ?? 0;
    if (isTaken(s, s + v.length) || !/[A-Z]/.test(v)) continue;
    const hasDigit = /\d/.test(v);
    add(v, hasDigit ? 'id' : 'code', s, s + v.length);
    if (hasDigit && text[s - 1] === '#') add(`#${v}`, 'id', s - 1, s + v.length);
  }
  // Numbers (the library's tokens), with a sign written right before them.
  for (const t of tokens) {
    if (t.type !== 'number') continue;
    const signed = text[t.start - 1] === '-' && !/[\p{L}\p{N}]/u.test(text[t.start - 2] ?? '');
    const start = signed ? t.start - 1 : t.start;
    if (isTaken(start, t.end) || /[A-Za-z]/.test(text[t.end] ?? '')) continue;
    const value = (signed ? '-' : '') + t.text.replace(/,(?=\d{3}\b)/g, '');
    if (!/^-?\d+(\.\d+)?$/.test(value)) continue;
    add(value, /^\d{5,}$/.test(value) ? 'id' : 'number', start, t.end);
    const role = roles.get(start);
    if (role) out[out.length - 1]!.role = role;
  }
  // A path of names joined by slashes, as time zones are written (`America/New_York`): one value.
  for (const m of text.matchAll(/(?<![\w/])[A-Z][a-z]+(?:\/[A-Z][a-z]+(?:_[A-Z][a-z]+)*)+(?![\w/])/g)) {
    const s = m.index ?? 0;
    if (!isTaken(s, s + m[0].length)) add(m[0], 'proper', s, s + m[0].length, true);
  }
  // Words of a date or time the library reads relative to the day asked ("today", "this week") are no
  // part of a name or a phrase.
  const timely = entities.filter((e) => ['DATE', 'TIME', 'DURATION'].includes(e.type) && !/\d|\p{Lu}/u.test(e.value));
  const free = (t: Token) => !isTaken(t.start, t.end) && !timely.some((e) => t.start >= e.start && t.end <= e.end);
  const names = nameSpans(text, tokens, free);
  for (const n of names) add(n.value, 'proper', n.start, n.end);
  // A place and its region ("Paris, France", "Seattle, WA, US"): a name, then names or codes in
  // capitals after commas, the whole chain as written, with and without the space.
  const links = [
    ...names,
    ...out
      .filter((c) => c.kind === 'code' && /^[A-Z]{2,3}$/.test(c.value))
      .map((c) => ({ value: c.value, start: c.start, end: c.start + c.value.length })),
  ];
  for (const head of names) {
    const chain = [head];
    for (;;) {
      const last = chain.at(-1)!;
      const next = links.find((l) => l.start > last.end && /^,\s?$/.test(text.slice(last.end, l.start)));
      if (!next) break;
      chain.push(next);
    }
    if (chain.length < 2) continue;
    const end = chain.at(-1)!.end;
    add(chain.map((n) => n.value).join(', '), 'proper', head.start, end);
    add(chain.map((n) => n.value).join(','), 'proper', head.start, end);
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Marks that join two names into one, and what stands between the mark and the second name. */
const JOINED_BY: ReadonlyMap<string, string> = new Map([
  ['-', ''],
  [':', ' '],
]);

/**
 * Names: maximal runs of capitalised words that are no function words by the library's tags (with
 * "of", "de", "and", … between them, a hyphen written against both or a colon before a subtitle),
 * not a sentence's first word unless the library tags it a name, not a pronoun ("I'm"), and not a
 * code in capitals (read above).
 */
function nameSpans(
  text: string,
  tokens: readonly Token[],
  free: (t: Token) => boolean,
): Array<{ value: string; start: number; end: number }> {
  const out: Array<{ value: string; start: number; end: number }> = [];
  const atSentenceStart = (i: number) => i === 0 || /[.!?]["')\]]*\s*$/.test(text.slice(0, tokens[i]!.start));
  const nameLike = (t: Token, i: number) =>
    free(t) &&
    isCap(t) &&
    !t.stop &&
    !FUNCTION_WORDS.has(t.pos) &&
    // A sentence's first word is capitalised by its place: a name only where the library says so.
    (!atSentenceStart(i) || t.pos === 'PROPN');
  let i = 0;
  while (i < tokens.length) {
    if (!nameLike(tokens[i]!, i)) {
      i++;
      continue;
    }
    let end = i;
    let j = i;
    while (j + 1 < tokens.length) {
      const next = tokens[j + 1]!;
      const gap = text.slice(tokens[j]!.end, next.start);
      if (!/^[\s-]{0,2}$/.test(gap)) break;
      // A hyphen the library reads as a token of its own joins two capitalised words written
      // against it into one name ("Mercedes-Benz", "Ukraine-Russia War"); so does a colon written
      // against a name and followed by one after a space, as a title's subtitle is ("Outliver:
      // Tribulation"). `JOINED_BY` holds what stands between the mark and the second word.
      const after = tokens[j + 2];
      const between = JOINED_BY.get(next.text);
      if (
        between !== undefined &&
        gap === '' &&
        after &&
        text.slice(next.end, after.start) === between &&
        nameLike(after, j + 2)
      ) {
        end = j = j + 2;
        continue;
      }
      if (nameLike(next, j + 1) || /^\d+[A-Za-z]*$/.test(next.text)) end = j = j + 1;
      else if (CONNECT.has(next.lower) && tokens[j + 2] && isCap(tokens[j + 2]!)) j++;
      else break;
    }
    const value = text
      .slice(tokens[i]!.start, tokens[end]!.end)
      .replace(/[.'’]+$/, '')
      .replace(/['’]s$/, '');
    if (value.length > 1 && !/^[A-Z0-9]+$/.test(value))
      out.push({ value, start: tokens[i]!.start, end: tokens[i]!.start + value.length });
    i = end + 1;
  }
  return out;
}
