import type { ParamStats, ToolStats } from './cue-stats.js';
import { stem } from './text.js';

/**
 * Whether an optional parameter is set (docs/DESIGN.md, "Policies": only the optional parameters
 * that the records show are usually set). Learned from the optimisation records, in this order:
 * 0. when the request writes one of the parameter's recurring values (`json` in "in JSON format")
 *    and the records hold at least three calls whose request wrote one, the smoothed rate at which
 *    it was set then (the tool's own calls, or for a tool the records never called, every tool's
 *    parameter of that name);
 * 1. when the clause that asks for the call names the parameter (a term shares a stem or a 4-letter
 *    prefix with a word of its name: `photos`, `promotions` for `promo`) and the records hold at least two calls
 *    in the same situation (named / not named), the rate at which it was set then, smoothed by one
 *    call toward the rate of every tool's parameter of that name in that situation (a tool called
 *    twice, once with `format` and once without, is not a coin toss when `format` is rarely passed
 *    elsewhere), or toward 1/2 when that name has fewer than two such calls;
 * 2. otherwise a small naive-Bayes estimate: the prior is how often it was set; when the records
 *    show it both set and unset, each query term seen at least three times with the tool moves the
 *    estimate by how much more often the term came with the parameter set (each term and their sum
 *    clipped, so no word and no pile of words decides alone);
 * 3. for a tool the records never called, step 1 over every tool's parameter of that name (`shared`);
 * 4. without records, 0.6 when the query names it, else 0.
 */

/** Calls with a recurring value written in the request needed before their rate decides (step 0). */
const MIN_WRITTEN_CALLS = 3;

/** Cap on the summed term evidence (in log-odds), so a long query cannot outvote the prior by volume. */
const MAX_EVIDENCE = 2;

const GENERIC = new Set([
  'id',
  'type',
  'format',
  'name',
  'data',
  'value',
  'code',
  'query',
  'limit',
  'page',
  'get',
  'max',
  'min',
  'string',
  'sort',
  'api',
  'key',
  'show',
  'all',
]);

/** True when a query term names the parameter (same stem, or a shared prefix of at least 4 letters). */
export function namesParam(name: string, queryTerms: ReadonlySet<string>): boolean {
  const parts = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !GENERIC.has(w))
    .map(stem);
  if (parts.length === 0) return false;
  for (const t of queryTerms) {
    for (const p of parts) {
      if (t === p) return true;
      const n = Math.min(t.length, p.length);
      if (n >= 4 && t.slice(0, n) === p.slice(0, n)) return true;
    }
  }
  return false;
}

/**
 * P(set) of an optional parameter given the query's terms (stemmed words), in [0, 1]. Whether the
 * parameter is named is read in `clauseTerms`, the terms of the clause that asks for the call (the
 * records count it so too), since a request names what each of its calls needs in its own clause.
 */
export function paramPresence(
  name: string,
  ts: ToolStats | undefined,
  queryTerms: ReadonlySet<string>,
  shared?: ParamStats,
  valueWritten = false,
  clauseTerms: ReadonlySet<string> = queryTerms,
): number {
  const named = namesParam(name, clauseTerms);
  const ps = ts?.params.get(name);
  const written = valueWritten ? (ps && ts && ts.uses > 0 ? ps : shared)?.whenValueWritten : undefined;
  if (written && written.calls >= MIN_WRITTEN_CALLS) return (written.set + 0.5) / (written.calls + 1);
  if (!ts || !ps || ts.uses === 0) {
    // A tool the records never called: how often other tools' parameters of this name were set.
    const situation = shared ? (named ? shared.whenNamed : shared.whenUnnamed) : undefined;
    if (situation && situation.calls >= 2) return (situation.set + 0.5) / (situation.calls + 1);
    return named ? 0.6 : 0;
  }
  const situation = named ? ps.whenNamed : ps.whenUnnamed;
  if (situation.calls >= 2) {
    const across = shared ? (named ? shared.whenNamed : shared.whenUnnamed) : undefined;
    const prior = across && across.calls >= 2 ? (across.set + 0.5) / (across.calls + 1) : 0.5;
    return (situation.set + prior) / (situation.calls + 1);
  }
  const set = ps.set;
  const unset = ts.uses - set;
  let logit = Math.log((set + 0.5) / (unset + 0.5));
  if (set >= 2 && unset >= 2) {
    let evidence = 0;
    for (const t of queryTerms) {
      const s = ps.termsWhenSet.get(t) ?? 0;
      const u = ps.termsWhenUnset.get(t) ?? 0;
      if (s + u < 3) continue;
      const w = Math.log((s + 0.5) / (set + 1)) - Math.log((u + 0.5) / (unset + 1));
      evidence += Math.max(-1, Math.min(1, w)) * 0.5;
    }
    logit += Math.max(-MAX_EVIDENCE, Math.min(MAX_EVIDENCE, evidence));
  }
  if (named) logit += 1;
  return 1 / (1 + Math.exp(-logit));
}

/** The optional parameters one call set, as one key (sorted names). */
export function presencePattern(set: readonly string[]): string {
  return [...set].sort().join(',');
}

/**
 * Optional parameters that go together: the records' calls of a tool set them in recurring
 * combinations (all of a tool's display flags, or none). The parameters judged one by one (P(set)
 * per parameter, `presence`) become the recurring combination (`MIN_PATTERN_REPEATS`+ calls) that costs least to
 * reach from them: each parameter changed costs how sure its own judgement was (|log-odds|), the more
 * frequent combination on a tie; once the tool has at least `MIN_PATTERN_CALLS` calls, and only when
 * the change costs at most `MAX_PATTERN_COST`.
 */
export function nearestPattern(presence: ReadonlyMap<string, number>, ts: ToolStats | undefined): Set<string> {
  const decided = new Set([...presence].filter(([, p]) => p >= 0.5).map(([n]) => n));
  const patterns = ts?.patterns;
  if (!ts || !patterns || ts.uses < MIN_PATTERN_CALLS) return decided;
  let best: { set: Set<string>; cost: number; n: number } | undefined;
  for (const [key, n] of patterns) {
    if (n < MIN_PATTERN_REPEATS) continue;
    const set = new Set(key ? key.split(',') : []);
    if ([...set].some((name) => !presence.has(name))) continue;
    let cost = 0;
    for (const [name, p] of presence) {
      if (set.has(name) === decided.has(name)) continue;
      const q = Math.min(0.99, Math.max(0.01, p));
      cost += Math.abs(Math.log(q / (1 - q)));
    }
    if (!best || cost < best.cost - 1e-9 || (Math.abs(cost - best.cost) <= 1e-9 && n > best.n)) best = { set, cost, n };
  }
  return best && best.cost <= MAX_PATTERN_COST ? best.set : decided;
}

/** Calls a combination must recur in to count (two calls can be one record's). */
export const MIN_PATTERN_REPEATS = 3;
/** Calls of a tool needed before its recurring combinations of optional parameters decide. */
const MIN_PATTERN_CALLS = 5;
/** The most a combination may cost (summed |log-odds| of the judgements it overturns). */
const MAX_PATTERN_COST = 3;
