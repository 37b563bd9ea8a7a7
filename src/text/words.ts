import { readText } from './read.js';

/**
 * Words of a text as the project compares them: the tokens of the one reading (read.ts), lower-cased,
 * stop words dropped unless asked, stemmed by the library's Porter2 stemmer. Identifiers are split
 * into their words first (`get_stock_quote`, `hotelId`): no tokenizer splits them.
 */

/** Lower-case word and number tokens, without stop words unless `keepStop`. */
export function words(text: string, keepStop = false): string[] {
  const out: string[] = [];
  for (const t of readText(text).tokens) {
    if (t.type !== 'word' && t.type !== 'number') continue;
    if (!keepStop && t.stop) continue;
    if (!/[\p{L}\p{N}]/u.test(t.lower)) continue;
    out.push(t.lower);
  }
  return out;
}

const stems = new Map<string, string>();

/** The stem of one word (Porter2), cached. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  let s = stems.get(w);
  if (s === undefined) {
    const t = readText(w).tokens;
    s = t.length === 1 && t[0]!.type === 'word' ? t[0]!.stem : w;
    if (stems.size > 50_000) stems.clear();
    stems.set(w, s);
  }
  return s;
}

/** Whether the library counts the word as a stop word. */
export function isStopWord(word: string): boolean {
  const t = readText(word.toLowerCase()).tokens;
  return t.length === 1 && t[0]!.stop;
}

/** Stemmed content words of a text (identifiers split into words first). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const t of readText(splitIdentifiers(text)).tokens) {
    if ((t.type !== 'word' && t.type !== 'number') || t.stop || !/[\p{L}\p{N}]/u.test(t.lower)) continue;
    out.push(t.stem);
  }
  return out;
}

/** `get_stock_quote` / `hotelId` → `get stock quote` / `hotel Id`, so names are searchable words. */
export function splitIdentifiers(text: string): string {
  return text.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2');
}

/**
 * A tool name's words, with each run-together word (`usacitieslist`) split into words its own
 * description uses (`usa cities list`) when it splits wholly into them: names written without
 * separators read as the words they are made of. No library splits a run-together name by a
 * vocabulary, hence this; it needs only the description.
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
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return i;
    from = i + 1;
  }
}

/** True when a term of a clause names the parameter (same stem, or a shared prefix of at least 4 letters). */
export function namesParam(name: string, clauseTerms: ReadonlySet<string>): boolean {
  const parts = terms(name).filter((p) => p.length > 2 && !GENERIC_NAME_WORDS.has(p));
  for (const t of clauseTerms)
    for (const p of parts) {
      const n = Math.min(t.length, p.length);
      if (t === p || (n >= 4 && t.slice(0, n) === p.slice(0, n))) return true;
    }
  return false;
}

/** Stems of parameter-name words too generic to say that a clause names the parameter (`id`, `type`, `page`, …). */
const GENERIC_NAME_WORDS = new Set(
  'id type format name data valu code queri limit page max min string sort api key'.split(' '),
);

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
