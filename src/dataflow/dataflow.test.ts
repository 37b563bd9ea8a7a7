import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { Workflow } from '../graph/schema.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { createToolRegistry } from '../tools/registry.js';
import { executeWorkflow } from '../runtime/execute.js';
import { learnBindings, type ExampleRecord } from './learn-bindings.js';
import { valueSource } from './locate.js';
import { namedItem, namedResults, readOutput } from './output-value.js';
import { terms } from '../text/words.js';
import { bindingSentence, describeBinding } from './render.js';
import { resolveSource, type BindingInputs } from './resolve.js';

// Arguments by example (docs/DESIGN.md, "The workflow IR": bindings): results read as data, programs
// resolved with no model, and programs learned from reference calls and their recorded results.

const earlier = (...calls: Array<[string, unknown]>): BindingInputs => ({
  query: 'Tell me about the Harbour View hotel near Oslo.',
  outputs: new Map(),
  earlier: calls.map(([tool, output]) => ({ tool, status: 'ok' as const, output })),
});

describe('results as data', () => {
  it('reads JSON text, Python literals and a cut-off result up to the cut', () => {
    expect(readOutput('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    expect(readOutput("{'ok': True, 'none': None, 'items': [{'id': 7}, (1, 2)]}")).toEqual({
      ok: true,
      none: null,
      items: [{ id: 7 }, [1, 2]],
    });
    // Cut inside the second item's string: the first item and the second's finished fields stay.
    expect(readOutput("{'items': [{'id': 7, 'name': 'A'}, {'id': 8, 'name': 'Harb")).toEqual({
      items: [{ id: 7, name: 'A' }, { id: 8 }],
    });
    expect(readOutput('Error: quota exceeded')).toBeUndefined();
  });

  it('tells where a value stands: the request, an earlier result, or neither', () => {
    const calls = [{ tool: 'search', output: "{'results': [{'id': 'h-9911'}]}" }];
    expect(valueSource('Oslo', 'hotels near Oslo', calls)).toBe('request');
    expect(valueSource('h-9911', 'hotels near Oslo', calls)).toBe('upstream');
    expect(valueSource('metric', 'hotels near Oslo', calls)).toBe('neither');
    // A value inside a longer word or number of the request is not written there.
    expect(valueSource('Osl', 'hotels near Oslo', [])).toBe('neither');
  });

  it('tells which earlier result, and which list item, a text names', () => {
    const words = new Set(terms('the weather history of East Lansing, then return the sneakers'));
    const places = {
      places: [
        { id: 'east-lansing-marker', name: 'East Lansing Marker' },
        { id: 'east-lansing', name: 'East Lansing' },
      ],
    };
    // Every word of a field written: the place, not the marker, whose name has a word the text lacks.
    expect(namedItem(JSON.stringify(places), words)).toEqual({ id: 'east-lansing', name: 'East Lansing' });
    // Two items named alike name neither.
    const twice = [
      { name: 'East Lansing', state: 'MI' },
      { name: 'East Lansing', state: 'OH' },
    ];
    expect(namedItem(twice, words)).toBeUndefined();
    // Of three orders, the one holding sneakers; a word every result holds names none.
    const orders = ['Tablet', 'Sneakers', 'Lamp'].map((item) => ({ status: 'delivered', items: [{ name: item }] }));
    expect([...namedResults(orders, words)]).toEqual([1]);
    expect([...namedResults(orders, new Set(terms('the delivered order')))]).toEqual([]);
  });
});

describe('output programs', () => {
  const search =
    "{'results': [{'id': 'urn:hotel:11', 'name': 'Sea Lodge', 'lat': 59.9, 'lon': 10.7}, {'id': 'urn:hotel:12', 'name': 'Harbour View', 'lat': 59.8, 'lon': 10.6}]}";

  it('read the latest result of a tool, or the latest result the path reaches', () => {
    const inputs = earlier(['search', search], ['weather', '{"results": [{"id": "w-1"}]}']);
    expect(resolveSource({ from: 'output', tool: 'search', path: 'results[*].name' }, inputs)).toBe('Sea Lodge');
    expect(resolveSource({ from: 'output', path: 'results[*].id' }, inputs)).toBe('w-1');
    expect(resolveSource({ from: 'output', tool: 'missing', path: 'results[*].id' }, inputs)).toBeUndefined();
  });

  it('choose a list item as the first, the last, or the one whose field the request names', () => {
    const inputs = earlier(['search', search]);
    const at = (pick: 'first' | 'last' | 'match') =>
      resolveSource(
        { from: 'output', tool: 'search', path: 'results[*].id', pick, ...(pick === 'match' ? { by: 'name' } : {}) },
        inputs,
      );
    expect([at('first'), at('last'), at('match')]).toEqual(['urn:hotel:11', 'urn:hotel:12', 'urn:hotel:12']);
    // The part of the request the call serves is read before the whole request.
    expect(
      resolveSource(
        { from: 'output', tool: 'search', path: 'results[*].id', pick: 'match', by: 'name' },
        { ...inputs, part: 'then the Sea Lodge' },
      ),
    ).toBe('urn:hotel:11');
  });

  it('transform the value found: last segment, a part, a join with a sibling field, a number', () => {
    const inputs = earlier(['search', search]);
    const get = (
      transform: Parameters<typeof resolveSource>[0] extends infer S
        ? S extends { from: 'output'; transform?: infer T }
          ? T
          : never
        : never,
      path = 'results[*].id',
    ) => resolveSource({ from: 'output', tool: 'search', path, transform }, inputs);
    expect(get({ op: 'last-segment' })).toBe('11');
    expect(get({ op: 'split', sep: ':', index: 1 })).toBe('hotel');
    expect(get({ op: 'join', with: 'lat', sep: ',', withFirst: true }, 'results[*].lon')).toBe('59.9,10.7');
    expect(get({ op: 'number', digits: 0 }, 'results[*].lat')).toBe('60');
  });

  it('are rendered for people and for a model', () => {
    const b = {
      tool: 'hotel_details',
      param: 'hotel_id',
      source: { from: 'output' as const, tool: 'search', path: 'results[*].id', pick: 'match' as const, by: 'name' },
    };
    expect(describeBinding(b)).toBe(
      'hotel_details.hotel_id ← search → results[*].id (item whose name the request names)',
    );
    expect(bindingSentence(b, 'urn:hotel:12')).toBe(
      '`hotel_id` is the `id` of the item whose `name` the request names in the latest search result (here: "urn:hotel:12")',
    );
  });
});

describe('bindings in a run', () => {
  const TOOLS: ToolDescriptor[] = [
    {
      name: 'search',
      description: 'Search hotels.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
    {
      name: 'details',
      description: 'Details of a hotel.',
      inputSchema: { type: 'object', properties: { hotel_id: { type: 'string' } }, required: ['hotel_id'] },
    },
  ];
  const registry = (made: string[]) =>
    createToolRegistry([
      {
        ...TOOLS[0]!,
        execute: async (a: Record<string, unknown>) => (
          made.push(`search(${String(a.city)})`),
          {
            results: [
              { id: 'h-1', name: 'Sea Lodge' },
              { id: 'h-2', name: 'Harbour View' },
            ],
          }
        ),
      },
      {
        ...TOOLS[1]!,
        execute: async (a: Record<string, unknown>) => (made.push(`details(${String(a.hotel_id)})`), { ok: true }),
      },
    ]);
  // A policy that does not know the id (it passes the hotel's name): it plans both calls of a repeating step at once.
  const policy = createScriptedPolicy({
    tool: () => [
      { tool: 'search', args: { city: 'Oslo' } },
      { tool: 'details', args: { hotel_id: 'Harbour View' } },
    ],
  });
  const oneStep = (bindOn: 'call' | 'other'): Workflow => ({
    version: 1,
    name: 'hotels',
    nodes: [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan {{query}}', output: { type: 'text' } },
      { id: 'call', kind: 'tool', task: 'Look it up', calls: 'many' },
      {
        id: 'other',
        kind: 'tool',
        task: 'Never runs',
        tools: ['details'],
        ...(bindOn === 'other'
          ? {
              bind: [
                {
                  tool: 'details',
                  param: 'hotel_id',
                  source: { from: 'output', tool: 'search', path: 'results[*].id', pick: 'match', by: 'name' },
                },
              ],
            }
          : {}),
      },
      { id: 'answer', kind: 'llm', role: 'synthesize', prompt: 'Answer {{query}}', output: { type: 'text' } },
    ],
    edges: [
      { from: 'plan', to: 'call', kind: 'data' },
      { from: 'call', to: 'other', kind: 'control', when: { kind: 'status', status: 'error' } },
      { from: 'call', to: 'answer', kind: 'data' },
      { from: 'other', to: 'answer', kind: 'data' },
    ],
  });

  it("resolve each call's bound arguments with the results the step's own earlier calls returned, from a binding another step keeps for the tool", async () => {
    const made: string[] = [];
    await executeWorkflow(
      oneStep('other'),
      { query: 'Hotels in Oslo, then details of the Harbour View.' },
      { policy, tools: registry(made) },
    );
    expect(made).toEqual(['search(Oslo)', 'details(h-2)']);
    const unbound: string[] = [];
    await executeWorkflow(
      oneStep('call'),
      { query: 'Hotels in Oslo, then details of the Harbour View.' },
      { policy, tools: registry(unbound) },
    );
    expect(unbound).toEqual(['search(Oslo)', 'details(Harbour View)']);
  });
});

describe('learning programs from reference calls', () => {
  const hotels = [
    ['Sea Lodge', 'Harbour View', 'Harbour View'],
    ['Fjord Inn', 'Sea Lodge', 'Fjord Inn'],
    ['Harbour View', 'Nordic Rest', 'Nordic Rest'],
    ['Nordic Rest', 'Fjord Inn', 'Nordic Rest'],
  ];
  const ids: Record<string, string> = {
    'Sea Lodge': 'urn:h:11',
    'Harbour View': 'urn:h:12',
    'Fjord Inn': 'urn:h:13',
    'Nordic Rest': 'urn:h:14',
  };
  const records: ExampleRecord[] = hotels.map(([a, b, asked], i) => ({
    id: `r${i}`,
    group: `g${i}`,
    query: `Find hotels in Oslo and tell me more about ${asked}.`,
    calls: [
      {
        tool: 'search',
        args: { city: 'Oslo' },
        output: JSON.stringify({
          results: [
            { id: ids[a!], name: a },
            { id: ids[b!], name: b },
          ],
        }),
      },
      { tool: 'details', args: { hotel_id: ids[asked!]!.split(':').at(-1), units: 'metric' } },
    ],
  }));
  const tools = [
    { name: 'search', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
    {
      name: 'details',
      inputSchema: { type: 'object', properties: { hotel_id: { type: 'string' }, units: { type: 'string' } } },
    },
  ];

  it('finds the list item the request names, and the transform that makes its id the argument', () => {
    const learned = learnBindings(records, tools);
    expect(learned.find((b) => b.param === 'hotel_id')).toMatchObject({
      tool: 'details',
      source: {
        from: 'output',
        tool: 'search',
        path: 'results[*].id',
        pick: 'match',
        by: 'name',
        transform: { op: 'last-segment' },
      },
      hits: 4,
      wrong: 0,
    });
  });

  it('keeps a constant only when it is passed in enough distinct groups, and never an identifier', () => {
    // Four groups are too few for a constant of the workflow; five are enough.
    expect(learnBindings(records, tools).find((b) => b.param === 'units')).toBeUndefined();
    const more = [...records, { ...records[0]!, id: 'r9', group: 'g9' }];
    expect(learnBindings(more, tools).find((b) => b.param === 'units')?.source).toEqual({
      from: 'const',
      value: 'metric',
    });
    const ids6 = more.map((r) => ({
      ...r,
      calls: [r.calls[0]!, { ...r.calls[1]!, args: { ...r.calls[1]!.args, units: 'ACC-8812734' } }],
    }));
    expect(learnBindings(ids6, tools).find((b) => b.param === 'units')).toBeUndefined();
  });

  it('reads a result that is the value itself (a lookup that answers with the id), and renders it', () => {
    const people = ['ada_lee_1234', 'bo_chan_5678', 'cy_diaz_9012'];
    const lookups: ExampleRecord[] = people.map((id, i) => ({
      id: `p${i}`,
      group: `g${i}`,
      query: `I am ${id.split('_')[0]}; show my profile.`,
      calls: [
        { tool: 'find_user', args: { name: id.split('_')[0] }, output: id },
        { tool: 'user_details', args: { user_id: id } },
      ],
    }));
    const userTools = [
      { name: 'find_user', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      { name: 'user_details', inputSchema: { type: 'object', properties: { user_id: { type: 'string' } } } },
    ];
    const b = learnBindings(lookups, userTools).find((x) => x.param === 'user_id');
    expect(b).toMatchObject({ tool: 'user_details', source: { from: 'output', path: '$' }, hits: 3, wrong: 0 });
    expect(resolveSource(b!.source, earlier(['find_user', 'ed_fox_3456']))).toBe('ed_fox_3456');
    expect(bindingSentence({ tool: 'user_details', param: 'user_id', source: b!.source })).toMatch(
      /^`user_id` is the latest (find_user )?result itself$/,
    );
  });

  it('drops a program that gives another value than the reference too often', () => {
    // Half the requests name the second hotel but the references take the first: "first" is right in
    // half the calls only, and no field tells them apart.
    const noisy = records.map((r, i) => ({
      ...r,
      query: 'Find hotels in Oslo and tell me about one.',
      calls: [r.calls[0]!, { ...r.calls[1]!, args: { hotel_id: i % 2 ? 'x-1' : ids[hotels[i]![0]!]! } }],
    }));
    expect(learnBindings(noisy, tools).find((b) => b.param === 'hotel_id')).toBeUndefined();
  });
});
