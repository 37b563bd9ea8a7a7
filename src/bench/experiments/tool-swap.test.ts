import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../records/schema.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { toolSwapNote, toolSwapPairs } from './tool-swap.js';

const city = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const tools: ToolDescriptor[] = [
  { name: 'current_weather_for_alpha', description: 'Current weather conditions for a city.', inputSchema: city },
  {
    name: 'current_weather_for_beta',
    description: 'Current weather conditions of a city right now.',
    inputSchema: city,
  },
  {
    name: 'stock_quote_for_gamma',
    description: 'Latest stock quote for a ticker symbol.',
    inputSchema: { type: 'object', properties: { symbol: { type: 'string' } } },
  },
];
const rec = (id: string, tool: string, args: Record<string, unknown>): TaskRecord => ({
  id,
  query: id,
  reference: '',
  calls: [{ tool, args, status: 'ok' }],
});

describe('tool-set swap data check', () => {
  it('pairs a tool with its most similar one and counts the test calls a substitute could answer by replay', () => {
    const all = [
      rec('h1', 'current_weather_for_beta', { city: 'Paris' }),
      rec('t1', 'current_weather_for_alpha', { city: 'Paris' }),
      rec('t2', 'current_weather_for_alpha', { city: 'Oslo' }),
    ];
    const test = all.slice(1);
    const pairs = toolSwapPairs('Weather', all, test, tools);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({
      original: 'current_weather_for_alpha',
      substitute: 'current_weather_for_beta',
      testCalls: 2,
      replayable: 1,
    });
    expect(pairs[0]!.similarity).toBeGreaterThan(0.35);
    const note = toolSwapNote(pairs);
    expect(note.run).toBe(false);
    expect(note.note).toContain('of their 2 test calls, 1 (50.0%) could be answered after the swap');
  });
  it('says so when nothing can be swapped', () => {
    expect(toolSwapNote([]).note).toMatch(/nothing to swap/);
  });
});
