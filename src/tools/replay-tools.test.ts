import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../records/schema.js';
import { createToolRegistry } from './registry.js';
import { createReplayTools } from './replay-tools.js';
import type { ToolDescriptor } from '../contracts/tools.js';

const quote: ToolDescriptor = {
  name: 'get_quote',
  description: 'Stock quote',
  inputSchema: {
    type: 'object',
    properties: { symbol: { type: 'string' }, days: { type: 'number' } },
    required: ['symbol'],
  },
};
const news: ToolDescriptor = {
  name: 'get_news',
  description: 'News',
  inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
};

const records: TaskRecord[] = [
  {
    id: 'r1',
    query: 'q1',
    reference: 'a1',
    calls: [
      { tool: 'get_quote', args: { symbol: 'AAPL', days: 5 }, output: "{'price': 1}", status: 'ok' },
      { tool: 'get_news', args: { topic: 'x' }, output: 'ERROR: Failed after 5 attempts', status: 'error' },
      { tool: 'gone_tool', args: {}, output: 'x', status: 'ok' },
    ],
  },
  {
    id: 'r2',
    query: 'q2',
    reference: 'a2',
    calls: [{ tool: 'get_quote', args: { days: '5', symbol: ' AAPL ' }, output: "{'price': 2}", status: 'ok' }],
  },
];

describe('createReplayTools', () => {
  it('answers a call in any equal canonical form with the first recorded output, verbatim', async () => {
    const replay = createReplayTools(records, [quote, news]);
    expect(replay.index).toEqual({ keys: 1, conflictingKeys: 1, unknownToolCalls: 1 });
    const reg = createToolRegistry(replay);
    expect(await reg.call('get_quote', { symbol: 'AAPL', days: '5' })).toMatchObject({
      status: 'ok',
      output: "{'price': 1}",
      origin: 'replay',
    });
    expect(await reg.call('get_quote', { days: 5, symbol: 'AAPL  ' })).toMatchObject({ output: "{'price': 1}" });
    expect(reg.stats()).toMatchObject({ replayHits: 2, replayMisses: 0 });
  });

  it('misses with the canonical arguments in the message; recorded errors are not replayed by default', async () => {
    const reg = createToolRegistry(createReplayTools(records, [quote, news]));
    expect(await reg.call('get_quote', { symbol: 'MSFT', days: 5 })).toMatchObject({
      status: 'error',
      error: 'no recorded response for get_quote with {"days":5,"symbol":"MSFT"}',
      origin: 'replay',
    });
    expect((await reg.call('get_news', { topic: 'x' })).error).toBe(
      'no recorded response for get_news with {"topic":"x"}',
    );
    expect(reg.stats()).toMatchObject({ replayHits: 0, replayMisses: 2 });
    const withErrors = createToolRegistry(createReplayTools(records, [quote, news], { includeErrors: true }));
    expect(await withErrors.call('get_news', { topic: 'x' })).toMatchObject({
      status: 'ok',
      output: 'ERROR: Failed after 5 attempts',
    });
  });

  it('simulates a miss when asked, with recorded examples of the tool, and tags it simulated', async () => {
    const seen: unknown[] = [];
    const reg = createToolRegistry(
      createReplayTools(records, [quote, news], {
        onMiss: 'simulate',
        simulate: async (tool, args, examples) => {
          seen.push({ tool: tool.name, args, examples });
          return { price: 99, note: 'simulated' };
        },
      }),
    );
    expect(await reg.call('get_quote', { symbol: 'MSFT' })).toMatchObject({
      status: 'ok',
      output: { price: 99 },
      origin: 'simulated',
    });
    expect(seen).toEqual([
      {
        tool: 'get_quote',
        args: { symbol: 'MSFT' },
        examples: [{ args: { symbol: 'AAPL', days: 5 }, output: "{'price': 1}" }],
      },
    ]);
    expect(await reg.call('get_quote', { symbol: 'AAPL', days: 5 })).toMatchObject({ origin: 'replay' });
    expect(reg.stats()).toMatchObject({ replayHits: 1, replayMisses: 0, simulated: 1 });
  });

  it('turns a failing simulator into a miss error that says so', async () => {
    const reg = createToolRegistry(
      createReplayTools(records, [quote], {
        onMiss: 'simulate',
        simulate: async () => {
          throw new Error('429 rate limited');
        },
      }),
    );
    const out = await reg.call('get_quote', { symbol: 'X' });
    expect(out.error).toBe(
      'no recorded response for get_quote with {"symbol":"X"}; simulation failed: 429 rate limited',
    );
    expect(reg.stats()).toMatchObject({ replayMisses: 1, simulated: 0 });
  });

  it('admits a recorded call whose arguments break the imported schema, but not a new one', async () => {
    const hotel: ToolDescriptor = {
      name: 'hotel',
      description: 'h',
      inputSchema: { type: 'object', properties: { photos: { type: 'boolean' } } },
    };
    const rec: TaskRecord = {
      id: 'h',
      query: 'q',
      reference: 'a',
      calls: [{ tool: 'hotel', args: { photos: '1' }, output: 'with photos', status: 'ok' }],
    };
    const reg = createToolRegistry(createReplayTools([rec], [hotel]));
    expect(await reg.call('hotel', { photos: '1' })).toMatchObject({ status: 'ok', output: 'with photos' });
    expect((await reg.call('hotel', { photos: '2' })).error).toBe(
      `invalid arguments for 'hotel': $.photos: expected boolean, got string "2"`,
    );
  });
});
