import { stableStringify } from '../../contracts/canonical-args.js';
import { isIdentifierShaped } from '../../util/identifier-shape.js';
import { remember } from '../../util/remember.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { ParamHint, ToolHint } from '../../graph/schema.js';
import { stem, terms } from '../../text/words.js';
import { queryCandidates, type ValueCandidate } from '../../text/values.js';
import { namedItem, namedResults, outputPairs, outputValues } from '../../dataflow/output-value.js';
import { FILL_WEIGHTS } from './fill-weights.js';
import { isFlag, propsOf, typed, type PropSchema } from '../../contracts/param-types.js';
import {
  documentedExamples,
  documentedValues,
  fits,
  fitsExamples,
  takesProse,
  kindPrior,
  nameWords,
} from '../../retrieval/param-schema.js';
import { choosePresent, presenceOf } from './presence.js';
import {
  codeNames,
  cueFit,
  formatted,
  joinedInQuery,
  knownInQuery,
  namedBy,
  namePart,
  nameParts,
  shapeFit,
} from '../../retrieval/value-fit.js';

/**
 * Argument filling of the offline policy (docs/DESIGN.md, "Policies"): every value found in the
 * request or in upstream outputs is scored for every parameter by what the parameter's schema and
 * name say and by the step's hint for it (its shapes, the words written around its values, its
 * recurring values, where its values come from: `ParamHint`). Parameters take the best candidates
 * greedily (highest score first); a found value shaped like an identifier names one thing, so two
 * parameters of a call never both take it (an exchange of an item for itself is no call), and an
 * optional parameter never takes a value another parameter of the call took: it is left out instead
 * (a geocoding call for "Seattle" is no call for the city Seattle in the state Seattle; reference
 * calls seldom pass one value twice, 48 of the 5,086 calls of seven domains, and the filler's calls
 * that did were wrong 49 times in 55 on D_val). A
 * required parameter left without a value takes the hint's usual value, else the best value found
 * that no other parameter took, else the schema default; with none of these it is listed in
 * `missing` and no call is made (an error observation, "no value for `b`") rather than a guess.
 * A required parameter that the calls the hint was learned from left out (it has set rates) is
 * decided as an optional one is. Optional parameters are set as presence.ts decides; one set always
 * but given no value takes the hint's usual value. Without hints the filler reads the request and the
 * schema alone, as a model that has never seen the log would.
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

type Spans = ReadonlyArray<readonly [number, number]>;

/** What the call's clause names among the earlier results (dataflow/output-value.ts): whole results, and the words that name a list item. */
interface Naming {
  results: ReadonlySet<number>;
  words?: ReadonlySet<string>;
}

/** A scored candidate for one parameter. */
interface Scored {
  param: string;
  value: unknown;
  score: number;
  /** Identity of the candidate (to discourage giving one value to two parameters); `c:` a constant. */
  key: string;
  /** Where a query value starts in the query. */
  start?: number;
  /** For an output value: every value of that output under the same key (a list it is one item of). */
  list?: unknown[];
}

export interface FillResult {
  args: Record<string, unknown>;
  /** Required parameters for which no value was found (see the file comment). */
  missing: string[];
  /**
   * Required parameters whose value the call's part (`clauseSpan`) does not give: written elsewhere in
   * the request, the schema's default, a usual value of a parameter whose values were seldom
   * constants, or none (an earlier output's value counts as given).
   */
  unsupported: string[];
  /**
   * For `calls: 'many'`: the main parameter and every value found for it (document order); `listed`
   * when its value came from an earlier output that holds several under the same key (the orders a
   * user lookup returned), all of them in output order.
   */
  main?: { param: string; values: unknown[]; listed?: unknown[] };
}

const W = FILL_WEIGHTS;

const inFocus = (start: number | undefined, focus: Spans) =>
  start !== undefined && focus.some(([a, b]) => start >= a && start < b);

/** The most frequent recurring value of a parameter and its share (undefined: none kept). */
function usualOf(hint: ParamHint | undefined): { value: string | number | boolean; share: number } | undefined {
  return hint?.values?.[0];
}

function scoreCandidates(
  name: string,
  prop: PropSchema | undefined,
  hint: ParamHint | undefined,
  cands: readonly ValueCandidate[],
  outputs: readonly unknown[],
  focus: Spans,
  naming: Naming = { results: new Set() },
): Scored[] {
  const out: Scored[] = [];
  const nWords = nameWords(name);
  const from = hint?.from;
  const queryShare = hint ? (from?.request ?? 0) : W.queryShareWithoutHint;
  const outputShare = hint ? (from?.upstream ?? 0) : W.outputShareWithoutHint;
  const recorded = new Map((hint?.values ?? []).map((v) => [String(v.value).toLowerCase(), v.share]));
  const documented = new Set(documentedValues(name, prop).map((v) => v.toLowerCase()));
  const usual = usualOf(hint);
  const q = W.queryValue;
  // A parameter that takes prose (a summary, a message, a thought) is given text the request quotes,
  // never a name or a number picked out of it — unless the step's hint says its values look like that.
  const prose = !hint?.shapes && takesProse(nWords, prop);
  for (const c of cands) {
    if (prose && c.kind !== 'quoted') continue;
    const value = formatted(c, hint?.format);
    if (!fits(value, prop)) continue;
    const known = recorded.get(value.toLowerCase()) ?? (documented.has(value.toLowerCase()) ? W.documentedShare : 0);
    const shape = shapeFit(value, hint, kindPrior(prop, c.kind));
    if (shape === undefined && known === 0) continue;
    const named = namedBy(c, nWords);
    let score =
      q.shape * (shape ?? 0) +
      q.cueWord * cueFit(c, hint) +
      q.knownValue * Math.min(1, known * q.knownSaturation) +
      (named ? q.nameNextToValue : 0) +
      queryShare;
    if (c.kind === 'known') score += q.knownInQueryBonus;
    if (inFocus(c.start, focus)) score += W.clauseFocusBonus;
    out.push({
      param: name,
      value: typed(value, prop, hint?.format?.type),
      score,
      key: `q:${c.start}:${c.value}`,
      start: c.start,
    });
  }
  // Values from upstream outputs: under the keys the hint names, or a key named like the parameter.
  const keys = hint?.keys ?? {};
  const o = W.outputValue;
  const seen = new Set<string>();
  // Without a key to go by, a value of the form the parameter's documented examples show: a bare
  // output (a tool that answers with the id itself), or one under a key that names what the parameter
  // names (`orders` for `order_id`).
  // (Only examples of an id's form — digits, '@', '_' — say enough: a word fits a word example.)
  const exemplified = documentedExamples(prop).some((e) => /[\d@_]/.test(e));
  const stems = new Set(nWords.map(stem).filter((w) => w !== 'id'));
  outputs.forEach((output, oi) => {
    const pairs = outputValues(output);
    const item = naming.words && namedItem(output, naming.words);
    const itemPairs = item ? outputPairs(item) : [];
    for (const pair of [...itemPairs, ...pairs]) {
      const named = pair.key !== '' && nameWords(pair.key).join('_') === nWords.join('_');
      const related =
        exemplified &&
        (pair.key === '' || nameWords(pair.key).some((w) => stems.has(stem(w)))) &&
        fitsExamples(pair.value, prop);
      const keyFit = Math.max(
        keys[pair.key] ?? 0,
        named ? o.keyNamedOnly : 0,
        related ? o.keyNamedOnly * o.exampleKeyShare : 0,
      );
      if (keyFit === 0 || seen.has(pair.key + pair.value) || !fits(pair.value, prop)) continue;
      const shape = shapeFit(pair.value, hint, o.shapeWithoutHint);
      // An identifier is no value for a parameter whose values never had its shape (a user id for an `expression`).
      if (shape === undefined && isIdentifierShaped(pair.value, { name })) continue;
      seen.add(pair.key + pair.value);
      const list =
        pair.key === ''
          ? []
          : [...new Set(pairs.filter((p) => p.key === pair.key && fits(p.value, prop)).map((p) => p.value))];
      const score =
        o.shape * (shape ?? 0) +
        o.key * keyFit +
        o.outputShare * outputShare +
        o.recencyStep * (oi + 1 - outputs.length) +
        (naming.results.has(oi) && list.length <= 1 ? o.namedResult : 0) +
        (itemPairs.includes(pair) ? o.namedItem : 0);
      out.push({
        param: name,
        value: typed(pair.value, prop, hint?.format?.type),
        score,
        key: `o:${pair.key}:${pair.value}`,
        ...(list.length > 1 ? { list: list.map((v) => typed(v, prop, hint?.format?.type)) } : {}),
      });
      break;
    }
  });
  // A constant: the usual value, strong when the parameter's values come from neither the request nor an output.
  if (usual)
    out.push({
      param: name,
      value: usual.value,
      score: W.constant.scale * usual.share * (W.constant.baseline + (from?.constant ?? 0)),
      key: `c:${name}`,
    });
  return out;
}

// What a query gives every call of a request, read once per query (a request's calls all read it).
const queryMemo = new Map<string, ValueCandidate[]>();
const readQuery = (query: string) => remember(queryMemo, query, 16, () => queryCandidates(query));

/** Fills a tool's arguments (see the file comment) with the step's hint for the tool, if any. */
export function fillArgs(tool: ToolDescriptor, ctx: FillContext, toolHint?: ToolHint): FillResult {
  const { props, required: declared } = propsOf(tool);
  const base = readQuery(ctx.query);
  const names = Object.keys(props);
  const hintOf = (n: string): ParamHint | undefined => toolHint?.params?.[n];
  // A required parameter whose hint has set rates was left out by some of the calls it was learned
  // from: whether it is set is decided as for an optional one.
  const required = declared.filter((n) => !hintOf(n)?.setRates);
  const focus = ctx.focus ?? [];
  const candidatesOf = (n: string) => {
    // A parameter for a part of a name (first, last) takes that part of a written full name, not the
    // whole name nor another capitalised word; never a code, an id or a number written in capitals
    // or digits (USB, AC, 28236): a person's name is written as a name, and a call with a code for
    // one could only fail.
    const words = nameWords(n);
    const parts = nameParts(words, base);
    const person = namePart(words) !== undefined;
    return [
      ...base.filter(
        (c) => (parts.length === 0 || c.kind !== 'proper') && (!person || c.kind === 'proper' || c.kind === 'quoted'),
      ),
      ...knownInQuery(
        ctx.query,
        [...(hintOf(n)?.values ?? []).map((v) => v.value), ...documentedValues(n, props[n])],
        base,
      ),
      ...joinedInQuery(ctx.query, base, hintOf(n), focus),
      ...parts,
    ];
  };
  const clause = focus.map(([a, b]) => ctx.query.slice(a, b)).join(' ');
  const clauseWords = new Set(terms(clause.trim() ? clause : ctx.query));
  const presence = new Map(
    names
      .filter((n) => !required.includes(n))
      .map((n) => [n, presenceOf(n, hintOf(n), { clauseWords, documented: () => documentedValues(n, props[n]) })]),
  );
  // The combinations a hint keeps are of optional parameters; a required one the calls left out is set on its own odds.
  const present = choosePresent(new Map([...presence].filter(([n]) => !declared.includes(n))), toolHint);
  for (const n of declared) if ((presence.get(n) ?? 0) >= 0.5) present.add(n);
  // An optional parameter judged unlikely yet not rare, whose values mostly came from the request, is
  // set after all when the call's clause holds a value that scores this strongly for it.
  for (const [n, p] of presence) {
    if (present.has(n) || p >= 0.5 || p < W.strongValue.minPresence) continue;
    if ((hintOf(n)?.from?.request ?? 0) < W.strongValue.minQueryShare || focus.length === 0) continue;
    if (
      scoreCandidates(n, props[n], hintOf(n), candidatesOf(n), [], focus).some(
        (x) => inFocus(x.start, focus) && x.score >= W.strongValue.minScore,
      )
    )
      present.add(n);
  }
  const wanted = names.filter((n) => required.includes(n) || present.has(n));
  const naming: Naming = clause.trim()
    ? { results: namedResults(ctx.outputs, clauseWords), words: clauseWords }
    : { results: new Set() };
  const all: Scored[] = [];
  for (const name of wanted)
    all.push(...scoreCandidates(name, props[name], hintOf(name), candidatesOf(name), ctx.outputs, focus, naming));
  all.sort((a, b) => b.score - a.score);
  // Per parameter, its best score and the best score of another candidate: whether a rival beats a
  // penalised value is then one look-up, not a scan of every candidate.
  const tops = new Map<string, { key: string; score: number; other: number }>();
  for (const s of all) {
    const t = tops.get(s.param);
    if (!t) tops.set(s.param, { key: s.key, score: s.score, other: -Infinity });
    else if (s.key !== t.key && s.score > t.other) t.other = s.score;
  }
  const args: Record<string, unknown> = {};
  const taken = new Map<string, Scored>();
  const used = new Map<string, number>();
  // A value the request wrote outside the call's clause is another call's for an optional parameter not
  // judged surely set whose values came from the request, and for one whose values seldom came from it.
  const clauseOnly = (n: string, from = hintOf(n)?.from, q = from?.request ?? 0) =>
    ((presence.get(n) ?? 1) < W.outsideClause.maxPresence && q >= W.outsideClause.minQueryShare) ||
    (from !== undefined && q < W.outsideClause.seldomQueryShare);
  for (const s of all) {
    if (s.param in args || s.score < W.minScore) continue;
    if (clauseOnly(s.param) && s.key.startsWith('q:') && focus.length > 0 && !inFocus(s.start, focus)) continue;
    const penalty = s.key.startsWith('c:') ? 0 : W.reusePenalty * (used.get(s.key) ?? 0);
    if (
      penalty > 0 &&
      (!required.includes(s.param) || [s.value].flat().some((v) => isIdentifierShaped(v, { name: s.param })))
    )
      continue;
    if (s.score - penalty < W.minScore) continue;
    const t = tops.get(s.param)!;
    if (penalty > 0 && (s.key !== t.key ? t.score : t.other) > s.score - penalty) continue;
    args[s.param] = s.value;
    taken.set(s.param, s);
    used.set(s.key, (used.get(s.key) ?? 0) + 1);
  }
  // An optional parameter judged surely set but given no value takes its usual value when that is
  // common enough, else its schema default; a flag (a boolean parameter) decided set is set to true.
  for (const name of present) {
    if (name in args) continue;
    const usual = usualOf(hintOf(name));
    if (usual && usual.share >= W.optionalUsual.minShare && (presence.get(name) ?? 0) >= W.optionalUsual.minPresence)
      args[name] = usual.value;
    else if (isFlag(props[name])) args[name] = true;
    else if (
      (presence.get(name) ?? 0) >= W.optionalUsual.minPresence &&
      props[name]?.default !== undefined &&
      props[name]?.default !== ''
    )
      args[name] = typed(String(props[name]!.default), props[name]);
  }
  for (const name of required) {
    if (name in args) continue;
    const usual = usualOf(hintOf(name));
    const best = all.find((s) => s.param === name && !s.key.startsWith('c:') && !used.has(s.key));
    const fallback = props[name]?.default;
    if (usual) taken.set(name, { param: name, value: (args[name] = usual.value), score: 0, key: `c:${name}` });
    else if (best) {
      args[name] = best.value;
      taken.set(name, best);
      used.set(best.key, 1);
    } else if (fallback !== undefined && fallback !== '') args[name] = typed(String(fallback), props[name]);
  }
  // A written name another parameter passes as its code ("English news" with `language: en`) is that
  // parameter's value, not another's: the next value found is taken, or an optional one left out.
  const coded = new Set(Object.values(args).flatMap(codeNames));
  for (const [name, s] of taken) {
    if (!s.key.startsWith('q:') || typeof s.value !== 'string' || !coded.has(s.value.toLowerCase())) continue;
    const next = all.find(
      (x) =>
        x.param === name &&
        x.key !== s.key &&
        x.score >= W.minScore &&
        !used.has(x.key) &&
        !coded.has(String(x.value).toLowerCase()),
    );
    if (next) {
      args[name] = next.value;
      taken.set(name, next);
      used.set(next.key, 1);
    } else if (!required.includes(name)) {
      delete args[name];
      taken.delete(name);
    }
  }
  const missing = required.filter((n) => !(n in args) && n in props);
  const span = ctx.clauseSpan;
  const inClause = (s: Scored) => !span || (s.start !== undefined && s.start >= span[0] && s.start < span[1]);
  // Required values the call's part does not give: one written elsewhere in the request, the schema's
  // default, or a usual value of a parameter whose values seldom were constants.
  const unsupported = required.filter((n) => {
    const s = taken.get(n);
    if (!s) return true;
    if (s.key.startsWith('o:')) return false;
    if (s.key.startsWith('c:')) return (hintOf(n)?.from?.constant ?? 0) < 0.5;
    return !inClause(s);
  });
  const main = toolHint?.repeat ?? required[0];
  if (!main) return { args, missing, unsupported };
  const values = all
    .filter((s) => s.param === main && s.score >= W.minScore && !s.key.startsWith('c:') && inClause(s))
    .map((s) => s.value);
  const distinct = [...new Map(values.map((v) => [stableStringify(v), v])).values()];
  const listed = taken.get(main)?.list;
  return { args, missing, unsupported, main: { param: main, values: distinct, ...(listed ? { listed } : {}) } };
}
