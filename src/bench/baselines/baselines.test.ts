import { describe, expect, it } from 'vitest';
import { parseProcessTree } from '../../mining/process-tree/parse.js';
import { createOfflinePolicy } from '../../policies/offline/offline-policy.js';
import type { TaskRecord } from '../../records/schema.js';
import { createToolRegistry } from '../../tools/registry.js';
import type { ToolSpec } from '../../contracts/tools.js';
import { createPm4pyBaseline } from './pm4py-style.js';
import { createOfflineReact } from './react/react-offline.js';

const FLIGHTS: ToolSpec = {
  name: 'search_flights_for_travel_api',
  description: 'Search flights between two airports given their IATA codes.',
  inputSchema: {
    type: 'object',
    properties: {
      origin: { type: 'string', description: 'IATA code of the origin airport' },
      destination: { type: 'string', description: 'IATA code of the destination airport' },
    },
    required: ['origin', 'destination'],
  },
  execute: async (a) => ({ flights: [{ number: 'AF22', from: a.origin, to: a.destination, price: 540 }] }),
};
const REVIEWS: ToolSpec = {
  name: 'hotel_reviews_for_travel_api',
  description: 'Guest reviews of a hotel by its hotel id.',
  inputSchema: {
    type: 'object',
    properties: { hotel_id: { type: 'string', description: 'the hotel id' } },
    required: ['hotel_id'],
  },
  execute: async (a) => ({ hotel: a.hotel_id, rating: 8.7, review: 'Great breakfast' }),
};
const BROKEN: ToolSpec = {
  name: 'summarize_hotel_guest_reviews_for_broken_api',
  description: 'Summarize the guest reviews of a hotel by hotel id.',
  inputSchema: { type: 'object', properties: { hotel_id: { type: 'string' } }, required: ['hotel_id'] },
  execute: async () => {
    throw new Error('API not working');
  },
};

const opt: TaskRecord[] = [
  {
    id: 'o1',
    query: 'Find flights from LHR to SFO, then show the reviews for hotel 7.',
    reference: 'AF1 costs 400; hotel 7 is rated 9.',
    calls: [
      { tool: FLIGHTS.name, args: { origin: 'LHR', destination: 'SFO' } },
      { tool: REVIEWS.name, args: { hotel_id: '7' } },
    ],
  },
];
const QUERY = 'Find flights from CDG to JFK, then show the reviews for hotel 42.';

describe('PM4Py-style baseline', () => {
  it('runs the mined path with each activity bound to its tool and answers with the plain results', async () => {
    const tools = createToolRegistry([FLIGHTS, REVIEWS, BROKEN]);
    const policy = createOfflinePolicy({ tools: tools.list() });
    const tree = parseProcessTree(`->( '${FLIGHTS.name}', X( tau, '${REVIEWS.name}' ) )`);
    const agent = createPm4pyBaseline({ tree, opt, tools, policy });
    expect(agent.label).toBe('PM4Py-style (offline)');
    const run = await agent.run({ query: QUERY });
    expect(run.calls.map((c) => [c.tool, c.status])).toEqual([
      [FLIGHTS.name, 'ok'],
      [REVIEWS.name, 'ok'],
    ]);
    expect(run.calls[0]!.args).toEqual({ origin: 'CDG', destination: 'JFK' });
    expect(run.calls[1]!.args).toEqual({ hotel_id: '42' });
    // No synthesis: the answer is the results, one paragraph per call.
    expect(run.answer.split('\n\n')).toHaveLength(2);
    expect(run.answer).toContain('AF22');
    expect(run.answer).toContain('8.7');
    expect(run).toMatchObject({ llmCalls: 0, llmSteps: 2, toolCalls: 2 });
    // An unrelated query skips the optional reviews.
    expect(agent.plan('Find flights from CDG to JFK.').map((s) => s.tool)).toEqual([FLIGHTS.name]);
  });

  it('records a mined activity whose tool is missing from T as a failed call', async () => {
    const tools = createToolRegistry([FLIGHTS]);
    const policy = createOfflinePolicy({ tools: tools.list() });
    const agent = createPm4pyBaseline({
      tree: parseProcessTree(`->( 'gone_tool', '${FLIGHTS.name}' )`),
      opt,
      tools,
      policy,
    });
    const run = await agent.run({ query: QUERY });
    expect(run.calls.map((c) => [c.tool, c.status])).toEqual([
      ['gone_tool', 'error'],
      [FLIGHTS.name, 'ok'],
    ]);
  });
});

describe('ReAct baseline (offline)', () => {
  it('answers clause by clause, moving to the next-ranked tool when a call fails, then writes the template answer', async () => {
    const tools = createToolRegistry([FLIGHTS, BROKEN, REVIEWS]);
    const policy = createOfflinePolicy({ tools: tools.list() });
    const agent = createOfflineReact({ tools, policy });
    expect(agent.label).toBe('ReAct (offline)');
    const run = await agent.run({
      query: 'Find flights from CDG to JFK, then summarize the guest reviews of hotel 42.',
    });
    expect(run.calls.map((c) => [c.tool, c.status])).toEqual([
      [FLIGHTS.name, 'ok'],
      [BROKEN.name, 'error'],
      [REVIEWS.name, 'ok'],
    ]);
    expect(run.calls[2]!.args).toEqual({ hotel_id: '42' });
    expect(run.answer).toContain('AF22');
    expect(run.answer).toContain('Great breakfast');
    expect(run).toMatchObject({ llmCalls: 0, llmSteps: 4, toolCalls: 3 });
  });

  it('stops at the step limit', async () => {
    const tools = createToolRegistry([FLIGHTS, BROKEN, REVIEWS]);
    const policy = createOfflinePolicy({ tools: tools.list() });
    const run = await createOfflineReact({ tools, policy, maxSteps: 1 }).run({
      query: 'Find flights from CDG to JFK, then show the reviews for hotel 42.',
    });
    expect(run.calls).toHaveLength(1);
    expect(run.llmSteps).toBe(2);
  });
});
