import { stableStringify } from '../../contracts/canonical-args.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { CueModel, ParamStats, ToolStats } from './cue-model.js';
import { writesValue, writtenValues } from './written-values.js';
import { nearestPattern, paramPresence } from './presence.js';
import { terms } from './text.js';
import { outputPairs, queryCandidates, shapeOf, type ValueCandidate } from './value-candidates.js';
import { FILL_WEIGHTS } from './fill-weights.js';
import { statsFor, usual, usualOfOptional, type Stats } from './usual-value.js';
import {
  dateTemplate,
  foreignShape,
  knownInQuery,
  monthsInQuery,
  writtenAsSlug,
  writtenLowerCase,
} from './value-fit.js';
import { fits, kindPrior, nameWords, propsOf, typed, type PropSchema } from './param-schema.js';

/**
 * Argument filling of the offline policy (docs/DESIGN.md, "Policies"): every candidate value found
 * in the query or in upstream outputs is scored for every parameter by its shape, its cue words,
 * whether it is a value the parameter took in the optimisation records, whether the parameter's
 * name stands next to it, and where the parameter's values usually come from (query, an earlier
 * output, or neither: a constant). Parameters take the best candidates greedily (highest score
 * first). A required parameter left without a value takes its learned most frequent value; never
 * seen in the records, it takes its schema default when parameters of its name usually took theirs
 * (over every tool the records called), else the best value found however weak that no other
 * parameter took, else the schema default. A required parameter with none of these has no value:
 * it is listed in `missing` and the policy makes no call (an error observation, "no value for
 * `b`"), rather than guessing: giving the one number of "add the number 2" to both `a` and `b` of
 * `sum(a, b)` would call a real tool with an invented value. Optional parameters are set only when
 * the records show they usually are (or the query's words say so, see presence.ts), or when the
 * clause that asks for the call holds a value that scores strongly for one usually taken from the
 * request (`strongValue`); one judged surely set (`optionalUsual.minPresence`) that no found value
 * reaches takes its usual value; one judged less surely (`outsideClause`) takes no request value
 * from outside the clause that asks for the call.
 */

export interface FillContext {
  query: string;
  /** Spans [start, end) of the query that speak about this call (its clause); values there count more. */
  focus?: Spans;
  /** Outputs of the calls this node can see (upstream tool results), most recent last. */
  outputs: readonly unknown[];
  /** The span of the clause this call serves: `main` then lists only the values the clause itself gives. */
  clauseSpan?: readonly [number, number];
}

/** A scored candidate for one parameter. */
interface Scored {
  param: string;
  value: unknown;
  score: number;
  /** Identity of the candidate (to discourage giving one value to two parameters). */
  key: string;
  /** Where a query value starts in the query. */
  start?: number;
}

const W = FILL_WEIGHTS;

function share(m: Map<string, number>, k: string, total: number): number {
  return total > 0 ? (m.get(k) ?? 0) / total : 0;
}

function cueScore(ps: ParamStats, c: ValueCandidate): number {
  if (ps.fromQuery === 0) return 0;
  let best = 0;
  const near = c.before.slice(-2).map((w) => `b:${w}`);
  if (c.after) near.push(`a:${c.after}`);
  for (const w of near) best = Math.max(best, share(ps.cues, w, ps.fromQuery));
  return best;
}

type Spans = ReadonlyArray<readonly [number, number]>;

/** True when a found value starts inside the clause that asks for the call. */
function inFocus(start: number | undefined, focus: Spans): boolean {
  return start !== undefined && focus.some(([a, b]) => start >= a && start < b);
}

function scoreCandidates(
  name: string,
  prop: PropSchema | undefined,
  stats: Stats | undefined,
  cands: ValueCandidate[],
  outputs: readonly unknown[],
  focus: Spans,
): Scored[] {
  const out: Scored[] = [];
  // Shared statistics mix other tools' values, sources and cue words: they decide only the constant.
  const ownStats = stats && !stats.shared ? stats.ps : undefined;
  const nWords = nameWords(name);
  const queryShare = ownStats && ownStats.set > 0 ? ownStats.fromQuery / ownStats.set : W.queryShareWithoutRecords;
  const outputShare = ownStats && ownStats.set > 0 ? ownStats.fromOutput / ownStats.set : W.outputShareWithoutRecords;
  const template = ownStats ? dateTemplate(ownStats) : undefined;
  // A parameter that nearly always took one value needs strong evidence for any other value.
  const usualValue = usual(stats, prop);
  const novelty =
    ownStats && usualValue && ownStats.set >= W.noveltyMinRecords ? 1 - W.noveltyDamping * usualValue.share : 1;
  const q = W.queryValue;
  const priors = new Map<ValueCandidate['kind'], number>();
  const prior = (kind: ValueCandidate['kind']): number => {
    let p = priors.get(kind);
    if (p === undefined) priors.set(kind, (p = kindPrior(nWords, prop, kind)));
    return p;
  };
  const lowerCase = ownStats !== undefined && writtenLowerCase(ownStats);
  const slugs = lowerCase && writtenAsSlug(ownStats!);
  for (const c of cands) {
    let value = c.value;
    if (c.kind === 'date' && template) value = template.replace('{date}', value);
    if (lowerCase && c.kind === 'proper') value = value.toLowerCase();
    if (slugs && c.kind === 'proper') value = value.replace(/[\s,]+/g, '-');
    if (!fits(value, prop)) continue;
    const shape = shapeOf(value);
    const shapeShare = ownStats && ownStats.set > 0 ? share(ownStats.shapes, shape, ownStats.set) : prior(c.kind);
    const knownShare = ownStats
      ? share(ownStats.values, stableStringify(typed(value, prop, ownStats)), ownStats.set)
      : 0;
    if (knownShare === 0 && foreignShape(ownStats, shape)) continue;
    const named =
      c.before.slice(-2).some((w) => nWords.includes(w)) ||
      nWords.includes(c.after) ||
      (c.role ?? []).some((w) => nWords.includes(w))
        ? 1
        : 0;
    const cue = ownStats ? cueScore(ownStats, c) : 0;
    let score =
      q.shape * shapeShare +
      q.cueWord * cue +
      q.knownValue * Math.min(1, knownShare * q.knownSaturation) +
      q.nameNextToValue * named +
      queryShare;
    if (c.kind === 'known') score += q.knownInQueryBonus;
    if (inFocus(c.start, focus)) score += W.clauseFocusBonus;
    if (knownShare === 0) score *= novelty;
    out.push({
      param: name,
      value: typed(value, prop, ownStats),
      score,
      key: `q:${c.start}:${c.value}`,
      start: c.start,
    });
  }
  // Values from upstream outputs: by the keys that held this parameter's values in the records.
  if (outputs.length > 0) {
    const o = W.outputValue;
    const keys = ownStats?.outputKeys ?? new Map<string, number>();
    const keyTotal = [...keys.values()].reduce((a, b) => a + b, 0);
    const seen = new Set<string>();
    outputs.forEach((output, oi) => {
      for (const pair of outputPairs(output)) {
        const keyShare = keyTotal > 0 ? share(keys, pair.key, keyTotal) : 0;
        const keyNamed = nameWords(pair.key).join('_') === nWords.join('_') ? 1 : 0;
        if (keyShare === 0 && keyNamed === 0) continue;
        if (seen.has(pair.key + pair.value) || !fits(pair.value, prop)) continue;
        seen.add(pair.key + pair.value);
        const shapeShare =
          ownStats && ownStats.set > 0
            ? share(ownStats.shapes, shapeOf(pair.value), ownStats.set)
            : o.shapeWithoutRecords;
        const score =
          o.shape * shapeShare +
          o.key * Math.max(keyShare, keyNamed * o.keyNamedOnly) +
          o.outputShare * outputShare +
          o.recencyStep * (oi + 1 - outputs.length);
        out.push({ param: name, value: typed(pair.value, prop, ownStats), score, key: `o:${pair.key}:${pair.value}` });
        break;
      }
    });
  }
  // A constant: the parameter's usual value when its values rarely come from the query or outputs.
  const constantStats = stats?.ps;
  if (constantStats && usualValue && constantStats.set > 0) {
    const elsewhere = constantStats.fromElsewhere / constantStats.set;
    out.push({
      param: name,
      value: usualValue.value,
      score: W.constant.scale * usualValue.share * (W.constant.baseline + elsewhere),
      key: `c:${name}`,
    });
  }
  return out;
}

export interface FillResult {
  args: Record<string, unknown>;
  /** Required parameters for which no value was found (see the file comment). */
  missing: string[];
  /** For `calls: 'many'`: the main parameter and every value found for it (document order). */
  main?: { param: string; values: unknown[] };
}

// What a query gives every call of a request, read once per query (a request's calls all read it).
const queryMemo = new Map<string, { base: ValueCandidate[]; queryWords: Set<string> }>();
const QUERY_MEMO_SIZE = 16;

function readQuery(query: string): { base: ValueCandidate[]; queryWords: Set<string> } {
  const hit = queryMemo.get(query);
  if (hit) return hit;
  const read = { base: queryCandidates(query), queryWords: new Set(terms(query)) };
  if (queryMemo.size >= QUERY_MEMO_SIZE) queryMemo.delete(queryMemo.keys().next().value!);
  queryMemo.set(query, read);
  return read;
}

/** Fills a tool's arguments (see the file comment). */
export function fillArgs(tool: ToolDescriptor, ctx: FillContext, model: CueModel): FillResult {
  const { props, required } = propsOf(tool);
  const ts: ToolStats | undefined = model.tools.get(tool.name);
  const { base, queryWords } = readQuery(ctx.query);
  const names = Object.keys(props);
  const valueWritten = (n: string) => {
    const ps = statsFor(n, ts, model)?.ps;
    return ps !== undefined && writesValue(ctx.query, writtenValues(ps));
  };
  // Recorded values the request writes: the tool's own, else (none written) those of every tool's parameter of the name.
  const knownFor = (name: string, ps: ParamStats | undefined): ValueCandidate[] => {
    const own = knownInQuery(ctx.query, ps, base);
    const shared = model.params.get(name);
    return own.length > 0 || !shared || shared === ps ? own : knownInQuery(ctx.query, shared, base);
  };
  // Whether the request names a parameter is read in the clause that asks for this call.
  const focus = ctx.focus ?? [];
  const clause = focus.map(([a, b]) => ctx.query.slice(a, b)).join(' ');
  const clauseWords = clause.trim() ? new Set(terms(clause)) : queryWords;
  // The tool's own records of a parameter, when the call has a clause and at least `minShare` of
  // the values they set came from the request.
  const ownFromQuery = (name: string, minShare: number): ParamStats | undefined => {
    const stats = statsFor(name, ts, model);
    const ps = stats && !stats.shared ? stats.ps : undefined;
    return focus.length > 0 && ps && ps.set > 0 && ps.fromQuery / ps.set >= minShare ? ps : undefined;
  };
  // A parameter whose values mostly came from the request, judged unlikely yet not rare, whose
  // call's clause holds a value that scores as strongly as a cue word and the clause together.
  const strongValueInClause = (name: string, p: number): boolean => {
    const ps = ownFromQuery(name, W.strongValue.minQueryShare);
    if (!ps || p < W.strongValue.minPresence) return false;
    const found = [...base, ...knownFor(name, ps), ...monthsInQuery(ctx.query, ps)];
    return scoreCandidates(name, props[name], statsFor(name, ts, model), found, [], focus).some(
      (s) => inFocus(s.start, focus) && s.score >= W.strongValue.minScore,
    );
  };
  const presence = new Map(
    names
      .filter((n) => !required.includes(n))
      .map((n) => [n, paramPresence(n, ts, queryWords, model.params.get(n), valueWritten(n), clauseWords)] as const),
  );
  const present = nearestPattern(presence, ts);
  // After the recurring combinations: a value the clause writes this strongly is passed even where
  // the records never set the parameter often enough for its combination to recur.
  for (const [name, p] of presence)
    if (!present.has(name) && p < 0.5 && strongValueInClause(name, p)) present.add(name);
  const wanted = names.filter((n) => required.includes(n) || present.has(n));
  const all: Scored[] = [];
  for (const name of wanted) {
    const stats = statsFor(name, ts, model);
    all.push(
      ...scoreCandidates(
        name,
        props[name],
        stats,
        [...base, ...knownFor(name, stats?.ps), ...monthsInQuery(ctx.query, stats?.ps)],
        ctx.outputs,
        focus,
      ),
    );
  }
  all.sort((a, b) => b.score - a.score);
  // Per parameter, its best score and the best score of another candidate: whether a rival beats a
  // penalised value is then one look-up, not a scan of every candidate (linear in the request).
  const tops = new Map<string, { key: string; score: number; other: number }>();
  for (const s of all) {
    const t = tops.get(s.param);
    if (!t) tops.set(s.param, { key: s.key, score: s.score, other: -Infinity });
    else if (s.key !== t.key && s.score > t.other) t.other = s.score;
  }
  const args: Record<string, unknown> = {};
  const used = new Map<string, number>();
  // An optional parameter not judged surely set, whose values came from the request, takes no value
  // the request wrote outside the clause that asks for this call (that value is another call's).
  const clauseOnly = new Set(
    [...presence]
      .filter(([name, p]) => p < W.outsideClause.maxPresence && ownFromQuery(name, W.outsideClause.minQueryShare))
      .map(([name]) => name),
  );
  for (const s of all) {
    if (s.param in args || s.score < W.minScore) continue;
    if (clauseOnly.has(s.param) && s.key.startsWith('q:') && !inFocus(s.start, focus)) continue;
    const penalty = s.key.startsWith('c:') ? 0 : W.reusePenalty * (used.get(s.key) ?? 0);
    if (s.score - penalty < W.minScore) continue;
    const t = tops.get(s.param)!;
    if (penalty > 0 && (s.key !== t.key ? t.score : t.other) > s.score - penalty) continue;
    args[s.param] = s.value;
    used.set(s.key, (used.get(s.key) ?? 0) + 1);
  }
  // An optional parameter judged surely set but left without a found value takes its usual value
  // (the tool's own; for a tool whose records kept no value of it, that of every tool's parameter of its name).
  for (const name of present) {
    if (name in args || (presence.get(name) ?? 0) < W.optionalUsual.minPresence) continue;
    const value = usualOfOptional(name, ts, model, props[name]);
    if (value !== undefined) args[name] = value;
  }
  for (const name of required) {
    if (name in args) continue;
    const stats = statsFor(name, ts, model);
    const usualValue = usual(stats, props[name]);
    // Learned: the usual value. Not learned: the best value found that no other parameter took, then the schema default.
    const best = all.find((s) => s.param === name && !s.key.startsWith('c:') && !used.has(s.key));
    const fallback = props[name]?.default;
    if (usualValue && (!stats!.shared || usualValue.share >= W.sharedUsualMinShare)) args[name] = usualValue.value;
    else if (best) {
      args[name] = best.value;
      used.set(best.key, 1);
    } else if (fallback !== undefined && fallback !== '') args[name] = typed(String(fallback), props[name], stats?.ps);
  }
  const missing = required.filter((n) => !(n in args) && n in props);
  const main = mainParam(required, ts);
  if (!main) return { args, missing };
  const span = ctx.clauseSpan;
  const inClause = (s: Scored) => !span || (s.start !== undefined && s.start >= span[0] && s.start < span[1]);
  const values = all
    .filter((s) => s.param === main && s.score >= W.minScore && !s.key.startsWith('c:') && inClause(s))
    .map((s) => s.value);
  const distinct = [...new Map(values.map((v) => [stableStringify(v), v])).values()];
  return { args, missing, main: { param: main, values: distinct } };
}

/** The parameter a `calls: 'many'` node varies: the required one most often taken from the query. */
function mainParam(required: string[], ts: ToolStats | undefined): string | undefined {
  if (required.length === 0) return undefined;
  let best = required[0];
  let bestRate = -1;
  for (const name of required) {
    const ps = ts?.params.get(name);
    const rate = ps && ps.set > 0 ? ps.fromQuery / ps.set : 0;
    if (rate > bestRate) {
      best = name;
      bestRate = rate;
    }
  }
  return best;
}
