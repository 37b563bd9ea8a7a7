import { describe, expect, it } from 'vitest';
import type { ToolNode } from '../graph/schema.js';
import { BREADTH_DISCOUNT, GENERIC_FIT, handOff, indexFit, partsFor } from './hand-off.js';
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
  it('hands a part to a step mined for it rather than to a later catch-all step whose many tools fit it a little better', () => {
    // Scores by the part's first word: the catch-all lists a tool that matches the headlines part a
    // little better than the tool the step before it was mined for.
    const scores: Record<string, Record<string, number>> = {
      show: { latest_headlines: 1, news_headlines: 0.9 },
      find: { hotel_search: 1 },
    };
    const index: ToolIndex = {
      rank: (text, candidates) =>
        candidates
          .map((name) => ({ name, score: scores[text.split(' ')[0]!.toLowerCase()]?.[name] ?? 0 }))
          .filter((r) => r.score > 0)
          .sort((a, b) => b.score - a.score),
    };
    const tools = ['news_headlines', 'latest_headlines', 'weather_now', 'flight_search', 'hotel_search'];
    const workflow = {
      nodes: [
        { id: 'headlines', kind: 'tool' as const, task: 'read', mined: ['news_headlines'] },
        { id: 'rest', kind: 'tool' as const, task: 'any', calls: 'many' as const, mined: tools.slice(1) },
      ],
      edges: [{ from: 'headlines', to: 'rest' }],
    };
    const h = handOff('Show the news headlines, then find a hotel.', workflow as never, indexFit(index, tools));
    expect(h.parts).toHaveLength(2);
    expect(partsFor(h, 'headlines')).toEqual([h.parts[0]]);
    expect(partsFor(h, 'rest')).toEqual([h.parts[1]]);
  });

  it("fits a part by its position's tools as a share of the best tool's score", () => {
    const fit = indexFit(countingIndex(), all);
    // A position of two tools: a full share, less BREADTH_DISCOUNT × ln 2.
    const two = 1 / (1 + BREADTH_DISCOUNT * Math.log(2));
    expect(fit('weather now', position)).toBeCloseTo(two, 9);
    expect(fit('flight search', position)).toBe(0);
    expect(fit('weather search', position)).toBeCloseTo(two, 9);
    expect(fit('weather now', { ...position, mined: ['weather_now'] })).toBe(1);
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
