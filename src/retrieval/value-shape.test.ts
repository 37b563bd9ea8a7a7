import { describe, expect, it } from 'vitest';
import { valueShape } from './value-shape.js';

describe('valueShape', () => {
  it('reads a capitalised value of a few words as a name and a longer one as a sentence', () => {
    expect(valueShape('Isabella Johansson')).toBe('multi-word-name');
    expect(valueShape('San Francisco International Airport')).toBe('multi-word-name');
    // What a step's summary or message takes is prose: a hint learned from such values says so,
    // and a person's name in the request is then no candidate for it.
    expect(valueShape('Customer wants to return the hiking boots and the hose')).toBe('text');
  });

  it('gives an e-mail address a shape of its own, apart from text', () => {
    expect(valueShape('isabella.lopez3271@example.com')).toBe('email');
    expect(valueShape('Ada.Lovelace@example.com')).toBe('email');
  });
});
