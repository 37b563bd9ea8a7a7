import { readFileSync } from 'node:fs';
import wordListPath from 'word-list';

/**
 * Whether a token is a word of the language: the English word list of the `word-list` package
 * (about 274,000 lower-case words, inflected forms included: `orders`, `cancelled`), read once, the
 * first time a word is asked about (about 3 MB; a process that never asks never reads it). A
 * person's name or a code is seldom a word there (`lindqvist`, `xkqwpl`, `jfk`), though some are
 * (`park`, `mark`, `gus`): callers that judge a value by its words say so.
 */

let words: ReadonlySet<string> | undefined;

/** True when `token` (any case) is a word of the word list. */
export function isLanguageWord(token: string): boolean {
  words ??= new Set(readFileSync(wordListPath, 'utf8').split('\n'));
  const lower = token.toLowerCase();
  return words.has(lower) || (lower.endsWith("'s") && words.has(lower.slice(0, -2)));
}
