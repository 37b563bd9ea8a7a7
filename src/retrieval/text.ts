/**
 * Small text helpers of the offline policy (docs/DESIGN.md, "Policies"): word tokens for
 * retrieval, a light stemmer so "forecasts" meets "forecast", and the query's clauses ("first …,
 * then …, finally …") that the plan rule and position-aware tool selection use.
 */

export const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could do does for from get give got has have how i i'm i'd i'll " +
    'if in into is it its let me my need of on or our please show so some tell than that the their them then ' +
    'there these this those to up us using want was we what when where which while who why will with would you your ' +
    'also after before first next finally lastly now just like know help find look check see use retrieve fetch pull'
  ).split(/\s+/),
);

/** Lower-case word tokens (letters/digits), without stopwords unless `keepStop`. */
export function words(text: string, keepStop = false): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[a-z0-9]+(?:'[a-z]+)?/g)) {
    const w = m[0];
    if (!keepStop && STOPWORDS.has(w)) continue;
    out.push(w);
  }
  return out;
}

/** A crude suffix stemmer (enough for retrieval over short API docs). */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3) return w;
  for (const [suffix, repl] of [
    ['ies', 'y'],
    ['sses', 'ss'],
    ['ing', ''],
    ['ed', ''],
    ['es', ''],
    ['s', ''],
  ] as const) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3 && !(suffix === 's' && w.endsWith('ss'))) {
      w = w.slice(0, w.length - suffix.length) + repl;
      break;
    }
  }
  return w;
}

/** Stemmed content words. */
export function terms(text: string): string[] {
  return words(splitIdentifiers(text)).map(stem);
}

/** `get_stock_quote` / `hotelId` → `get stock quote` / `hotel Id`, so names are searchable words. */
export function splitIdentifiers(text: string): string {
  return text.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
}

/**
 * A tool name's words, with each run-together word (`usacitieslist`) split into words its own
 * description uses (`usa cities list`) when it splits wholly into them: names written without
 * separators read as the words they are made of. A word that does not split stays as it is.
 */
export function nameWordsOf(name: string, description: string): string {
  const vocab = new Set(words(splitIdentifiers(description), true).filter((w) => w.length >= 2));
  return splitIdentifiers(name)
    .split(/\s+/)
    .map((w) => {
      const lower = w.toLowerCase();
      if (lower.length < 6 || vocab.has(lower)) return w;
      // Fewest pieces: best[i] = the split of lower.slice(0, i) into the fewest vocabulary words.
      const best: (string[] | undefined)[] = [[]];
      for (let i = 1; i <= lower.length; i++)
        for (let j = Math.max(0, i - 20); j < i - 1; j++) {
          const prev = best[j];
          if (prev && vocab.has(lower.slice(j, i)) && (!best[i] || prev.length + 1 < best[i]!.length))
            best[i] = [...prev, lower.slice(j, i)];
        }
      const parts = best[lower.length];
      return parts && parts.length > 1 ? parts.join(' ') : w;
    })
    .join(' ');
}

const CLAUSE_MARKERS =
  /\b(?:and then|then|after that|afterwards?|next|finally|lastly|also|additionally|once you have|once i have|followed by|as well as|before that|in addition|plus)\b|[;?!]\s+|(?<!\b(?:Inc|Corp|Ltd|Co|Bros|Jr|Sr|St|Mr|Mrs|Ms|Dr|vs|etc))\.\s+(?![\s(])|,\s+(?:and\s+)?(?=(?:then|finally|also|next|get|show|check|find|retrieve|look|give|pull|fetch|tell|search|list|provide|convert|calculate|compute|analy[sz]e|generate|create|run|count|display|verify|confirm|compare|download|identify|determine|see)\b)/gi;

const ASK =
  /^(?:can|could|would|will|please|i'?d like|i would like|(?:i|we) (?:need|want) to (?:find|get|see|check|know|look|search|list|show|pull|fetch|retrieve)|now|so|first|then|get|show|find|check|give|pull|retrieve|fetch|list|search|look|provide|tell|calculate|compute|convert|create|generate)\b/i;

/**
 * Splits a request into clauses at sequence markers (then, after that, finally, …) and sentence
 * ends (a period before an opening parenthesis ends an abbreviation, not a sentence: "Caterpillar
 * Inc. (CAT) since …"); clauses without a content word are dropped. A request without markers is one clause. A
 * fragment that asks for nothing of its own belongs to the clause before it and is joined to it, so
 * it neither takes a tool position nor makes a call of its own: at most `FRAGMENT_WORDS` content
 * words, not opening with a request, and either a qualifying phrase ("… also in metric units.",
 * "… also in JSON format") or the noun after an adjectival "next" ("my trip next year"). A short
 * clause that names a thing ("and finally its balance sheet") stays a clause.
 */
export function splitClauses(query: string): string[] {
  // Each span with the marker that opened it.
  const spans: Array<[number, number, string]> = [];
  let from = 0;
  let marker = '';
  for (const m of query.matchAll(CLAUSE_MARKERS)) {
    // "plus" before a name or a number is part of it ("Opportunities Plus X7"), no sequence marker.
    if (/^plus$/i.test(m[0]) && /^\s+[A-Z0-9]/.test(query.slice((m.index ?? 0) + m[0].length))) continue;
    spans.push([from, m.index ?? 0, marker]);
    from = (m.index ?? 0) + m[0].length;
    marker = m[0];
  }
  spans.push([from, query.length, marker]);
  const clauses: Array<{ start: number; end: number }> = [];
  for (const [a, b, opened] of spans) {
    const c = trimClause(query.slice(a, b));
    if (!c || words(c).length === 0) continue;
    const prev = clauses[clauses.length - 1];
    if (prev && isFragment(c, opened)) prev.end = b;
    else clauses.push({ start: a, end: b });
  }
  const out = clauses.map((c) => trimClause(query.slice(c.start, c.end)));
  return out.length > 0 ? out : [query.trim()];
}

/** Most content words of a clause that is joined to the clause before it when it asks for nothing. */
export const FRAGMENT_WORDS = 2;

function trimClause(raw: string): string {
  return raw.replace(/^[\s,:;-]+|[\s,:;-]+$/g, '').trim();
}

/** Words that open a phrase qualifying the clause before it ("in metric units", "for the same city"). */
const QUALIFIER = /^(?:in|with|using|for|at|on|from|by|over|during|within|via|as)\b/i;

function isFragment(clause: string, marker: string): boolean {
  if (words(clause).length > FRAGMENT_WORDS || ASK.test(clause)) return false;
  // "next" before a noun ("next year", "the next 5 days") is no sequence marker.
  return QUALIFIER.test(clause) || /^next$/i.test(marker);
}

/**
 * Most parts of one request that are ranked and handed to tool positions (`../hand-off.ts`); later
 * clauses are read by no position. A request may be 20,000 characters: ranking and filling every one
 * of hundreds of clauses for every call grew with the square of its length (a minute for one
 * request). Real requests have a handful of clauses.
 */
export const MAX_REQUEST_PARTS = 32;

/**
 * The clauses that ask for something, in order: `splitClauses` without the scene-setting opening
 * ("I'm analyzing Bitcoin's market trends. Can you first …"). Clauses that end before the word
 * "first" are dropped (when "first" comes early); otherwise, when the caller expects `expected`
 * requests and there is exactly one clause more, an opening clause that does not start with a
 * request ("Can you …", "Get …") is dropped; without an expectation, it is dropped when the next
 * clause is the first that starts with one.
 */
export function requestClauses(query: string, expected?: number): string[] {
  const clauses = splitClauses(query);
  const first = /\bfirst\b/i.exec(query);
  if (first && first.index < query.length / 2) {
    let from = 0;
    const starts = clauses.map((c) => (from = Math.max(from, query.indexOf(c, from))));
    const keep = clauses.filter((c, k) => starts[k]! + c.length > first.index);
    if (keep.length > 0 && keep.length < clauses.length && clauses.length - keep.length <= 2) return keep;
  }
  if (clauses.length > 1 && !ASK.test(clauses[0]!)) {
    if (expected !== undefined ? clauses.length === expected + 1 : ASK.test(clauses[1]!)) return clauses.slice(1);
  }
  return clauses;
}

/** Where `needle` occurs in `hay` as a whole token (case-insensitive), or -1. */
export function findToken(hay: string, needle: string): number {
  if (!needle) return -1;
  const h = hay.toLowerCase();
  const n = needle.toLowerCase();
  let from = 0;
  for (;;) {
    const i = h.indexOf(n, from);
    if (i < 0) return -1;
    const before = i === 0 ? ' ' : h[i - 1]!;
    const after = i + n.length >= h.length ? ' ' : h[i + n.length]!;
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return i;
    from = i + 1;
  }
}

/**
 * Where the request writes a recorded amount of a unit (`15min`, `1h`, `1day`) with its unit
 * spelled out or apart: the same number, then a word starting with the unit's letters
 * (`15-minute`, `1 hour`, `1-day`).
 */
export function unitFormsAt(query: string, value: string): Array<[number, number]> {
  const m = /^(\d+)([a-z]+)$/i.exec(value);
  if (!m) return [];
  const re = new RegExp(`(?<![\\w.])${m[1]}(?:\\s|-)?${m[2]}[a-z]*\\b`, 'gi');
  return [...query.matchAll(re)].map((x) => [x.index ?? 0, (x.index ?? 0) + x[0].length]);
}

/** Parameter-name words too generic to say that a clause names the parameter. */
const GENERIC = new Set(
  'id type format name data value code query limit page get max min string sort api key show all'.split(' '),
);

/** True when a term of a clause names the parameter (same stem, or a shared prefix of at least 4 letters). */
export function namesParam(name: string, clauseTerms: ReadonlySet<string>): boolean {
  const parts = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2 && !GENERIC.has(w))
    .map(stem);
  for (const t of clauseTerms)
    for (const p of parts) {
      const n = Math.min(t.length, p.length);
      if (t === p || (n >= 4 && t.slice(0, n) === p.slice(0, n))) return true;
    }
  return false;
}
