import { describe, expect, it } from 'vitest';
import { isLanguageWord } from './words.js';

describe('isLanguageWord', () => {
  it('knows words of the language in any case and inflection, and possessives of them', () => {
    for (const w of ['order', 'Orders', 'cancelled', 'renewable', 'KETTLE', "kettle's", 'paris'])
      expect([w, isLanguageWord(w)]).toEqual([w, true]);
  });
  it('does not know names and codes that are no words', () => {
    for (const w of ['lindqvist', 'Okafor', 'XKQWPL', 'jfk', 'https', 'w2378156'])
      expect([w, isLanguageWord(w)]).toEqual([w, false]);
  });
});
