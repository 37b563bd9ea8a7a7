import { describe, expect, it } from 'vitest';
import { valueShape } from './value-shape.js';

describe('valueShape', () => {
  it('reads a value of mostly capitalised words as a name, and one of mostly lower-case words as a sentence', () => {
    expect(valueShape('Isabella Johansson')).toBe('multi-word-name');
    expect(valueShape('Bank of America')).toBe('multi-word-name');
    expect(valueShape('Allianz Global Investors Fund - Allianz Credit Opportunities Plus X7 EUR')).toBe(
      'multi-word-name',
    );
    // What a step's summary or message takes is prose: a hint learned from such values says so,
    // and a person's name in the request is then no candidate for it.
    expect(valueShape('Customer wants to return the hiking boots and the hose')).toBe('text');
  });

  it('gives an e-mail address a shape of its own, apart from text', () => {
    expect(valueShape('isabella.lopez3271@example.com')).toBe('email');
    expect(valueShape('Ada.Lovelace@example.com')).toBe('email');
  });

  it('reads words joined by slashes as a path (a time zone), not a name', () => {
    expect(valueShape('America/New_York')).toBe('path');
    expect(valueShape('Asia/Tokyo')).toBe('path');
    expect(valueShape('Tokyo')).toBe('name');
    expect(valueShape('ETH/USD')).toBe('pair');
  });

  it('reads a place with one or more regions as a place, and a pair with a space after its separator as a pair', () => {
    expect(valueShape('Paris, France')).toBe('place-region');
    expect(valueShape('East Lansing, MI, US')).toBe('place-region');
    expect(valueShape('London,UK')).toBe('place-region-tight');
    expect(valueShape('BTC, EUR')).toBe('pair');
  });

  it("reads a list as its items' shape: a list of ids is ids, not text", () => {
    expect(valueShape(['3788616824'])).toBe('long-number');
    expect(valueShape(['AAPL', 'MSFT'])).toBe('code4');
  });
});
