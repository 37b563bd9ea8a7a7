/**
 * Token log-probabilities, where a provider returns them (OpenAI chat under
 * `providerMetadata.openai.logprobs`, OpenAI-compatible servers under
 * `providerMetadata.openaiCompatible.logprobs`): the LLM judge weights its 1–5 score by them as
 * G-Eval does (docs/DESIGN.md, "Metrics").
 */

export interface TopLogprob {
  token: string;
  logprob: number;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  /** The most likely alternatives at this position (including the chosen token). */
  top: TopLogprob[];
}

/** The providerOptions that ask a provider for `top` alternatives per token, or undefined if it cannot. */
export function logprobProviderOptions(
  providerOptionsKey: string | undefined,
  top: number,
): Record<string, Record<string, unknown>> | undefined {
  if (providerOptionsKey === 'openai') return { openai: { logprobs: top } };
  // OpenAI-compatible servers take the raw Chat Completions fields (passed through unchanged).
  if (providerOptionsKey) return { [providerOptionsKey]: { logprobs: true, top_logprobs: top } };
  return undefined;
}

/** Reads the token log-probabilities out of a result's providerMetadata; undefined when there are none. */
export function extractLogprobs(providerMetadata: unknown): TokenLogprob[] | undefined {
  if (!providerMetadata || typeof providerMetadata !== 'object') return undefined;
  for (const entry of Object.values(providerMetadata as Record<string, unknown>)) {
    const raw = (entry as { logprobs?: unknown } | null)?.logprobs;
    if (!Array.isArray(raw) || raw.length === 0) continue;
    const out: TokenLogprob[] = [];
    for (const t of raw) {
      const tok = t as { token?: unknown; logprob?: unknown; top_logprobs?: unknown };
      if (typeof tok.token !== 'string' || typeof tok.logprob !== 'number') continue;
      const top = Array.isArray(tok.top_logprobs)
        ? (tok.top_logprobs as Array<{ token?: unknown; logprob?: unknown }>)
            .filter((a) => typeof a.token === 'string' && typeof a.logprob === 'number')
            .map((a) => ({ token: a.token as string, logprob: a.logprob as number }))
        : [];
      out.push({ token: tok.token, logprob: tok.logprob, top });
    }
    if (out.length > 0) return out;
  }
  return undefined;
}

/**
 * G-Eval's probability-weighted score: at the first output token that is a digit in [min, max],
 * Σ k·p(k) / Σ p(k) over the alternatives k ∈ {min..max} listed there. Undefined when no such token.
 */
export function weightedDigitScore(tokens: readonly TokenLogprob[], min = 1, max = 5): number | undefined {
  const isScore = (s: string): number | undefined => {
    const t = s.trim();
    if (!/^\d$/.test(t)) return undefined;
    const k = Number(t);
    return k >= min && k <= max ? k : undefined;
  };
  for (const tok of tokens) {
    if (isScore(tok.token) === undefined) continue;
    const probs = new Map<number, number>();
    for (const alt of tok.top.length > 0 ? tok.top : [{ token: tok.token, logprob: tok.logprob }]) {
      const k = isScore(alt.token);
      if (k !== undefined) probs.set(k, (probs.get(k) ?? 0) + Math.exp(alt.logprob));
    }
    let mass = 0;
    let sum = 0;
    for (const [k, p] of probs) {
      mass += p;
      sum += k * p;
    }
    return mass > 0 ? sum / mass : undefined;
  }
  return undefined;
}

/**
 * The probability-weighted score of the digit at character `offset` of the answer `text`, read from
 * the token that holds it (the tokens' texts laid end to end are the answer): the weighted mean of
 * weightedDigitScore at that token. Undefined when the tokens do not spell the answer up to there,
 * or the digit does not stand alone in its token (then the caller keeps the integer).
 */
export function weightedDigitAt(
  tokens: readonly TokenLogprob[],
  text: string,
  offset: number,
  min = 1,
  max = 5,
): number | undefined {
  let at = 0;
  for (const tok of tokens) {
    if (text.slice(at, at + tok.token.length) !== tok.token) return undefined;
    const end = at + tok.token.length;
    if (offset < end)
      return offset >= at && tok.token.trim().length === 1 ? weightedDigitScore([tok], min, max) : undefined;
    at = end;
  }
  return undefined;
}
