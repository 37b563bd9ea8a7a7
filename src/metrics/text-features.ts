/**
 * The small, deterministic text features the offline lexical judge reads (lexical-judge.ts):
 * word tokens, stop words, a simple stemmer, numbers and named entities. English only.
 */

/** Common English function words, removed before comparing content words. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can could ' +
    'did do does doing done down during each either else even ever every few for from further get gets got had has have having he her here ' +
    'hers herself him himself his how however i if in into is it its itself just let like made make many may me might more most much must my ' +
    'myself need no nor not now of off on once one only or other our ours ourselves out over own per please same shall she should show so some ' +
    'such than that the their theirs them themselves then there these they this those through to too under until up upon us use used using ' +
    'very via want was we were what when where which while who whom whose why will with within without would yes yet you your yours yourself ' +
    'yourselves also based could found following given here provide provided information details detail result results ' +
    "let's i'm i've it's that's there's don't can't won't isn't aren't didn't doesn't"
  ).split(/\s+/),
);

/** Word tokens: runs of letters (with inner ' or -) and numbers (with inner , or .). */
export function words(text: string): string[] {
  return text.match(/[A-Za-z\u00C0-\u024F]+(?:['’-][A-Za-z\u00C0-\u024F]+)*|\d+(?:[.,]\d+)*/g) ?? [];
}

/**
 * A light suffix-stripping stemmer (not Porter): lower-case, then the first matching rule of
 * -ies → -y, -ing, -ed, -es, -s, -ly, keeping at least three letters. "cities" and "city" agree,
 * "forecasting" and "forecast" agree.
 */
export function stem(word: string): string {
  const w = word.toLowerCase().replace(/['’]s$/, '');
  const rules: Array<[RegExp, string]> = [
    [/ies$/, 'y'],
    [/ing$/, ''],
    [/ed$/, ''],
    [/(ss|sh|ch|x|z)es$/, '$1'],
    [/([^s])s$/, '$1'],
    [/ly$/, ''],
  ];
  for (const [suffix, replacement] of rules) {
    if (suffix.test(w)) {
      let out = w.replace(suffix, replacement);
      // planning → plann → plan
      if (/(ing|ed)$/.test(w) && /([b-df-hj-np-tv-z])\1$/.test(out) && !/(ll|ss|zz)$/.test(out)) out = out.slice(0, -1);
      return out.length >= 3 ? out : w;
    }
  }
  return w;
}

/** Stems of the content words (alphabetic, not stop words, at least two letters). */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    const lower = w.toLowerCase();
    if (/^\d/.test(w) || lower.length < 2 || STOP_WORDS.has(lower)) continue;
    out.add(stem(lower));
  }
  return out;
}

/** A number as written, normalised: thousands separators dropped, sign ignored, `2.50` → `2.5`. */
export interface NumberToken {
  text: string;
  value: number;
  decimals: number;
}

/** The numbers in a text (`1,234.50` → 1234.5; `2025-09-07` → 2025, 9, 7). */
export function numbers(text: string): NumberToken[] {
  const out: NumberToken[] = [];
  for (const m of text.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g)) {
    const raw = m[0].replace(/,/g, '');
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    const decimals = raw.includes('.') ? raw.split('.')[1]!.replace(/0+$/, '').length : 0;
    out.push({ text: String(value), value, decimals });
  }
  return out;
}

/**
 * Does `candidates` contain `ref`, exactly or rounded? A candidate with fewer decimals counts when it
 * is `ref` rounded to its own precision (18.34 is found as 18.3 or 18, not as 19).
 */
export function numberFound(ref: NumberToken, candidates: readonly NumberToken[]): boolean {
  return candidates.some(
    (c) =>
      c.value === ref.value ||
      (c.decimals < ref.decimals && Math.abs(ref.value - c.value) <= 0.5 * 10 ** -c.decimals + 1e-9),
  );
}

/**
 * Named entities and codes, lower-cased: spans of capitalised words ("New York", "Deutsche Bahn";
 * a span ends at punctuation) and codes (AAPL, EUR/USD, BTC-30SEP22). A single capitalised word at
 * the start of a sentence counts only when it is also capitalised mid-sentence here or in `context`
 * (e.g. the query), since otherwise it is ordinary capitalisation. Stop words never count.
 */
export function namedEntities(text: string, context = ''): Set<string> {
  const out = new Set<string>();
  const tokens = [...text.matchAll(TOKEN)];
  const properNouns = new Set([...midSentenceCapitalised(text), ...midSentenceCapitalised(context)]);
  let span: string[] = [];
  const flush = () => {
    if (span.length > 1 || (span.length === 1 && (isCode(span[0]!) || properNouns.has(span[0]!.toLowerCase())))) {
      out.add(span.join(' ').toLowerCase());
    }
    span = [];
  };
  tokens.forEach((m, i) => {
    const word = m[0];
    if (i > 0 && !/^ +$/.test(gapBefore(text, tokens, i))) flush();
    if ((isCapitalised(word) || isCode(word)) && !STOP_WORDS.has(word.toLowerCase())) span.push(word);
    else flush();
  });
  flush();
  return out;
}

const TOKEN = /[A-Za-z0-9\u00C0-\u024F]+(?:[\/.'’-][A-Za-z0-9\u00C0-\u024F]+)*/g;

function gapBefore(text: string, tokens: RegExpExecArray[] | RegExpMatchArray[], i: number): string {
  const prev = tokens[i - 1]!;
  return text.slice(prev.index! + prev[0].length, tokens[i]!.index);
}

/** Capitalised words that do not start a sentence, line or list item: proper nouns. */
function midSentenceCapitalised(text: string): Set<string> {
  const out = new Set<string>();
  const tokens = [...text.matchAll(TOKEN)];
  tokens.forEach((m, i) => {
    if (i === 0 || !isCapitalised(m[0])) return;
    if (/[.!?:\n*#•]/.test(gapBefore(text, tokens, i))) return;
    out.add(m[0].toLowerCase());
  });
  return out;
}

function isCapitalised(word: string): boolean {
  return /^[A-Z\u00C0-\u00DE]/.test(word);
}

/** Upper-case codes of two or more letters (AAPL, EUR/USD), or upper-case letters mixed with digits (BTC-30SEP22). */
function isCode(word: string): boolean {
  return (
    (/^[A-Z0-9\/.-]+$/.test(word) && (word.match(/[A-Z]/g)?.length ?? 0) >= 2) ||
    (/[A-Z]/.test(word) && /\d/.test(word))
  );
}

/** Lower-cased word tokens joined by single spaces, with a space at each end, for phrase lookups. */
export function phraseText(text: string): string {
  const tokens = text.match(TOKEN) ?? [];
  return ` ${tokens.join(' ').toLowerCase()} `;
}

/** The sentences of a text (split at . ! ? and line breaks). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => words(s).length > 0);
}
