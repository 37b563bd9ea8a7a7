import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { focusSpans } from './select-tool.js';
import { MAX_REQUEST_PARTS, requestClauses } from './text.js';
import { createToolIndex, type ToolIndex } from './tool-index.js';

const tools: ToolDescriptor[] = ['weather', 'forecast', 'tides', 'pollen'].map((t) => ({
  name: `get_${t}`,
  description: `The ${t} of a city.`,
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
}));

/** An index that counts the texts it is asked to rank. */
function counting(): { index: ToolIndex; ranked: () => number } {
  const inner = createToolIndex(tools);
  let n = 0;
  return { index: { rank: (text, c) => (n++, inner.rank(text, c)) }, ranked: () => n };
}

describe('focusSpans over a long request', () => {
  it('ranks each clause once per request (at most MAX_REQUEST_PARTS), not once per clause per call', () => {
    const cities = ['Oslo', 'Lima', 'Paris', 'Rome', 'Cairo'];
    const query = Array.from(
      { length: 200 },
      (_, i) => `Then get the ${['weather', 'forecast', 'tides', 'pollen'][i % 4]} of ${cities[i % 5]}.`,
    ).join(' ');
    const clauses = requestClauses(query);
    expect(clauses.length).toBeGreaterThan(150);
    const { index, ranked } = counting();
    const names = tools.map((t) => t.name);
    // One call per clause, as a repeating position makes: before, every call ranked every clause (200 × 200).
    for (const clause of clauses) focusSpans(query, clause, 'get_tides', names, index);
    expect(ranked()).toBeLessThanOrEqual(MAX_REQUEST_PARTS);
  });

  it('keeps the call clause and the clause where the tool ranks best, as before', () => {
    const query = 'Get the weather of Oslo. Then get the tides of Lima. Finally get the pollen of Rome.';
    const { index } = counting();
    const names = tools.map((t) => t.name);
    const spans = focusSpans(query, 'Get the weather of Oslo', 'get_tides', names, index);
    expect(spans.map(([a, b]) => query.slice(a, b))).toEqual(['Get the weather of Oslo', 'get the tides of Lima']);
  });
});
