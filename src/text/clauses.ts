import { readText, type Token } from './read.js';

/**
 * The parts of a request (docs/DESIGN.md, "Reading requests": a request is read part by part). Sentences are
 * the library's (read.ts). Inside a sentence a part starts
 * - at an English sequence connective ("then", "after that", "finally", "also", "followed by", …):
 *   no library marks where one request ends and the next begins, and these words are what requests
 *   to agents use for it in every domain we read (each one removed costs on more than the bundled
 *   domains: benchmarks/decide-val.ts);
 * - at a comma or semicolon followed (past "and", "then", "please", …) by a verb in its dictionary
 *   form (the library's part of speech and lemma), when the words before it hold a verb of their
 *   own ("…, check the rate …").
 * Parts without a content word are dropped. A short part that asks for nothing of its own (no verb,
 * at most two content words, opening with a preposition: "…, also in metric units") belongs to the
 * part before it.
 */

/** Most parts of one request that are ranked and handed to tool positions (a request may be 20,000 characters). */
export const MAX_REQUEST_PARTS = 32;

const CONNECTIVES =
  /\b(?:(?:and\s+|,\s*)?(?:then|after that|afterwards?|next|finally|lastly|also|additionally|once you have|once i have|followed by|before that|in addition|plus)|as well as)\b/gi;

const BRIDGE = new Set(['ADV', 'CCONJ', 'PART', 'INTJ']);
const isVerb = (t: Token | undefined) => t !== undefined && t.pos === 'VERB';

const verbs = new Map<string, boolean>();
/**
 * Whether a word, read where a request's verb stands, is a verb in its base form: the library tags
 * it in "to <word> it" as a verb whose dictionary form it is (its tagger reads "Show me …" at a
 * sentence's start as a name or a noun, and "including" is no request).
 */
function canBeVerb(t: Token | undefined): boolean {
  if (!t || t.type !== 'word' || !/^[a-z]+$/.test(t.lower)) return false;
  let v = verbs.get(t.lower);
  if (v === undefined) {
    const w = readText(`to ${t.lower} it`).tokens[1];
    v = w?.pos === 'VERB' && w.lemma === t.lower;
    if (verbs.size > 20_000) verbs.clear();
    verbs.set(t.lower, v);
  }
  return v;
}
const content = (t: Token) => (t.type === 'word' || t.type === 'number') && !t.stop && t.pos !== 'PUNCT';

/** Character offsets inside [from, to) where a part starts, from the connectives and the comma-verb rule. */
function cutsIn(
  text: string,
  tokens: readonly Token[],
  from: number,
  to: number,
): Array<{ at: number; skip: number; marker: string }> {
  const out: Array<{ at: number; skip: number; marker: string }> = [];
  const slice = text.slice(from, to);
  for (const m of slice.matchAll(CONNECTIVES)) {
    out.push({
      at: from + (m.index ?? 0),
      skip: m[0].length,
      marker: m[0].replace(/^[\s,]*(?:and\s+)?/i, '').toLowerCase(),
    });
  }
  const inside = tokens.filter((t) => t.start >= from && t.end <= to);
  let verb = false;
  inside.forEach((t, i) => {
    const opener = /^[,;]$/.test(t.text);
    if (opener && verb) {
      let j = i + 1;
      while (j < inside.length && BRIDGE.has(inside[j]!.pos)) j++;
      if (j > i && canBeVerb(inside[j])) {
        out.push({ at: t.start, skip: t.end - t.start, marker: '' });
        verb = false;
        return;
      }
    }
    if (isVerb(t) || t.pos === 'AUX') verb = true;
  });
  return out.sort((a, b) => a.at - b.at);
}

/** Parts of speech a sentence opens with that no name takes ("Then", "The", "It", "Can", "Once", …). */
const SENTENCE_OPENERS = new Set(['ADV', 'DET', 'PRON', 'AUX', 'SCONJ', 'INTJ', 'VERB']);

const trim = (raw: string) =>
  raw
    .replace(/^[\s,:;.-]+|[\s,:;?!.-]+$/g, '')
    .replace(/^(?:and|then|please)\s+/i, '')
    .trim();

/** A part that asks for nothing of its own (see the module comment). */
function isFragment(part: string, marker: string): boolean {
  const { tokens } = readText(part);
  if (tokens.filter(content).length > 2 || tokens.some((t) => isVerb(t)) || asks(part)) return false;
  // "next" before a noun ("next year", "the next 5 days") is no sequence marker.
  return tokens[0]?.pos === 'ADP' || marker === 'next';
}

/** The request's parts in order (see the module comment); a request without cuts is one part. */
export function splitClauses(query: string): string[] {
  const { tokens, sentences } = readText(query);
  if (tokens.length === 0) return [query.trim()];
  const parts: Array<{ start: number; end: number }> = [];
  for (const [first, last] of sentences) {
    const [a, b] = [tokens[first]!.start, tokens[last]!.end];
    let start = a;
    let marker = '';
    const spans: Array<[number, number, string]> = [];
    for (const c of cutsIn(query, tokens, a, b)) {
      if (c.at < start) continue;
      spans.push([start, c.at, marker]);
      start = c.at + c.skip;
      marker = c.marker;
    }
    spans.push([start, b, marker]);
    for (let k = 0; k < spans.length; k++) {
      const [x, y, opened] = spans[k]!;
      const c = trim(query.slice(x, y));
      if (!c || !readText(c).tokens.some(content)) continue;
      const next = spans[k + 1];
      // A part that asks for nothing before a comma-cut request of its sentence opens it ("After
      // identifying the cities, please focus on …"): it belongs to that request.
      if (next && next[2] === '' && !asks(c)) {
        next[0] = x;
        next[2] = opened;
        continue;
      }
      const prev = parts[parts.length - 1];
      if (prev && isFragment(c, opened)) prev.end = y;
      else parts.push({ start: x, end: y });
    }
  }
  const out = parts.map((p) => trim(query.slice(p.start, p.end))).filter(Boolean);
  return out.length > 0 ? out : [query.trim()];
}

/** Whether a part asks for something: a question, a request to "you", an imperative, or what the writer wants to do. */
export function asks(part: string): boolean {
  if (/\?\s*$/.test(part)) return true;
  const { tokens } = readText(part);
  const first = tokens.find((t) => t.pos !== 'PUNCT' && !BRIDGE.has(t.pos));
  if (canBeVerb(first) || first?.pos === 'AUX') return true;
  return tokens.some((t, i) => {
    // "can you …", "could you …"
    if (t.pos === 'AUX' && tokens[i + 1]?.lower === 'you') return true;
    // "I need to find …", "we want to see …", "I'd like …": the writer, then a verb to do or a wish.
    if (!/^(i|we|i'[a-z]+)$/.test(t.lower)) return false;
    const after = tokens.slice(i + 1, i + 5);
    return (
      after.some((x, k) => x.lower === 'to' && isVerb(after[k + 1])) ||
      (after[0]?.lemma === 'like' && /'d$/.test(t.lower)) ||
      after.some((x, k) => x.lemma === 'like' && after[k - 1]?.pos === 'AUX')
    );
  });
}

/**
 * The parts that ask for something, in order: `splitClauses` without the scene-setting opening
 * ("I'm analyzing Bitcoin's market trends. Can you first …"). Parts that end before the word "first"
 * are dropped when it comes early (at most two); otherwise, when the caller expects `expected`
 * requests and there is exactly one part more, an opening part that asks for nothing is dropped;
 * without an expectation, it is dropped when the next part is the first that asks.
 */
export function requestClauses(query: string, expected?: number): string[] {
  const parts = splitClauses(query);
  const first = /\bfirst\b/i.exec(query);
  if (first && first.index < query.length / 2) {
    let from = 0;
    const ends = parts.map((c) => (from = Math.max(from, query.indexOf(c, from))) + c.length);
    const keep = parts.filter((_, k) => ends[k]! > first.index);
    if (keep.length > 0 && keep.length < parts.length && parts.length - keep.length <= 2) return keep;
  }
  if (parts.length > 1 && !asks(parts[0]!)) {
    if (expected !== undefined ? parts.length === expected + 1 : asks(parts[1]!)) return parts.slice(1);
  }
  return parts;
}
