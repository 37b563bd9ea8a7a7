import { describe, expect, it } from 'vitest';
import type { ToolNode } from '../graph/schema.js';
import { GENERIC_FIT, indexFit } from './hand-off.js';
import type { ToolIndex } from './tool-index.js';

/** An index whose scores come from the words of the part, counting the rankings it is asked for. */
function countingIndex(): ToolIndex & { ranked: string[] } {
  const ranked: string[] = [];
  return {
    ranked,
    rank(text, candidates) {
      ranked.push(text);
      return candidates
        .map((name) => ({ name, score: text.split(' ').filter((w) => name.includes(w)).length }))
        .filter((r) => r.score > 0)
        .sort((a, b) => b.score - a.score);
    },
  };
}

const all = ['weather_now', 'weather_week', 'flight_search', 'hotel_search'];
const position: ToolNode = { id: 't1', kind: 'tool', task: 'look up', mined: ['weather_now', 'weather_week'] };

describe('indexFit', () => {
  it("fits a part by its position's tools as a share of the best tool's score", () => {
    const fit = indexFit(countingIndex(), all);
    expect(fit('weather now', position)).toBe(1);
    expect(fit('flight search', position)).toBe(0);
    expect(fit('weather search', position)).toBe(1);
    expect(fit('anything', { id: 'g', kind: 'tool', task: 'any' })).toBe(GENERIC_FIT);
  });

  it('keeps the scores of the last memoSize parts only: an older part is ranked again and fits the same', () => {
    const index = countingIndex();
    const fit = indexFit(index, all, 3);
    const parts = ['weather now', 'flight search', 'hotel search', 'weather week'];
    const first = parts.map((p) => fit(p, position));
    expect(index.ranked).toEqual(parts);
    // The last three are kept: asking them again ranks nothing.
    expect(parts.slice(1).map((p) => fit(p, position))).toEqual(first.slice(1));
    expect(index.ranked).toHaveLength(4);
    // The first was dropped when the fourth came: it is ranked again, with the same fit.
    expect(fit('weather now', position)).toBe(first[0]);
    expect(index.ranked).toEqual([...parts, 'weather now']);
  });
});
