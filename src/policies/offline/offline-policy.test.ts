import { describe, expect, it } from 'vitest';
import type { LlmNode, ToolHint, ToolNode, Workflow } from '../../graph/schema.js';
import { executeWorkflow } from '../../runtime/execute.js';
import { createToolRegistry } from '../../tools/registry.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { NodeInput, ToolPlanRequest } from '../types.js';
import { wholePlan } from '../whole-plan.js';
import { createOfflinePolicy } from './offline-policy.js';
import { planToolAnswer } from '../../../test/support/workflows.js';

/** Planned calls without the request part each serves (asserted where the part is the point). */
const bare = (calls: ReadonlyArray<{ tool: string; args: Record<string, unknown>; part?: string }>) =>
  calls.map(({ part: _part, ...c }) => c);

const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });
const TOOLS: ToolDescriptor[] = [
  {
    name: 'search_flights_for_skyscan',
    description: 'Search flights between two airports on a date.',
    inputSchema: obj({ origin: { type: 'string' }, destination: { type: 'string' }, date: { type: 'string' } }, [
      'origin',
      'destination',
      'date',
    ]),
  },
  {
    name: 'stock_quote_for_alpha',
    description: 'Real-time stock quote for a ticker symbol.',
    inputSchema: obj(
      {
        function: { type: 'string' },
        symbol: { type: 'string' },
        datatype: { type: 'string' },
        adjusted: { type: 'boolean' },
      },
      ['function', 'symbol'],
    ),
  },
  {
    name: 'search_hotels_for_priceline',
    description: 'Search hotels in a city by name.',
    inputSchema: obj({ name: { type: 'string' } }, ['name']),
  },
  {
    name: 'hotel_details_for_priceline',
    description: 'Details of one hotel by its hotel id.',
    inputSchema: obj({ hotel_id: { type: 'string' }, photos: { type: 'boolean' } }, ['hotel_id']),
  },
  {
    name: 'current_weather_for_weatherapi',
    description: 'Current weather conditions for a city.',
    inputSchema: obj({ q: { type: 'string', default: 'London' } }, ['q']),
  },
];
const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

/** What a search would have learned about the tools (dataflow/learn-hints.ts), written by hand: typed, readable, no record's values. */
const HINTS: ToolHint[] = [
  {
    tool: 'search_flights_for_skyscan',
    params: {
      origin: { from: { request: 1 }, before: { from: 1 }, shapes: { code3: 1 } },
      destination: { from: { request: 1 }, before: { to: 1 }, shapes: { code3: 1 } },
      date: { from: { request: 1 }, shapes: { date: 1 } },
    },
  },
  {
    tool: 'stock_quote_for_alpha',
    params: {
      function: { from: { constant: 1 }, values: [{ value: 'TIME_SERIES_DAILY', share: 1 }] },
      symbol: { from: { request: 1 }, before: { for: 0.8 }, shapes: { code4: 0.6, code3: 0.4 } },
      datatype: {
        set: 'always',
        setRates: { overall: 1 },
        from: { constant: 1 },
        values: [{ value: 'json', share: 1 }],
      },
      adjusted: { set: 'never', setRates: { overall: 0 } },
    },
  },
  {
    tool: 'hotel_details_for_priceline',
    params: {
      hotel_id: { from: { upstream: 1 }, keys: { hotel_id: 1 }, shapes: { int: 1 } },
      photos: { set: 'always', setRates: { overall: 1 } },
    },
  },
];

const node = (extra: Partial<ToolNode> = {}): ToolNode => ({
  id: 'step',
  kind: 'tool',
  task: 'Call the right tool',
  ...extra,
});
const wf = (n: ToolNode): Workflow => ({ version: 1, name: 'w', nodes: [n], edges: [] });

function req(query: string, n: ToolNode, candidates: ToolDescriptor[], inputs: NodeInput[] = []): ToolPlanRequest {
  return { query, workflow: wf(n), inputs, context: query, scratch: new Map(), node: n, candidates, attempt: 1 };
}

/** A step with the hints above. */
const hinted = (extra: Partial<ToolNode> = {}): ToolNode => node({ hints: HINTS, ...extra });

describe('offline policy: tool nodes', () => {
  const policy = createOfflinePolicy({ tools: TOOLS });
  const blank = policy;

  it('is labelled as offline', () => {
    expect([policy.id, policy.kind, policy.label]).toEqual(['offline', 'offline', 'offline policy (no LLM)']);
  });

  it('selects a tool by BM25 among the candidates, within the node hint', async () => {
    const all = await blank.planToolCalls(req("What's the current weather in Berlin?", node(), TOOLS));
    expect(all.calls[0]!.tool).toBe('current_weather_for_weatherapi');
    expect(all.calls[0]!.args).toEqual({ q: 'Berlin' });
    // The hint is obeyed; a stock quote for a weather question has no value for its arguments, so no call is made.
    const hinted = await blank.planToolCalls(
      req("What's the current weather in Berlin?", node({ tools: ['stock_quote_for_alpha'] }), [
        tool('stock_quote_for_alpha'),
      ]),
    );
    expect(hinted.calls).toEqual([]);
    expect(hinted.error).toMatch(/^no value for `symbol` of 'stock_quote_for_alpha'/);
    expect(hinted.model).toBe('offline');
  });

  it("tells origin from destination by the cue words of the step's hint", async () => {
    const q = 'Find flights from BOS to SEA on May 5, 2025.';
    const r = await policy.planToolCalls(req(q, hinted(), [tool('search_flights_for_skyscan')]));
    expect(bare(r.calls)).toEqual([
      { tool: 'search_flights_for_skyscan', args: { origin: 'BOS', destination: 'SEA', date: '2025-05-05' } },
    ]);
    // Without hints, no value is given to two parameters.
    const plain = await blank.planToolCalls(req(q, node(), [tool('search_flights_for_skyscan')]));
    expect(new Set(Object.values(plain.calls[0]!.args)).size).toBe(3);
  });

  it("uses the hint's usual values and sets the optional parameters it says are set, and no others", async () => {
    const r = await policy.planToolCalls(req('Get a quote for TSLA.', hinted(), [tool('stock_quote_for_alpha')]));
    expect(r.calls[0]!.args).toEqual({ function: 'TIME_SERIES_DAILY', symbol: 'TSLA', datatype: 'json' });
  });

  it('reads the hint another step of the workflow has about the tool when its own has none', async () => {
    const holder = node({ id: 'z_holder', hints: HINTS });
    const step = node({ id: 'step' });
    const workflow: Workflow = { version: 1, name: 'w', nodes: [step, holder], edges: [] };
    const r = await policy.planToolCalls({
      ...req('Get a quote for TSLA.', step, [tool('stock_quote_for_alpha')]),
      workflow,
    });
    expect(r.calls[0]!.args).toEqual({ function: 'TIME_SERIES_DAILY', symbol: 'TSLA', datatype: 'json' });
  });

  it('takes a value from an upstream output by the key the hint names', async () => {
    const upstream: NodeInput = {
      nodeId: 'search',
      kind: 'tool',
      status: 'ok',
      output: [
        {
          tool: 'search_hotels_for_priceline',
          args: { name: 'Paris' },
          status: 'ok',
          output: "[{'hotel_id': '999', 'name': 'Hotel Z'}, {'hotel_id': '1000'",
        },
      ],
      calls: [{ tool: 'search_hotels_for_priceline', args: { name: 'Paris' }, status: 'ok' }],
    };
    const r = await policy.planToolCalls(
      req(
        'Search hotels in Paris and show the details with photos of the first hotel.',
        hinted(),
        [tool('hotel_details_for_priceline')],
        [upstream],
      ),
    );
    expect(r.calls[0]!.args).toEqual({ hotel_id: '999', photos: true });
  });

  it('falls back to the schema default for a required parameter with no value in sight', async () => {
    const r = await blank.planToolCalls(
      req('how is the weather right now?', node(), [tool('current_weather_for_weatherapi')]),
    );
    expect(r.calls[0]!.args).toEqual({ q: 'London' });
  });

  it("makes one call per distinct value of the parameter the hint says repeated calls vary, for calls: 'many'", async () => {
    const q = 'Get stock quotes for AAPL, MSFT and TSLA.';
    const repeating = HINTS.map((h) => (h.tool === 'stock_quote_for_alpha' ? { ...h, repeat: 'symbol' } : h));
    const r = await policy.planToolCalls(
      req(q, node({ calls: 'many', hints: repeating }), [tool('stock_quote_for_alpha')]),
    );
    expect(r.calls.map((c) => c.args.symbol)).toEqual(['AAPL', 'MSFT', 'TSLA']);
    expect(new Set(r.calls.map((c) => c.args.function))).toEqual(new Set(['TIME_SERIES_DAILY']));
    // A hint without `repeat`: the other values are not taken as more calls.
    const once = await policy.planToolCalls(req(q, hinted({ calls: 'many' }), [tool('stock_quote_for_alpha')]));
    expect(once.calls.map((c) => c.args.symbol)).toEqual(['AAPL']);
  });

  it('is deterministic, and moves to the next-ranked tool on a retry', async () => {
    const q = 'Find flights from BOS to SEA on 2025-05-05 for my stay in Boston.';
    const a = await policy.planToolCalls(req(q, hinted(), TOOLS));
    const b = await policy.planToolCalls(req(q, hinted(), TOOLS));
    expect(a).toEqual(b);
    const retry = await policy.planToolCalls({ ...req(q, hinted(), TOOLS), attempt: 2, previousError: 'failed' });
    expect(retry.calls[0]!.tool).not.toBe(a.calls[0]!.tool);
  });

  it('does not repeat a call this run already made: the next-ranked tool serves the part, or no call is made', async () => {
    const q = "What's the current weather in Berlin?";
    const first = await blank.planToolCalls(req(q, node(), TOOLS));
    expect(bare(first.calls)).toEqual([{ tool: 'current_weather_for_weatherapi', args: { q: 'Berlin' } }]);
    const upstream: NodeInput = {
      nodeId: 'before',
      kind: 'tool',
      status: 'ok',
      output: [{ ...first.calls[0]!, status: 'ok', output: 'sunny' }],
      calls: [{ ...first.calls[0]!, status: 'ok' }],
    };
    const two = [tool('current_weather_for_weatherapi'), tool('search_hotels_for_priceline')];
    expect((await blank.planToolCalls(req(q, node(), two))).calls[0]!.tool).toBe('current_weather_for_weatherapi');
    const again = await blank.planToolCalls(req(q, node(), two, [upstream]));
    expect(bare(again.calls)).toEqual([{ tool: 'search_hotels_for_priceline', args: { name: 'Berlin' } }]);
    // With the weather tool as the only candidate, the repeat is left out rather than made again.
    const only = await blank.planToolCalls(req(q, node(), [tool('current_weather_for_weatherapi')], [upstream]));
    expect(only).toEqual({ calls: [], model: 'offline' });
  });

  it('reports a node without candidates as an error', async () => {
    expect((await policy.planToolCalls(req('x', node(), []))).error).toMatch(/no candidate tools/);
  });
});

describe('offline policy: tool positions read the request in order', () => {
  const policy = createOfflinePolicy({ tools: TOOLS });
  const q = 'Find flights from JFK to LAX on 2025-03-01, then get a quote for AAPL.';
  const chain = (...steps: ToolNode[]): Workflow => {
    const nodes: Workflow['nodes'] = [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'p {{query}}', output: { type: 'text' } },
      ...steps,
      { id: 'answer', kind: 'llm', role: 'synthesize', prompt: 'a {{inputs}}', output: { type: 'text' } },
    ];
    return {
      version: 1,
      name: 'chain',
      nodes,
      edges: nodes.slice(1).map((n, i) => ({ from: nodes[i]!.id, to: n.id, kind: 'data' as const })),
    };
  };
  const plan = async (w: Workflow, id: string) => {
    const n = w.nodes.find((x) => x.id === id) as ToolNode;
    const first = await policy.planToolCalls({
      query: q,
      workflow: w,
      inputs: [],
      context: q,
      scratch: new Map(),
      node: n,
      candidates: TOOLS,
      attempt: 1,
    });
    const calls = await wholePlan(first, n.id);
    return { calls, model: first.model, ...(first.error !== undefined ? { error: first.error } : {}) };
  };

  it('gives generic positions the clauses in order, and a position no clause is handed to nothing to look up', async () => {
    const w = chain(node({ id: 'p1' }), node({ id: 'p2' }), node({ id: 'p3' }), node({ id: 'p4', calls: 'many' }));
    expect((await plan(w, 'p1')).calls.map((c) => c.tool)).toEqual(['search_flights_for_skyscan']);
    expect(bare((await plan(w, 'p2')).calls)).toEqual([
      { tool: 'stock_quote_for_alpha', args: expect.objectContaining({ symbol: 'AAPL' }) },
    ]);
    const idle = await plan(w, 'p3');
    expect(idle.calls).toEqual([]);
    expect(idle.error).toMatch(
      /nothing to look up here: no part of the request is handed to this position \(2 parts, 4 tool positions\)/,
    );
    expect(await plan(w, 'p4')).toEqual({ calls: [], model: 'offline' });
  });

  it("lets the last position with calls: 'many' read every clause still unread, one call per clause", async () => {
    const w = chain(node({ id: 'only', calls: 'many' }));
    expect((await plan(w, 'only')).calls.map((c) => c.tool)).toEqual([
      'search_flights_for_skyscan',
      'stock_quote_for_alpha',
    ]);
    const one = chain(node({ id: 'only' }));
    expect((await plan(one, 'only')).calls.map((c) => c.tool)).toEqual(['search_flights_for_skyscan']);
  });

  it('makes no call of its own for a fragment that asks for nothing ("…, also in metric units.")', async () => {
    const w = chain(node({ id: 'only', calls: 'many' }));
    const fragment =
      'Find flights from JFK to LAX on 2025-03-01, also in economy class. Then get a quote for AAPL, also in USD.';
    const first = await policy.planToolCalls({
      query: fragment,
      workflow: w,
      inputs: [],
      context: fragment,
      scratch: new Map(),
      node: w.nodes.find((x) => x.id === 'only') as ToolNode,
      candidates: TOOLS,
      attempt: 1,
    });
    expect((await wholePlan(first, 'only')).map((c) => c.tool)).toEqual([
      'search_flights_for_skyscan',
      'stock_quote_for_alpha',
    ]);
  });

  it('hands a clause to the position whose tools fit it, so a position that fits neither clause makes no call', async () => {
    // The first position was mined for hotels: the flight clause goes past it to the next position.
    const w = chain(
      node({ id: 'hotels', mined: ['search_hotels_for_priceline'] }),
      node({ id: 'flights', mined: ['search_flights_for_skyscan'] }),
      node({ id: 'quotes', mined: ['stock_quote_for_alpha'] }),
    );
    const hotels = await plan(w, 'hotels');
    expect(hotels.calls).toEqual([]);
    expect(hotels.error).toMatch(/no part of the request is handed to this position/);
    expect((await plan(w, 'flights')).calls.map((c) => c.tool)).toEqual(['search_flights_for_skyscan']);
    expect(bare((await plan(w, 'quotes')).calls)).toEqual([
      { tool: 'stock_quote_for_alpha', args: expect.objectContaining({ symbol: 'AAPL' }) },
    ]);
  });

  it('lets a repeating position with mined tools take the clauses they fit, and a repeating last position the rest', async () => {
    const mid = chain(
      node({ id: 'first', calls: 'many', mined: ['search_flights_for_skyscan', 'stock_quote_for_alpha'] }),
      node({ id: 'hotels', mined: ['search_hotels_for_priceline'] }),
    );
    expect((await plan(mid, 'first')).calls.map((c) => c.tool)).toEqual([
      'search_flights_for_skyscan',
      'stock_quote_for_alpha',
    ]);
    expect((await plan(mid, 'hotels')).calls).toEqual([]);
    // Without tool lists only the last position repeats: the plain order.
    const generic = chain(node({ id: 'first', calls: 'many' }), node({ id: 'second' }));
    expect(new Set((await plan(generic, 'first')).calls.map((c) => c.tool))).toEqual(
      new Set(['search_flights_for_skyscan']),
    );
    expect((await plan(generic, 'second')).calls.map((c) => c.tool)).toEqual(['stock_quote_for_alpha']);
    const w = chain(
      node({ id: 'hotels', mined: ['search_hotels_for_priceline'] }),
      node({ id: 'rest', calls: 'many' }),
    );
    expect((await plan(w, 'hotels')).calls).toEqual([]);
    expect((await plan(w, 'rest')).calls.map((c) => c.tool)).toEqual([
      'search_flights_for_skyscan',
      'stock_quote_for_alpha',
    ]);
  });

  it('lets a part that gives no value for the best-ranked tool call a tool ranked nearly as well that needs none', async () => {
    const news: ToolDescriptor[] = [
      {
        name: 'by_source_for_news',
        description: 'News by source: the latest news of one of the news sources.',
        inputSchema: obj({ source: { type: 'string', default: 'cnn' } }, ['source']),
      },
      {
        name: 'sources_list_for_news',
        description: 'Sources list: all the news sources there are.',
        inputSchema: obj({}, []),
      },
    ];
    const w = chain(node({ id: 'p1' }), node({ id: 'p2' }));
    const query = 'Show me all the news sources, then get the latest news from NPR.';
    const at = (id: string) =>
      createOfflinePolicy({ tools: news }).planToolCalls({
        query,
        workflow: w,
        inputs: [],
        context: query,
        scratch: new Map(),
        node: w.nodes.find((x) => x.id === id) as ToolNode,
        candidates: news,
        attempt: 1,
      });
    expect(bare((await at('p1')).calls)).toEqual([{ tool: 'sources_list_for_news', args: {} }]);
    expect(bare((await at('p2')).calls)).toEqual([{ tool: 'by_source_for_news', args: { source: 'NPR' } }]);
    // A value a binding of the step gives is given: the best-ranked tool keeps the part.
    const bound = await createOfflinePolicy({ tools: news }).planToolCalls({
      query,
      workflow: w,
      inputs: [],
      context: query,
      scratch: new Map(),
      node: w.nodes.find((x) => x.id === 'p1') as ToolNode,
      candidates: news,
      attempt: 1,
      bound: { by_source_for_news: { source: 'bbc' } },
    });
    expect(bare(bound.calls)).toEqual([{ tool: 'by_source_for_news', args: { source: 'bbc' } }]);
  });

  it('declares what it reads of the layout as its memo scope: every tool position, and its own ordinal', () => {
    const w = chain(node({ id: 'p1', calls: 'many' }), node({ id: 'p2', calls: 'many' }));
    const scope = (wf: Workflow, id: string) =>
      policy.memoScope!(
        wf,
        wf.nodes.find((n) => n.id === id)!,
      );
    expect([scope(w, 'plan'), scope(w, 'answer')]).toEqual(['', '']);
    expect(scope(w, 'p1')).toMatch(/^hand-off [0-9a-f]{16}, position 0$/);
    expect(scope(w, 'p2')).toMatch(/^hand-off [0-9a-f]{16}, position 1$/);
    // Another position's tool list changes the hand-off of every position, so it changes the scope.
    const hinted = chain(
      node({ id: 'p1', calls: 'many' }),
      node({ id: 'p2', calls: 'many', tools: ['stock_quote_for_alpha'] }),
    );
    expect(scope(hinted, 'p1')).not.toBe(scope(w, 'p1'));
  });
});

describe('offline policy: LLM nodes by rule', () => {
  const policy = createOfflinePolicy({ tools: TOOLS });
  const llm = (n: Partial<LlmNode>, query: string, inputs: NodeInput[] = []) => {
    const full = {
      id: 'n',
      kind: 'llm',
      role: 'plan',
      prompt: 'p {{query}}',
      output: { type: 'text' },
      ...n,
    } as LlmNode;
    return policy.runLlmNode({
      query,
      workflow: { version: 1, name: 'w', nodes: [full], edges: [] },
      inputs,
      context: query,
      scratch: new Map(),
      node: full,
    });
  };

  it('plans by splitting the request into clauses', async () => {
    expect((await llm({ role: 'plan' }, 'First get the weather in Paris, then find hotels in Lyon.')).output).toBe(
      '1. First get the weather in Paris\n2. find hotels in Lyon',
    );
  });

  it("judges by the guard's concept being in the query, as JSON per the schema", async () => {
    const judge: Partial<LlmNode> = {
      role: 'judge',
      prompt: 'Answer one yes/no question about this request: Does the request ask for a forecast?\n{{query}}',
      output: {
        type: 'json',
        schema: { type: 'object', properties: { needs_forecast: { type: 'boolean' } }, required: ['needs_forecast'] },
      },
    };
    expect((await llm(judge, 'Give me the 5-day forecast for Paris')).output).toEqual({ needs_forecast: true });
    expect((await llm(judge, 'Current weather in Paris')).output).toEqual({ needs_forecast: false });
  });

  it('synthesizes one paragraph per call, keeping numbers and names and marking cuts and failures', async () => {
    const input: NodeInput = {
      nodeId: 'lookup',
      kind: 'tool',
      status: 'ok',
      output: [
        {
          tool: 'current_weather_for_weatherapi',
          args: { q: 'Paris' },
          status: 'ok',
          output:
            "{'location': {'name': 'Paris'}, 'current': {'temp_c': 21.5, 'condition': {'text': 'Sunny'}, 'wind_kph': 11.2",
        },
        { tool: 'stock_quote_for_alpha', args: { symbol: 'AAPL' }, status: 'error', error: 'HTTP 429 from provider' },
      ],
    };
    const text = String((await llm({ role: 'synthesize' }, 'Weather in Paris and AAPL quote?', [input])).output);
    const paragraphs = text.split('\n\n');
    expect(paragraphs).toHaveLength(3);
    expect(paragraphs[1]).toBe(
      'Current weather (weatherapi) (q: Paris): name: Paris; temp_c: 21.5; text: Sunny; wind_kph: 11.2. The response was truncated, so only its first part is shown.',
    );
    expect(paragraphs[2]).toBe(
      'Stock quote (alpha) (symbol: AAPL): the call failed (HTTP 429 from provider), so this part could not be answered.',
    );
  });

  it('verifies by listing failed inputs', async () => {
    const failed: NodeInput = { nodeId: 'lookup', kind: 'tool', status: 'error', output: [] };
    expect(String((await llm({ role: 'verify' }, 'q', [failed])).output)).toMatch(
      /Verdict: problems found: lookup failed/,
    );
  });
});

describe('offline policy in a real run', () => {
  it('answers through executeWorkflow with real function tools', async () => {
    const tools = createToolRegistry([
      {
        ...tool('current_weather_for_weatherapi'),
        execute: async (args) => ({ location: String(args.q), temp_c: 18.5, condition: 'Cloudy' }),
      },
    ]);
    const workflow: Workflow = planToolAnswer({
      name: 'weather',
      tool: { id: 'lookup', task: 'Get the current weather for the city' },
    });
    const trace = await executeWorkflow(
      workflow,
      { query: 'What is the weather in Oslo?' },
      { policy: createOfflinePolicy({ tools: tools.list() }), tools },
    );
    expect(trace.policy).toBe('offline policy (no LLM)');
    expect(trace.calls).toEqual([
      expect.objectContaining({ tool: 'current_weather_for_weatherapi', args: { q: 'Oslo' }, status: 'ok' }),
    ]);
    expect(trace.answer).toContain('location: Oslo; temp_c: 18.5; condition: Cloudy');
  });
});

describe('offline policy: a repeating position plans each part after the calls before it ran', () => {
  it("fills a later call from an earlier call's result of the same position (the hotel the search found)", async () => {
    const tools = createToolRegistry([
      {
        ...tool('search_hotels_for_priceline'),
        execute: async (args) => ({ hotels: [{ hotel_id: 700112, name: String(args.name) }] }),
      },
      {
        ...tool('hotel_details_for_priceline'),
        execute: async (args) => ({ hotel_id: args.hotel_id, stars: 4 }),
      },
    ]);
    const workflow = planToolAnswer({
      name: 'one repeating step',
      tool: { id: 'step', task: 'Call the tools the request asks for', calls: 'many', hints: HINTS },
    });
    const trace = await executeWorkflow(
      workflow,
      { query: 'Look for hotels named "Grand Plaza", then show the details of that hotel with photos.' },
      { policy: createOfflinePolicy({ tools: tools.list() }), tools },
    );
    // Planned at once, the details call would see no result and have no hotel id: no call.
    expect(trace.calls.map((c) => [c.tool, c.args])).toEqual([
      ['search_hotels_for_priceline', { name: 'Grand Plaza' }],
      ['hotel_details_for_priceline', { hotel_id: '700112', photos: true }],
    ]);
  });
});

describe('offline policy: required arguments it cannot find', () => {
  const add: ToolDescriptor = {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: obj({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
  };

  it('makes no call when a required argument has no value of its own ("add the number 2" to add(a, b)), instead of inventing one', async () => {
    const policy = createOfflinePolicy({ tools: [add] });
    const plan = await policy.planToolCalls(req('Add the number 2', node(), [add]));
    expect(plan.calls).toEqual([]);
    expect(plan.error).toBe(
      "no value for `b` of 'add' in the request or the earlier results; the offline policy does not guess required arguments",
    );
    const both = await policy.planToolCalls(req('Add 2 and 3', node(), [add]));
    expect(bare(both.calls)).toEqual([{ tool: 'add', args: { a: 2, b: 3 } }]);
  });

  it("records the refusal as the node's error observation and never calls the tool", async () => {
    let called = 0;
    const tools = createToolRegistry([
      { ...add, execute: async (args) => (called++, Number(args.a) + Number(args.b)) },
    ]);
    const workflow: Workflow = planToolAnswer({ name: 'sum', tool: { id: 'sum', task: 'Add the numbers' } });
    const trace = await executeWorkflow(
      workflow,
      { query: 'Add the number 2' },
      { policy: createOfflinePolicy({ tools: tools.list() }), tools },
    );
    expect(called).toBe(0);
    expect(trace.calls).toEqual([]);
    const sum = trace.observations.find((o) => o.nodeId === 'sum')!;
    expect(sum.status).toBe('error');
    expect(sum.error).toContain('no value for `b`');
    expect(trace.answer).not.toMatch(/\b4\b/);
  });
});
