import type { ToolDescriptor } from '../contracts/tools.js';
import type { ParamHint, ToolHint, ValueShape } from './schema.js';
import { isIdentifierShaped } from '../util/identifier-shape.js';
import { customerOf, knownValue, toolWords } from './customers.js';
import type { ExampleRecord } from './learn-bindings.js';
import { toolEvidence, type GroupCounts, type ParamEvidence, type ToolEvidence } from './hint-evidence.js';

/**
 * Typed hints from the optimisation records (docs/DESIGN.md, "Arguments by example": hints from
 * D_opt, learned by the search into the workflow): per tool, the words requests use when they ask for it and the tools
 * called before it; per parameter, whether a step sets it, where its value comes from, the words
 * written around it, its shapes and format, and the values it recurrently takes. What a hint keeps
 * must hold beyond the records it was learned from, and must not carry one customer's data into
 * another's calls:
 * - a value (in `values`, `usual`, and the constants the optimizer binds) is kept only when it was
 *   seen in at least `minValueGroups` distinct groups (tasks, sessions or users; records when
 *   records have no groups) and is not identifier-shaped (util/identifier-shape.ts: ids, e-mails,
 *   phone numbers, names, addresses, payment ids);
 * - a word (in `asks`, `before`, `after`, `asked`) is kept only when it recurs in at least
 *   `minWordGroups` groups, holds no digit and is written in lower case, as a whole word, in the
 *   requests of at least `minWordGroups` groups (`lowerCaseVocabulary`): a name written capitalised
 *   wherever it appears is no vocabulary, even when one customer's many tasks repeat it;
 * - a date template (`{date}T12:00:00Z`) is kept only when it recurs in `minWordGroups` groups and
 *   what surrounds the date is not identifier-shaped;
 * - nothing else of a record is kept: no request, no answer, no output.
 * Every threshold is one field of `HINT_PARAMETERS`.
 */

/** The parameters of hint learning, in one place. */
export const HINT_PARAMETERS = {
  /** Distinct groups a value must be seen in to be kept (a domain's vocabulary, not a customer's data). */
  minValueGroups: 5,
  /** Distinct groups a word (or an output key) must recur in to be kept. */
  minWordGroups: 2,
  /** Most words kept in `asks`. */
  maxAsks: 30,
  /** Least lift of an `asks` word: its share of the tool's calls over its share of every call. */
  minAskLift: 1.5,
  /** Most words, keys and shapes kept per share list, and least share kept. */
  maxShares: 8,
  minShare: 0.1,
  /** Least share of a parameter's values passed joined (`BTC,USD`) for its format to say so. */
  minJoinedShare: 0.25,
  /** Most values kept per parameter, and the longest (characters). */
  maxValues: 12,
  maxValueLength: 80,
  /** Calls a situation (named, not named) needs before its rate is given. */
  minSituationCalls: 2,
  /** A word weighs in `asked` when it came with at least this many calls (and both set and unset calls number two or more). */
  minAskedCalls: 3,
  /** Least |weight| of an `asked` word kept. */
  minAskedWeight: 0.25,
  /** Least share of the calls that follow a tool for `follows` to list it. */
  minFollowShare: 0.1,
  /** Calls of a tool before its combinations of optional parameters are given, and calls a combination must recur in. */
  minComboUses: 5,
  minComboCalls: 3,
  /** The readable `set` summary: `always` from this probability of being set without being named, `never` below `never` when named too. */
  setSummary: { always: 0.7, never: 0.2 },
};

export type HintParameters = Readonly<typeof HINT_PARAMETERS>;

/** Typed hints per tool the records call (see the module comment). */
export function learnToolHints(
  records: readonly ExampleRecord[],
  tools: readonly ToolDescriptor[],
  params: HintParameters = HINT_PARAMETERS,
): Map<string, ToolHint> {
  const evidence = toolEvidence(records, tools, params.minWordGroups);
  const words = toolWords(tools);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const out = new Map<string, ToolHint>();
  // How often each word came with any call: a word that comes with one tool's calls no more often
  // than with every call tells nothing about that tool.
  const all = { uses: 0, words: new Map<string, number>() };
  for (const te of evidence.values()) {
    all.uses += te.uses;
    for (const [w, n] of te.asks.counts) all.words.set(w, (all.words.get(w) ?? 0) + n);
  }
  for (const [name, te] of evidence) out.set(name, toolHint(name, te, byName.get(name)!, params, all, words));
  return out;
}

/** The number of distinct groups among `records`. */
export const groupCount = (records: readonly ExampleRecord[]): number => new Set(records.map(customerOf)).size;

const round = (x: number) => Math.round(x * 100) / 100;

/** Recurring words (or keys) with the share of `total` each accounts for, the largest first (undefined: none). */
function shares(c: GroupCounts, total: number, p: HintParameters): Record<string, number> | undefined {
  if (total <= 0) return undefined;
  const kept = c
    .recurring(p.minWordGroups)
    .map((w) => [w, round(Math.min(1, c.count(w) / total))] as const)
    .filter(([, v]) => v >= p.minShare)
    .slice(0, p.maxShares);
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

function toolHint(
  name: string,
  te: ToolEvidence,
  tool: ToolDescriptor,
  p: HintParameters,
  all: { uses: number; words: ReadonlyMap<string, number> },
  words: ReadonlySet<string>,
): ToolHint {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const required = new Set(schema.required ?? []);
  const hint: ToolHint = { tool: name, uses: te.uses };
  // The word's share of this tool's calls against its share of every call (records of one tool: no contrast).
  const lift = (w: string) =>
    all.uses === te.uses ? Infinity : te.asks.count(w) / te.uses / ((all.words.get(w) ?? 1) / all.uses);
  const asks = te.asks
    .recurring(p.minWordGroups)
    .filter((w) => lift(w) >= p.minAskLift)
    .slice(0, p.maxAsks)
    .map((w) => [w, round(te.asks.count(w) / te.uses)] as const);
  if (asks.length > 0) hint.asks = Object.fromEntries(asks);
  const follows = [...te.previous]
    .map(([t, n]) => [t, round(n / te.uses)] as const)
    .filter(([, v]) => v >= p.minFollowShare)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  if (follows.length > 0) hint.follows = Object.fromEntries(follows);
  if (te.repeated > 0) {
    const main = mainParam([...required], te);
    if (main) hint.repeat = main;
  }
  if (te.uses >= p.minComboUses) {
    const together = te.combos
      .recurring(p.minWordGroups)
      .filter((c) => te.combos.count(c) >= p.minComboCalls)
      .map((c) => ({ params: c ? c.split(',') : [], share: round(te.combos.count(c) / te.uses) }));
    if (together.length > 0) hint.together = together;
  }
  const params: Record<string, ParamHint> = {};
  for (const [param, pe] of te.params) {
    const h = paramHint(param, pe, required.has(param), schema.properties?.[param], te.uses, p, words);
    if (Object.keys(h).length > 0) params[param] = h;
  }
  if (Object.keys(params).length > 0) hint.params = params;
  return hint;
}

/** The required parameter whose values most often came from the request (what a repeated call varies). */
function mainParam(required: string[], te: ToolEvidence): string | undefined {
  let best: string | undefined;
  let rate = -1;
  for (const name of required) {
    const pe = te.params.get(name);
    const r = pe && pe.set > 0 ? pe.fromQuery / pe.set : 0;
    if (r > rate) [best, rate] = [name, r];
  }
  return best;
}

function presence(pe: ParamEvidence, uses: number, p: HintParameters): Pick<ParamHint, 'set' | 'setRates' | 'asked'> {
  const rate = (s: { calls: number; set: number }) =>
    s.calls >= p.minSituationCalls ? round(s.set / s.calls) : undefined;
  const setRates: NonNullable<ParamHint['setRates']> = { overall: round(pe.set / Math.max(1, pe.calls)) };
  const named = rate(pe.named);
  const unnamed = rate(pe.unnamed);
  if (named !== undefined) setRates.named = named;
  if (unnamed !== undefined) setRates.unnamed = unnamed;
  // Words that go with setting it: smoothed log-odds of a call with the word being set, against the
  // calls without it, halved and clipped to [-1, 1]; only where both set and unset calls number two or more.
  const asked: Record<string, number> = {};
  const set = pe.set;
  const unset = uses - pe.set;
  if (set >= 2 && unset >= 2)
    for (const t of new Set([...pe.termsSet.recurring(p.minWordGroups), ...pe.termsUnset.recurring(p.minWordGroups)])) {
      const s = pe.termsSet.count(t);
      const u = pe.termsUnset.count(t);
      if (s + u < p.minAskedCalls) continue;
      const w = Math.max(-1, Math.min(1, Math.log((s + 0.5) / (set + 1)) - Math.log((u + 0.5) / (unset + 1)))) * 0.5;
      if (Math.abs(w) >= p.minAskedWeight) asked[t] = round(w);
    }
  const out: Pick<ParamHint, 'set' | 'setRates' | 'asked'> = { setRates };
  if (Object.keys(asked).length > 0) out.asked = asked;
  const notNamed = unnamed ?? setRates.overall;
  out.set =
    notNamed >= p.setSummary.always
      ? 'always'
      : (named ?? setRates.overall) < p.setSummary.never && !out.asked
        ? 'never'
        : 'if-asked';
  return out;
}

function paramHint(
  param: string,
  pe: ParamEvidence,
  isRequired: boolean,
  prop: { type?: unknown } | undefined,
  uses: number,
  p: HintParameters,
  words: ReadonlySet<string>,
): ParamHint {
  // A required parameter the recorded calls left out (the tool took its own default) is learned as an
  // optional one is: what the calls did outweighs what the schema says.
  const h: ParamHint = (isRequired && pe.set === pe.calls) || pe.calls === 0 ? {} : presence(pe, uses, p);
  if (pe.set === 0) return h;
  const from = (
    [
      ['request', pe.fromQuery],
      ['upstream', pe.fromOutput],
      ['constant', pe.fromElsewhere],
    ] as const
  ).filter(([, n]) => n > 0);
  if (from.length > 0) h.from = Object.fromEntries(from.map(([k, n]) => [k, round(n / pe.set)]));
  const before = shares(pe.before, pe.fromQuery, p);
  if (before) h.before = before;
  const after = shares(pe.after, pe.fromQuery, p);
  if (after) h.after = after;
  const keys = shares(pe.keys, pe.fromOutput, p);
  if (keys) h.keys = keys;
  if (pe.set >= 2) {
    const shapes = [...pe.shapes]
      .map(([s, n]) => [s, round(n / pe.set)] as const)
      .filter(([, v]) => v >= p.minShare)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    if (shapes.length > 0) h.shapes = Object.fromEntries(shapes) as Partial<Record<ValueShape, number>>;
  }
  const format: NonNullable<ParamHint['format']> = {};
  // A template is a value around a date: it recurs in groups and holds nothing identifier-shaped (its date made
  // concrete, so `{date}T09:00Z` reads as a date-time), like a value.
  const template = pe.templates.recurring(p.minWordGroups).find(
    (t) =>
      !t
        .replace('{date}', '2000-01-01')
        .split(/\s+/)
        .some((w) => isIdentifierShaped(w, { name: param })),
  );
  if (template && template !== '{date}' && pe.templates.count(template) >= 2) format.template = template;
  // Lower-cased when the values the request wrote with capitals were passed lower-cased at least twice and more
  // often than as written (values the request already wrote in lower case say nothing about case).
  if (pe.lowered >= 2 && pe.lowered > pe.keptCase) format.lower = true;
  if (pe.slugged >= 2) format.join = '-';
  // Values passed joined ("BTC,USD" for a request's "BTC and USD"), when the joined form makes up a
  // share of the values: the most frequent separator.
  const [sep, joined] = [...pe.joined].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  if (joined >= 2 && joined / pe.set >= p.minJoinedShare) format.listSep = sep;
  const types = Array.isArray(prop?.type) ? (prop.type as string[]) : [];
  if (types.length > 1) {
    const passed = [...pe.types].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (passed === 'string' || passed === 'number' || passed === 'boolean') format.type = passed;
  }
  if (Object.keys(format).length > 0) h.format = format;
  const values = keptValues(param, pe, p, words);
  if (values.length > 0) h.values = values;
  return h;
}

/** The values a hint may keep (see the module comment), with their shares, most frequent first. */
function keptValues(
  param: string,
  pe: ParamEvidence,
  p: HintParameters,
  words: ReadonlySet<string>,
): NonNullable<ParamHint['values']> {
  return pe.values
    .recurring(p.minValueGroups)
    .map((k) => ({ raw: pe.raw.get(k), share: round(pe.values.count(k) / Math.max(1, pe.set)) }))
    .filter(
      (v): v is { raw: string | number | boolean; share: number } =>
        (typeof v.raw === 'string' || typeof v.raw === 'number' || typeof v.raw === 'boolean') &&
        String(v.raw).length <= p.maxValueLength &&
        !isIdentifierShaped(v.raw, { name: param }) &&
        knownValue(v.raw, words),
    )
    .slice(0, p.maxValues)
    .map((v) => ({ value: v.raw, share: v.share }));
}
