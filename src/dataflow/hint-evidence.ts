import { canonicalArgs, stableStringify } from '../contracts/canonical-args.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { findToken, namesParam, stem } from '../text/words.js';
import { requestClauses } from '../text/clauses.js';
import { readText } from '../text/read.js';
import { contextAt } from '../text/values.js';
import { outputValues } from './output-value.js';
import { valueShape } from './value-shape.js';
import { isIdentifierShaped } from '../util/identifier-shape.js';
import { customerOf, knownValue, knownWord, toolWords } from './customers.js';
import type { ExampleRecord } from './learn-bindings.js';

/**
 * What the optimisation records show about each tool, counted per group (a task, a session, a
 * user; a record when records have no groups) so that what the hints keep can be required to recur
 * across groups (learn-hints.ts turns this into typed hints). Nothing here leaves the search: only
 * the hints do, after the privacy rules of learn-hints.ts.
 */

/** Distinct groups per key, and how many times the key was seen. */
export class GroupCounts {
  readonly groups = new Map<string, Set<string>>();
  readonly counts = new Map<string, number>();
  add(key: string, group: string): void {
    let g = this.groups.get(key);
    if (!g) this.groups.set(key, (g = new Set()));
    g.add(group);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  /** Keys seen in at least `minGroups` groups, most seen first (ties by key). */
  recurring(minGroups: number): string[] {
    return [...this.groups]
      .filter(([, g]) => g.size >= minGroups)
      .map(([k]) => k)
      .sort((a, b) => (this.counts.get(b) ?? 0) - (this.counts.get(a) ?? 0) || a.localeCompare(b));
  }
  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

/** What the records show about one parameter of one tool. */
export interface ParamEvidence {
  /** Calls of the tool, and of those the calls that set the parameter. */
  calls: number;
  set: number;
  /** Values set (canonical text) with one raw value each. */
  values: GroupCounts;
  raw: Map<string, unknown>;
  /** Where set values came from. */
  fromQuery: number;
  fromOutput: number;
  fromElsewhere: number;
  /** Of the values from the request: written capitalised, passed lower-cased; names joined by '-'. */
  lowered: number;
  /** Of the values from the request: written with capitals and passed as written. */
  keptCase: number;
  slugged: number;
  /** Of the values not written whole in the request: those whose parts it writes apart, by the string that joins them (`BTC,USD`: ','). */
  joined: Map<string, number>;
  /** Words right before / right after values found in the request. */
  before: GroupCounts;
  after: GroupCounts;
  /** Keys of earlier outputs that held the value. */
  keys: GroupCounts;
  /** Shapes of the set values and the JSON types they were passed as. */
  shapes: Map<string, number>;
  types: Map<string, number>;
  /** Date templates of date values (`{date}T12:00:00.000Z`), by group. */
  templates: GroupCounts;
  /** Clause terms of the calls that set it, and of those that did not. */
  termsSet: GroupCounts;
  termsUnset: GroupCounts;
  /** Calls whose clause named the parameter (`namesParam`), and how many set it; the same for the others. */
  named: { calls: number; set: number };
  unnamed: { calls: number; set: number };
}

/** What the records show about one tool. */
export interface ToolEvidence {
  uses: number;
  groups: Set<string>;
  /** Words of the clauses that asked for the tool. */
  asks: GroupCounts;
  /** The tool called right before (`^`: none). */
  previous: Map<string, number>;
  /** Calls right after a call of the same tool. */
  repeated: number;
  /** Sets of optional parameters a call set (sorted names joined by ','). */
  combos: GroupCounts;
  params: Map<string, ParamEvidence>;
}

const bump = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);

function newParam(): ParamEvidence {
  return {
    calls: 0,
    set: 0,
    values: new GroupCounts(),
    raw: new Map(),
    fromQuery: 0,
    fromOutput: 0,
    fromElsewhere: 0,
    lowered: 0,
    keptCase: 0,
    slugged: 0,
    joined: new Map(),
    before: new GroupCounts(),
    after: new GroupCounts(),
    keys: new GroupCounts(),
    shapes: new Map(),
    types: new Map(),
    templates: new GroupCounts(),
    termsSet: new GroupCounts(),
    termsUnset: new GroupCounts(),
    named: { calls: 0, set: 0 },
    unnamed: { calls: 0, set: 0 },
  };
}

/**
 * The words written in lower case (as a whole word) in the requests of at least `minGroups` customers
 * (`customerOf`) that are words of the language or of the tools' texts (`knownWord`): the vocabulary
 * requests share, without the words of argument values no hint may keep: a name a customer writes in
 * lower case (`gus lindqvist`) is none of these. A word only ever written capitalised (`Rossi`, or `Yusuf` opening a
 * clause) is a proper name, however many groups write it — one customer's tasks recur across groups;
 * and the parts of a token with a digit or an `@`, or shaped like an identifier (`mia.garcia@…`,
 * `mia_garcia_4516`), are that token's, not words of the request.
 */
export function lowerCaseVocabulary(
  records: readonly ExampleRecord[],
  minGroups: number,
  tools: ReadonlySet<string> = new Set(),
): Set<string> {
  const seen = new GroupCounts();
  for (const record of records) {
    const group = customerOf(record);
    for (const token of record.query.split(/\s+/)) {
      const t = token.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
      if (t === '' || /[\d@]/.test(t) || isIdentifierShaped(t)) continue;
      for (const m of t.matchAll(/[A-Za-z]+/g)) if (!/[A-Z]/.test(m[0])) seen.add(m[0], group);
    }
  }
  // The words of an argument value no hint may keep (a name, a code, an id: one customer's data) are
  // data wherever they appear, also those that are words of the language ("gus" of "gus lindqvist").
  const data = new Set<string>();
  for (const record of records)
    for (const call of record.calls)
      for (const v of Object.values(call.args)) {
        if (typeof v !== 'string') continue;
        const parts = [...v.toLowerCase().matchAll(/[a-z]{3,}/g)].map((m) => m[0]);
        if (isIdentifierShaped(v) || !knownValue(v.toLowerCase(), tools)) for (const w of parts) data.add(w);
      }
  return new Set(seen.recurring(minGroups).filter((w) => knownWord(w, tools) && !data.has(w)));
}

/** True when every part of `word` (split at `'` and `-`) is in `vocabulary`. */
const inVocabulary = (word: string, vocabulary: ReadonlySet<string>) =>
  word.split(/[^a-z0-9]+/).every((part) => part === '' || vocabulary.has(part));

/**
 * Counts the evidence of every tool the records call (tools outside `tools` are left out). Words
 * (of the asking clause and around a value) count only when they are in the requests' lower-case
 * vocabulary (`lowerCaseVocabulary`, written in lower case in `minWordGroups` groups).
 */
export function toolEvidence(
  records: readonly ExampleRecord[],
  tools: readonly ToolDescriptor[],
  minWordGroups = 2,
): Map<string, ToolEvidence> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const out = new Map<string, ToolEvidence>();
  const vocabulary = lowerCaseVocabulary(records, minWordGroups, toolWords(tools));
  for (const record of records) {
    const group = customerOf(record);
    const clauses = requestClauses(record.query, record.calls.length);
    const n = record.calls.length;
    record.calls.forEach((call, index) => {
      const tool = byName.get(call.tool);
      if (!tool) return;
      let te = out.get(tool.name);
      if (!te)
        out.set(
          tool.name,
          (te = {
            uses: 0,
            groups: new Set(),
            asks: new GroupCounts(),
            previous: new Map(),
            repeated: 0,
            combos: new GroupCounts(),
            params: new Map(),
          }),
        );
      te.uses++;
      te.groups.add(group);
      const prev = index === 0 ? '^' : record.calls[index - 1]!.tool;
      bump(te.previous, prev);
      if (prev === tool.name) te.repeated++;
      // The clause that asked for this call: the same position, or the proportional one when counts differ.
      const k = clauses.length === n || n <= 1 ? index : Math.round((index * (clauses.length - 1)) / (n - 1));
      const clause = clauses[k] ?? record.query;
      const clauseWords = askWords(clause).filter((w) => inVocabulary(w, vocabulary));
      for (const w of clauseWords) te.asks.add(w, group);
      const clauseTerms = new Set(clauseWords.map(stem));
      const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
      const args = canonicalArgs(call.args, tool.inputSchema);
      const required = new Set(schema.required ?? []);
      const optionalSet = Object.keys(schema.properties ?? {}).filter((p) => !required.has(p) && args[p] !== undefined);
      te.combos.add(optionalSet.sort().join(','), group);
      const earlier = record.calls.slice(0, index).flatMap((c) => outputValues(c.output));
      for (const name of Object.keys(schema.properties ?? {})) {
        let pe = te.params.get(name);
        if (!pe) te.params.set(name, (pe = newParam()));
        observe(pe, name, {
          query: record.query,
          clauseAt: Math.max(0, record.query.indexOf(clause)),
          group,
          clauseTerms,
          earlier,
          value: args[name],
          raw: call.args[name],
          vocabulary,
        });
      }
    });
  }
  return out;
}

/**
 * Lower-case words of a clause that may describe what it asks: three letters or more, letters only,
 * no stop words, no proper names (the library's part of speech; a capitalised word past the clause's
 * first word counts as one too).
 */
export function askWords(clause: string): string[] {
  const out: string[] = [];
  readText(clause).tokens.forEach((t, i) => {
    if (t.type !== 'word' || t.stop || t.text.length < 3 || !/^[A-Za-z][A-Za-z'-]*$/.test(t.text)) return;
    if (i > 0 && (t.pos === 'PROPN' || /^[A-Z]/.test(t.text))) return;
    out.push(t.lower);
  });
  return [...new Set(out)];
}

interface Seen {
  query: string;
  /** Where the clause that asked for the call starts: a value is looked for there first. */
  clauseAt: number;
  group: string;
  clauseTerms: ReadonlySet<string>;
  earlier: ReadonlyArray<{ key: string; value: string }>;
  value: unknown;
  raw: unknown;
  /** The requests' lower-case vocabulary: the only words kept around a value. */
  vocabulary: ReadonlySet<string>;
}

/** Cue words that are no evidence of a source: a word with a digit or an `@` is one request's. */
const PRIVATE = /[@\d]/;

function observe(pe: ParamEvidence, name: string, o: Seen): void {
  pe.calls++;
  const terms = o.value === undefined ? pe.termsUnset : pe.termsSet;
  for (const t of o.clauseTerms) terms.add(t, o.group);
  const situation = namesParam(name, o.clauseTerms) ? pe.named : pe.unnamed;
  situation.calls++;
  if (o.value !== undefined) situation.set++;
  if (o.value === undefined) return;
  pe.set++;
  const key = stableStringify(o.value);
  pe.values.add(key, o.group);
  if (!pe.raw.has(key)) pe.raw.set(key, o.raw);
  bump(pe.shapes, valueShape(o.raw));
  bump(pe.types, Array.isArray(o.raw) ? 'array' : typeof o.raw);
  if (typeof o.raw === 'string' && /\d{4}-\d{2}-\d{2}/.test(o.raw))
    pe.templates.add(o.raw.replace(/\d{4}-\d{2}-\d{2}/, '{date}'), o.group);
  const text = typeof o.value === 'string' ? o.value : String(o.value);
  // Short values ("1", "en") and booleans match almost anywhere: no evidence of a source.
  const traceable = text.length >= 3 && typeof o.value !== 'boolean';
  let at = traceable || (text.length === 2 && /[A-Z0-9]/.test(text)) ? findFrom(o.query, text, o.clauseAt) : -1;
  const slug = at < 0 && traceable && /^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(text);
  if (slug) at = findFrom(o.query, text.replace(/-/g, ' '), o.clauseAt);
  const cues = (start: number, end: number) => {
    const { before, after } = contextAt(o.query, start, end);
    const cue = (w: string) => !PRIVATE.test(w) && o.vocabulary.has(w);
    for (const w of new Set(before.slice(-2))) if (cue(w)) pe.before.add(w, o.group);
    if (after && cue(after)) pe.after.add(after, o.group);
  };
  const joined = at < 0 && traceable && typeof o.raw === 'string' ? joinedParts(o.query, text) : undefined;
  if (joined) {
    pe.fromQuery++;
    bump(pe.joined, joined.sep);
    cues(joined.start, joined.end);
    return;
  }
  if (at >= 0) {
    pe.fromQuery++;
    if (slug) pe.slugged++;
    const written = o.query.slice(at, at + text.length);
    if (/^[A-Z][a-z]/.test(written) && text === text.toLowerCase()) pe.lowered++;
    else if (/[A-Z]/.test(written) && text === written) pe.keptCase++;
    cues(at, at + text.length);
    return;
  }
  const holders = traceable ? o.earlier.filter((p) => p.value.trim().toLowerCase() === text.toLowerCase()) : [];
  if (holders.length > 0) {
    pe.fromOutput++;
    // A bare output (the id itself) has no key to keep.
    for (const k of new Set(holders.map((h) => h.key))) if (k !== '' && !PRIVATE.test(k)) pe.keys.add(k, o.group);
  } else pe.fromElsewhere++;
}

/**
 * A value made of two to four parts joined by one separator (`BTC,USD`, `EUR/USD`, `BTC, EUR`) whose
 * parts the request writes apart, in order: the separator and where the parts are written.
 */
export function joinedParts(query: string, text: string): { sep: string; start: number; end: number } | undefined {
  const m = /^[^\s,/;|]+(\s?[,/;|]\s?)[^\s,/;|]+/.exec(text);
  if (!m) return undefined;
  const sep = m[1]!;
  const parts = text.split(sep);
  if (parts.length > 4 || parts.some((x) => x.length < 2 || /[\s,/;|]/.test(x))) return undefined;
  let from = 0;
  let start = -1;
  for (const part of parts) {
    const at = findToken(query.slice(from), part);
    if (at < 0) return undefined;
    if (start < 0) start = from + at;
    from += at + part.length;
  }
  return { sep, start, end: from };
}

/** Where `text` is written as a token: from `from` on when it is written there, else anywhere. */
function findFrom(query: string, text: string, from: number): number {
  const later = from > 0 ? findToken(query.slice(from), text) : -1;
  return later >= 0 ? from + later : findToken(query, text);
}
