import { readFileSync } from 'node:fs';
import wordListPath from 'word-list';

/**
 * Whether a token is a word of the language: the English word list of the `word-list` package
 * (about 274,000 lower-case words, inflected forms included: `orders`, `cancelled`), read once, the
 * first time a word is asked about (about 3 MB, a tenth of a second or so; a process that never asks
 * never reads it). A
 * person's name or a code is seldom a word there (`lindqvist`, `xkqwpl`, `jfk`), though some are
 * (`park`, `mark`, `gus`): callers that judge a value by its words say so.
 */

/** The words, sorted by code unit (a sorted array searched by halves loads in a fraction of a Set's time). */
let words: readonly string[] | undefined;

/** True when `token` (any case) is a word of the word list. */
export function isLanguageWord(token: string): boolean {
  words ??= readFileSync(wordListPath, 'utf8').split('\n').sort();
  const lower = token.toLowerCase();
  return has(words, lower) || (lower.endsWith("'s") && has(words, lower.slice(0, -2)));
}

function has(sorted: readonly string[], word: string): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const w = sorted[mid]!;
    if (w === word) return true;
    if (w < word) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
