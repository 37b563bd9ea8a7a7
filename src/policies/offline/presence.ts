import type { ParamHint, ToolHint } from '../../graph/schema.js';
import { namesParam, terms } from '../../text/words.js';
import { FILL_WEIGHTS } from './fill-weights.js';

/**
 * Whether each optional parameter of a call is set (docs/DESIGN.md, "Policies"), read from the
 * hint for the tool (`ParamHint.setRates`, `asked`; `ToolHint.together`) and the part of the request
 * that asks for the call. Per parameter, a probability of being set:
 * 1. the rate in the situation the clause is in (it names the parameter, or not) when the hint has it;
 * 2. else its overall rate, moved by the clause's words the hint weighs (`asked`, clipped to ±2 in
 *    log-odds, `maxEvidence`) and by `namedLogOdds` when the clause names it;
 * 3. without a hint, `namedWithoutHint` when the clause names it or writes a value its schema names
 *    (its default or an enum value: "PC games" for `platform` with default `pc`), else 0.
 * Parameters at 0.5 or above are set; then the combination calls set together (`together`) that is
 * cheapest to reach from these decisions, each parameter changed costing how sure it was
 * (|log-odds|), replaces them when it costs at most `maxComboCost` (the weights: FILL_WEIGHTS.presence).
 */

const P = FILL_WEIGHTS.presence;

export interface PresenceContext {
  /** Stemmed terms of the clause that asks for the call (the request's when it has none). */
  clauseWords: ReadonlySet<string>;
  /** The values the parameter's schema names (its default, its enum), read only without a hint. */
  documented?: () => readonly string[];
}

/** The clause writes one of the values as words of its own: "PC games" for `platform` with default `pc`. */
function writesOneOf(values: readonly string[], clauseWords: ReadonlySet<string>): boolean {
  return values.some((v) => {
    const ts = terms(v);
    return /\p{L}{2}/u.test(v) && !/\d/.test(v) && ts.length > 0 && ts.every((t) => clauseWords.has(t));
  });
}

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const clamp = (p: number) => Math.min(0.99, Math.max(0.01, p));

/** The probability that an optional parameter is set (see the module comment). */
export function presenceOf(name: string, hint: ParamHint | undefined, ctx: PresenceContext): number {
  const named = namesParam(name, ctx.clauseWords);
  const rates = hint?.setRates;
  if (!rates) return named || writesOneOf(ctx.documented?.() ?? [], ctx.clauseWords) ? P.namedWithoutHint : 0;
  const situation = named ? rates.named : rates.unnamed;
  if (situation !== undefined) return situation;
  let evidence = 0;
  for (const [word, w] of Object.entries(hint.asked ?? {})) if (ctx.clauseWords.has(word)) evidence += w;
  return sigmoid(
    logit(clamp(rates.overall)) +
      Math.max(-P.maxEvidence, Math.min(P.maxEvidence, evidence)) +
      (named ? P.namedLogOdds : 0),
  );
}

/** The optional parameters to set, from their probabilities and the tool's combinations (see the module comment). */
export function choosePresent(presence: ReadonlyMap<string, number>, hint: ToolHint | undefined): Set<string> {
  const decided = new Set([...presence].filter(([, p]) => p >= 0.5).map(([n]) => n));
  let best: { set: Set<string>; cost: number } | undefined;
  for (const combo of hint?.together ?? []) {
    if (combo.params.some((n) => !presence.has(n))) continue;
    const set = new Set(combo.params);
    let cost = 0;
    for (const [name, p] of presence) if (set.has(name) !== decided.has(name)) cost += Math.abs(logit(clamp(p)));
    if (!best || cost < best.cost - 1e-9) best = { set, cost };
  }
  return best && best.cost <= P.maxComboCost ? best.set : decided;
}
