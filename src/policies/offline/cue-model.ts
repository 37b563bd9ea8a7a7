import { canonicalArgs, stableStringify } from '../../contracts/canonical-args.js';
import type { TaskRecord } from '../../records/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { ParamStats, ToolStats } from './cue-stats.js';
import { MIN_PATTERN_REPEATS, namesParam, presencePattern } from './presence.js';

export type { ParamStats, ToolStats } from './cue-stats.js';
import { findToken, requestClauses, terms } from './text.js';
import { countWrittenValues, KEEP_VALUE_CALLS } from './written-values.js';
import { contextAt, monthNames, outputPairs, shapeOf } from './value-candidates.js';

/**
 * What the offline policy learns from the optimisation records, and only from them (docs/DESIGN.md,
 * "Policies": argument values found with cues learned from D_opt). Per tool parameter:
 * how often it is set, its values, their shapes, whether the value was in the query or came from an
 * earlier call's output (docs/DESIGN.md, "Data formats" §6, `adapt_*`), the words that preceded it in the query, the
 * output keys that held it, whether it was the schema's default, and the query words that go with the
 * parameter being set; the same per parameter name over all tools (the back-off for tools the records
 * never called). Per tool: the query clauses that asked for it (retrieval expansion) and which tool
 * came before it.
 */

export interface CueModel {
  tools: Map<string, ToolStats>;
  /**
   * Per parameter *name*, over every tool that has a parameter of that name: the back-off for tools
   * the records never called (a held-out API chain still passes `symbol`, `lat`, `interval`).
   */
  params: Map<string, ParamStats>;
  /** Records learned from. */
  records: number;
}

export const EMPTY_CUE_MODEL: CueModel = { tools: new Map(), params: new Map(), records: 0 };

function bump<K>(m: Map<K, number>, k: K, by = 1): void {
  m.set(k, (m.get(k) ?? 0) + by);
}

function newParam(): ParamStats {
  return {
    calls: 0,
    set: 0,
    asDefault: 0,
    values: new Map(),
    raw: new Map(),
    fromQuery: 0,
    loweredFromQuery: 0,
    sluggedFromQuery: 0,
    fromOutput: 0,
    fromElsewhere: 0,
    cues: new Map(),
    shapes: new Map(),
    rawTypes: new Map(),
    outputKeys: new Map(),
    termsWhenSet: new Map(),
    termsWhenUnset: new Map(),
    whenNamed: { calls: 0, set: 0 },
    whenUnnamed: { calls: 0, set: 0 },
    whenValueWritten: { calls: 0, set: 0 },
  };
}

/** The cue words around position [start, end) of the query. */
export function cueWords(query: string, start: number, end: number): string[] {
  const { before, after } = contextAt(query, start, end);
  return [...before.slice(-2).map((w) => `b:${w}`), ...(after ? [`a:${after}`] : [])];
}

/** Learns the cue model from records (their calls' tools must be among `tools` to count). */
export function learnCueModel(records: readonly TaskRecord[], tools: readonly ToolDescriptor[]): CueModel {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const model: CueModel = { tools: new Map(), params: new Map(), records: records.length };
  for (const record of records) {
    const query = record.query;
    const queryTerms = new Set(terms(query));
    const clauses = requestClauses(query, record.calls.length);
    record.calls.forEach((call, index) => {
      const tool = byName.get(call.tool);
      if (!tool) return;
      let ts = model.tools.get(tool.name);
      if (!ts)
        model.tools.set(
          tool.name,
          (ts = {
            uses: 0,
            params: new Map(),
            clauses: [],
            previous: new Map(),
            positions: new Map(),
            patterns: new Map(),
          }),
        );
      ts.uses++;
      bump(ts.previous, index === 0 ? '^' : record.calls[index - 1]!.tool);
      bump(ts.positions, index);
      // The clause that asked for this call: the same position, or the proportional one when counts differ.
      const n = record.calls.length;
      const k = clauses.length === n || n <= 1 ? index : Math.round((index * (clauses.length - 1)) / (n - 1));
      if (clauses[k]) ts.clauses.push(clauses[k]!);
      const schema = tool.inputSchema as { properties?: Record<string, { default?: unknown }> };
      const args = canonicalArgs(call.args, tool.inputSchema);
      const earlier = record.calls.slice(0, index).flatMap((c) => outputPairs(c.output));
      const defaults = canonicalArgs(
        Object.fromEntries(
          Object.entries(schema.properties ?? {})
            .filter(([, p]) => p?.default !== undefined)
            .map(([param, p]) => [param, p.default]),
        ),
        tool.inputSchema,
      );
      const required = new Set((tool.inputSchema as { required?: string[] }).required ?? []);
      const optional = Object.keys(schema.properties ?? {}).filter((n) => !required.has(n));
      bump((ts.patterns ??= new Map()), presencePattern(optional.filter((n) => args[n] !== undefined)));
      for (const name of Object.keys(schema.properties ?? {})) {
        let ps = ts.params.get(name);
        if (!ps) ts.params.set(name, (ps = newParam()));
        let shared = model.params.get(name);
        if (!shared) model.params.set(name, (shared = newParam()));
        const seen = {
          query,
          queryTerms,
          clauseTerms: clauses[k] ? new Set(terms(clauses[k]!)) : queryTerms,
          earlier,
          value: args[name],
          raw: call.args[name],
          isDefault: args[name] !== undefined && stableStringify(args[name]) === stableStringify(defaults[name]),
        };
        observe(ps, name, seen);
        observe(shared, name, seen);
      }
    });
  }
  countWrittenValues(records, byName, model);
  return model;
}

interface Observation {
  query: string;
  queryTerms: ReadonlySet<string>;
  /** Terms of the clause that asked for the call (the query's when no clause aligns): whether it names the parameter. */
  clauseTerms: ReadonlySet<string>;
  earlier: ReadonlyArray<{ key: string; value: string }>;
  /** The canonical value (undefined: not set) and the recorded one. */
  value: unknown;
  raw: unknown;
  isDefault: boolean;
}

/** One call's evidence about one parameter. */
function observe(ps: ParamStats, name: string, o: Observation): void {
  ps.calls++;
  const value = o.value;
  const termMap = value === undefined ? ps.termsWhenUnset : ps.termsWhenSet;
  for (const t of o.queryTerms) bump(termMap, t);
  const situation = namesParam(name, o.clauseTerms) ? ps.whenNamed : ps.whenUnnamed;
  situation.calls++;
  if (value !== undefined) situation.set++;
  if (value === undefined) return;
  ps.set++;
  if (o.isDefault) ps.asDefault++;
  const key = stableStringify(value);
  bump(ps.values, key);
  if (!ps.raw.has(key)) ps.raw.set(key, o.raw);
  bump(ps.shapes, shapeOf(o.raw));
  bump(ps.rawTypes, Array.isArray(o.raw) ? 'array' : typeof o.raw);
  const text = typeof value === 'string' ? value : String(value);
  // Short values ("1", "en") and booleans match almost anywhere; they are not evidence of a source.
  const traceable = text.length >= 3 && typeof value !== 'boolean';
  let at = traceable || (text.length === 2 && /[A-Z0-9]/.test(text)) ? findToken(o.query, text) : -1;
  // `east-lansing` for "East Lansing": a name written as a hyphenated slug.
  const slug = at < 0 && traceable && /^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(text);
  if (slug) at = findToken(o.query, text.replace(/-/g, ' '));
  // `6` for "in June 2024": a month passed by its number.
  const month =
    at < 0 && /^\d{1,2}$/.test(text) ? monthNames(o.query).find((m) => m.month === Number(text)) : undefined;
  if (month) {
    ps.fromQuery++;
    ps.monthFromQuery = (ps.monthFromQuery ?? 0) + 1;
    for (const w of cueWords(o.query, month.start, month.end)) bump(ps.cues, w);
    return;
  }
  if (at >= 0) {
    ps.fromQuery++;
    if (slug) ps.sluggedFromQuery = (ps.sluggedFromQuery ?? 0) + 1;
    const written = o.query.slice(at, at + text.length);
    if (/^[A-Z][a-z]/.test(written) && text === text.toLowerCase())
      ps.loweredFromQuery = (ps.loweredFromQuery ?? 0) + 1;
    for (const w of cueWords(o.query, at, at + text.length)) bump(ps.cues, w);
    return;
  }
  const holders = traceable ? o.earlier.filter((p) => p.value.trim().toLowerCase() === text.toLowerCase()) : [];
  if (holders.length > 0) {
    ps.fromOutput++;
    for (const k of new Set(holders.map((h) => h.key))) bump(ps.outputKeys, k);
  } else ps.fromElsewhere++;
}

/** Clause words, cue words and query terms must recur this often to be kept. */
const KEEP_WORD = 2;
const PRIVATE = /@|\d/;

const keepCounts = (m: ReadonlyMap<string, number>, min: number, ok: (k: string) => boolean = () => true) =>
  new Map([...m].filter(([k, n]) => n >= min && ok(k)));

/**
 * The cue model without record text (docs/DESIGN.md, "Policies": a workflow carries no record
 * text): per parameter, only values set in at least `KEEP_VALUE_CALLS` calls (a domain's recurring
 * constants) and no value with an `@`; cue words, query terms and output keys that recur; per tool, the
 * clauses that asked for it become their recurring words (no digits, no `@`), as a bag, so no request
 * survives. Counts are kept. The offline policy always decides with the distilled model, so a
 * workflow that carries it (`cueTable`) decides the same wherever it runs.
 */
export function distillCueModel(model: CueModel): CueModel {
  /** `uses`: the calls of the parameter's tool; absent for the statistics shared by parameters of one name. */
  const param = (ps: ParamStats, uses?: number): ParamStats => {
    const values = keepCounts(ps.values, KEEP_VALUE_CALLS, (k) => !k.includes('@') && k.length <= 80);
    const whenSet = keepCounts(ps.termsWhenSet, KEEP_WORD, (k) => !PRIVATE.test(k));
    const whenUnset = keepCounts(ps.termsWhenUnset, KEEP_WORD, (k) => !PRIVATE.test(k));
    // presence.ts reads term counts only of a tool's own parameter that was set and left unset in
    // at least two calls each, and only of terms counted at least three times in all: the rest
    // (and the shared statistics' terms, which nothing reads) would only make the table grow with
    // the log.
    const read = uses !== undefined && ps.set >= 2 && uses - ps.set >= 2;
    const counted = (k: string) => (whenSet.get(k) ?? 0) + (whenUnset.get(k) ?? 0) >= 3;
    return {
      ...ps,
      values,
      raw: new Map([...ps.raw].filter(([k]) => values.has(k))),
      cues: keepCounts(ps.cues, KEEP_WORD, (k) => !PRIVATE.test(k)),
      outputKeys: keepCounts(ps.outputKeys, KEEP_WORD, (k) => !k.includes('@')),
      termsWhenSet: read ? keepCounts(whenSet, 0, counted) : new Map(),
      termsWhenUnset: read ? keepCounts(whenUnset, 0, counted) : new Map(),
    };
  };
  const tools = new Map<string, ToolStats>();
  for (const [name, ts] of model.tools) {
    const df = new Map<string, number>();
    const bags = ts.clauses.map((c) => (c.toLowerCase().match(/[a-z0-9@._-]+/g) ?? []).filter((w) => !PRIVATE.test(w)));
    for (const b of bags) for (const w of new Set(b)) df.set(w, (df.get(w) ?? 0) + 1);
    const words = bags.flat().filter((w) => (df.get(w) ?? 0) >= KEEP_WORD);
    words.sort();
    tools.set(name, {
      ...ts,
      params: new Map([...ts.params].map(([k, v]) => [k, param(v, ts.uses)])),
      clauses: words.length > 0 ? [words.join(' ')] : [],
      patterns: keepCounts(ts.patterns ?? new Map(), MIN_PATTERN_REPEATS),
    });
  }
  return { tools, params: new Map([...model.params].map(([k, v]) => [k, param(v)])), records: model.records };
}

type Table = Record<string, unknown>;
const mapOut = <V>(m: ReadonlyMap<string | number, V>, f: (v: V) => unknown = (v) => v) =>
  [...m].map(([k, v]) => [k, f(v)]);
const mapIn = <K, V>(a: unknown, f: (v: unknown) => V = (v) => v as V): Map<K, V> =>
  new Map(((a as Array<[K, unknown]>) ?? []).map(([k, v]) => [k, f(v)]));

function paramOut(ps: ParamStats): Table {
  return {
    ...ps,
    values: mapOut(ps.values),
    raw: mapOut(ps.raw),
    cues: mapOut(ps.cues),
    shapes: mapOut(ps.shapes),
    rawTypes: mapOut(ps.rawTypes),
    outputKeys: mapOut(ps.outputKeys),
    termsWhenSet: mapOut(ps.termsWhenSet),
    termsWhenUnset: mapOut(ps.termsWhenUnset),
  };
}

function paramIn(t: unknown): ParamStats {
  const p = t as Table;
  return {
    ...(p as unknown as ParamStats),
    values: mapIn(p.values),
    raw: mapIn(p.raw),
    cues: mapIn(p.cues),
    shapes: mapIn(p.shapes),
    rawTypes: mapIn(p.rawTypes),
    outputKeys: mapIn(p.outputKeys),
    termsWhenSet: mapIn(p.termsWhenSet),
    termsWhenUnset: mapIn(p.termsWhenUnset),
  };
}

/**
 * A distilled tool's clause words (one sorted bag, `distillCueModel`) as [word, count] pairs: the
 * table then grows with the vocabulary, not with the log; `wordsText` gives the bag back.
 */
function wordCounts(clauses: readonly string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const c of clauses) for (const w of c.split(' ')) if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts];
}

function wordsText(pairs: unknown): string[] {
  const words = (pairs as Array<[string, number]>).flatMap(([w, n]) => Array<string>(n).fill(w));
  return words.length > 0 ? [words.join(' ')] : [];
}

/**
 * The version of the rules that count what `cueTable` writes. Raise it whenever learning counts
 * something differently: a workflow whose table has an older version (or none: tables written before
 * versions were recorded) still runs, and `eval` and `run` say that it decides with the counts of an
 * earlier version until its search is run again.
 */
export const CUE_TABLE_FORMAT = 2;

/** A (distilled) cue model as JSON, for a workflow's `learned.offline`. */
export function cueTable(model: CueModel): Table {
  return {
    format: CUE_TABLE_FORMAT,
    records: model.records,
    tools: mapOut(model.tools, (ts) => ({
      uses: ts.uses,
      params: mapOut(ts.params, paramOut),
      clauseWords: wordCounts(ts.clauses),
      previous: mapOut(ts.previous),
      positions: mapOut(ts.positions),
      patterns: mapOut(ts.patterns ?? new Map()),
    })),
    params: mapOut(model.params, paramOut),
  };
}

/** The cue model a workflow's `learned.offline` table holds (see `cueTable`). */
export function cueModelFromTable(table: unknown): CueModel {
  const t = table as Table;
  return {
    records: typeof t.records === 'number' ? t.records : 0,
    tools: mapIn(t.tools, (v) => {
      const ts = v as Table;
      return {
        uses: ts.uses as number,
        params: mapIn(ts.params, paramIn),
        // A table written before the clause words were counted holds the clauses themselves.
        clauses: Array.isArray(ts.clauseWords) ? wordsText(ts.clauseWords) : ((ts.clauses as string[]) ?? []),
        previous: mapIn(ts.previous),
        positions: mapIn(ts.positions),
        patterns: mapIn(ts.patterns),
      };
    }),
    params: mapIn(t.params, paramIn),
  };
}
