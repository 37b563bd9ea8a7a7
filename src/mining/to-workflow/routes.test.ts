import { describe, expect, it } from 'vitest';
import { recordingTools } from '../../../test/support/recording-tools.js';
import type { LlmNode, ToolNode, Workflow } from '../../graph/schema.js';
import { validateWorkflow } from '../../graph/validate.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { TaskRecord } from '../../records/schema.js';
import { createOfflinePolicy } from '../../policies/offline/offline-policy.js';
import { exclusiveBranches, toolPositions } from '../../retrieval/hand-off.js';
import { routeBySequence } from '../../policies/offline/llm-rules.js';
import { nodePromptText } from '../../graph/node-prompt.js';
import type { Choices } from '../../graph/schema.js';
import { processTreeToWorkflow } from '../to-workflow.js';
import { discoverProcessTree } from '../inductive/discover.js';
import { eventLogFromRecords } from '../event-log/from-records.js';
import { executeWorkflow } from '../../runtime/execute.js';
import { minedG0 } from '../../search/variants.js';
import { recordVariants, routeFamilies, ROUTER_PROMPT } from './routes.js';
import { routeFallbacks } from '../../evaluate/feedback-routes.js';
import type { Feedback } from '../../evaluate/feedback-types.js';
import type { RecordEvaluation } from '../../evaluate/types.js';
import { applyEditPlan } from '../../graph/edits/apply-edit-plan.js';
import { ruleEdits } from '../../search/optimizers/rule-edits.js';

const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });
const TOOLS: ToolDescriptor[] = [
  {
    name: 'search_flights',
    description: 'Search flights between two airports.',
    inputSchema: obj({ origin: { type: 'string' }, destination: { type: 'string' } }, ['origin', 'destination']),
  },
  {
    name: 'flight_status',
    description: 'Status of one flight by its flight number.',
    inputSchema: obj({ flight: { type: 'string' } }, ['flight']),
  },
  {
    name: 'search_hotels',
    description: 'Search hotels in a city.',
    inputSchema: obj({ city: { type: 'string' } }, ['city']),
  },
  {
    name: 'hotel_reviews',
    description: 'Reviews of hotels in a city.',
    inputSchema: obj({ city: { type: 'string' } }, ['city']),
  },
  {
    name: 'city_weather',
    description: 'Current weather in a city.',
    inputSchema: obj({ city: { type: 'string' } }, ['city']),
  },
];
const byName = new Map(TOOLS.map((t) => [t.name, t]));

const rec = (id: string, query: string, calls: Array<[string, Record<string, unknown>]>): TaskRecord => ({
  id,
  query,
  reference: '',
  calls: calls.map(([tool, args]) => ({ tool, args })),
});
const RECORDS: TaskRecord[] = [
  rec('f1', 'Find flights from JFK to LAX, then check the status of flight DL12.', [
    ['search_flights', { origin: 'JFK', destination: 'LAX' }],
    ['flight_status', { flight: 'DL12' }],
  ]),
  rec('f2', 'Find flights from SFO to ORD, then check the status of flight UA7.', [
    ['search_flights', { origin: 'SFO', destination: 'ORD' }],
    ['flight_status', { flight: 'UA7' }],
  ]),
  rec('f3', 'Find flights from MIA to DEN, then check the status of flight B612.', [
    ['search_flights', { origin: 'MIA', destination: 'DEN' }],
    ['flight_status', { flight: 'B612' }],
  ]),
  rec('f4', 'Find flights from BOS to SEA.', [['search_flights', { origin: 'BOS', destination: 'SEA' }]]),
  rec('h1', 'Search hotels in Lyon, then show hotel reviews in Lyon, and the weather in Lyon.', [
    ['search_hotels', { city: 'Lyon' }],
    ['hotel_reviews', { city: 'Lyon' }],
    ['city_weather', { city: 'Lyon' }],
  ]),
  rec('h2', 'Search hotels in Nice, then show hotel reviews in Nice.', [
    ['search_hotels', { city: 'Nice' }],
    ['hotel_reviews', { city: 'Nice' }],
  ]),
  rec('h3', 'Search hotels in Graz, then show hotel reviews in Graz.', [
    ['search_hotels', { city: 'Graz' }],
    ['hotel_reviews', { city: 'Graz' }],
  ]),
  rec('w1', 'What is the weather in Oslo?', [['city_weather', { city: 'Oslo' }]]),
  rec('x1', 'Search hotels in Rome and the weather there.', [
    ['search_hotels', { city: 'Rome' }],
    ['unknown_tool', {}],
  ]),
];

const tools = (n: Workflow) => n.nodes.filter((x): x is ToolNode => x.kind === 'tool');

describe('routes: the recurring request types of the records as branches of G0 (docs/DESIGN.md, "Mining")', () => {
  it('groups records by their sequence of tools, most runs first, and leaves out variants calling tools outside T', () => {
    const v = recordVariants(RECORDS, byName);
    expect(v.map((x) => [x.tools, x.requests.length])).toEqual([
      [['search_flights', 'flight_status'], 3],
      [['search_hotels', 'hotel_reviews'], 2],
      [['search_flights'], 1],
      [['search_hotels', 'hotel_reviews', 'city_weather'], 1],
      [['city_weather'], 1],
    ]);
  });

  it('merges variants that are prefixes of one another into a family, and keeps only families with several runs', () => {
    const families = routeFamilies(recordVariants(RECORDS, byName), { minRuns: 3 });
    expect(families.map((f) => [f.tools, f.requests.length, f.variants])).toEqual([
      [['search_flights', 'flight_status'], 4, 2],
      [['search_hotels', 'hotel_reviews'], 3, 2],
    ]);
    // The sub-skeleton: steps of the median run; a step some runs skip may make no call.
    expect(families[0]!.steps).toEqual([
      { tools: ['search_flights'], optional: false },
      { tools: ['flight_status'], optional: true },
    ]);
    expect(families[1]!.steps).toEqual([
      { tools: ['search_hotels'], optional: false },
      { tools: ['hotel_reviews', 'city_weather'], optional: true },
    ]);
    expect(routeFamilies(recordVariants(RECORDS, byName), { minRuns: 3, maxRoutes: 1 })).toHaveLength(1);
  });

  it('describes a route by its tools, a description and recurring keywords, never by a past request', () => {
    const g0 = minedG0(RECORDS.slice(0, 8), TOOLS);
    expect(validateWorkflow(g0, TOOLS)).toEqual([]);
    const router = g0.nodes.find((n) => n.id === 'route') as LlmNode;
    expect(router).toMatchObject({ kind: 'llm', role: 'judge' });
    expect(router.output).toMatchObject({
      type: 'json',
      schema: { properties: { route: { enum: ['route_1', 'route_2', 'other'] } } },
    });
    const choices = router.choices!;
    expect(choices.field).toBe('route');
    expect(choices.otherwise).toBe('other');
    expect(choices.options.map((r) => [r.value, r.tools])).toEqual([
      ['route_1', ['search_flights', 'flight_status']],
      ['route_2', ['search_hotels', 'hotel_reviews']],
    ]);
    expect(choices.options[0]!.asks).toEqual(expect.arrayContaining(['flights', 'status', 'flight']));
    expect(choices.options[0]!.about).toContain('Search flights between two airports');
    // A model reads them in the router's prompt, one line per route.
    expect(nodePromptText(router)).toContain(
      `- route_1: calls search_flights → flight_status. About: ${choices.options[0]!.about}. Keywords: ${choices.options[0]!.asks!.join(', ')}.`,
    );
    // No request, and no value of one (airports, flight numbers, cities), is in the workflow.
    const text = JSON.stringify(g0);
    for (const r of RECORDS) {
      expect(text).not.toContain(r.query);
      for (const c of r.calls) for (const v of Object.values(c.args)) expect(text).not.toContain(`${v}`);
    }
    const route1 = tools(g0).filter((n) => n.id.startsWith('route_1_'));
    expect(route1.map((n) => [n.id, n.tools, n.calls])).toEqual([
      ['route_1_step_1', ['search_flights'], undefined],
      ['route_1_step_2', ['flight_status'], 'many'],
    ]);
    expect(g0.edges).toContainEqual({
      from: 'route',
      to: 'route_1_step_1',
      kind: 'data',
      when: { kind: 'field', field: 'route', op: 'eq', value: 'route_1' },
    });
    // The skeleton is entered only under `other`, and no unguarded edge from plan reaches it.
    expect(g0.edges.filter((e) => e.from === 'plan').map((e) => e.to)).toEqual(['route']);
    const skeleton = g0.edges
      .filter((e) => e.from === 'route' && e.when?.kind === 'field' && e.when.value === 'other')
      .map((e) => e.to);
    expect(skeleton.length).toBeGreaterThan(0);
    expect(skeleton.some((id) => id.startsWith('route_'))).toBe(false);
    expect(g0.meta?.routes).toEqual([
      { tools: ['search_flights', 'flight_status'], runs: 4, variants: 2 },
      { tools: ['search_hotels', 'hotel_reviews'], runs: 3, variants: 2 },
    ]);
    expect(minedG0(RECORDS.slice(0, 8), TOOLS, { routes: false }).nodes.some((n) => n.id === 'route')).toBe(false);
  });

  it('keeps steps of different routes apart: a route step competes for parts only with its own route', () => {
    const g0 = minedG0(RECORDS.slice(0, 8), TOOLS);
    expect(toolPositions(g0, 'route_2_step_1').map((p) => p.id)).toEqual(['route_2_step_1', 'route_2_step_2']);
    expect(toolPositions(g0, 'step_1').every((p) => p.id.startsWith('step_'))).toBe(true);
    expect(exclusiveBranches(g0).get('route_1_step_2')).toEqual(new Map([['route.route', '"route_1"']]));
    expect(toolPositions(g0).length).toBe(tools(g0).length);
  });

  it("routes offline by the tools a request's parts ask for in order, when it uses none of a route's keywords", async () => {
    // Keywords the requests below never use: before, the offline router sent both to `other`.
    const router: LlmNode = {
      id: 'route',
      kind: 'llm',
      role: 'judge',
      prompt: ROUTER_PROMPT,
      choices: {
        field: 'route',
        options: [
          { value: 'route_1', tools: ['search_flights', 'flight_status'], about: 'Trips', asks: ['trip', 'journey'] },
          { value: 'route_2', tools: ['search_hotels', 'hotel_reviews'], about: 'Stays', asks: ['stay', 'lodging'] },
        ],
        otherwise: 'other',
      },
      output: {
        type: 'json',
        schema: {
          type: 'object',
          properties: { route: { type: 'string', enum: ['route_1', 'route_2', 'other'] } },
          required: ['route'],
        },
      },
    };
    const policy = createOfflinePolicy({ tools: TOOLS });
    const route = async (query: string) =>
      (
        await policy.runLlmNode({
          query,
          workflow: { version: 1, name: 'w', nodes: [router], edges: [] },
          inputs: [],
          context: query,
          scratch: new Map(),
          node: router,
        })
      ).output;
    expect(await route('Search hotels in Bern, then show the hotel reviews for Bern.')).toEqual({ route: 'route_2' });
    expect(await route('Find flights from BOS to SEA, then the status of flight AA100.')).toEqual({ route: 'route_1' });
    // Parts that only one of a route's tools answers (or none): the skeleton handles them.
    expect(await route('Search hotels in Bern, then the weather in Bern, then flights from BOS to SEA.')).toEqual({
      route: 'other',
    });
    // Every keyword of route_1, no part asking for its tools: before, the keywords took route_1.
    expect(await route('For my trip and journey: the weather in Bern, then the weather in Oslo.')).toEqual({
      route: 'other',
    });
  });

  it('routes offline by the choices field, never by the prompt text: the same with another wording, another with other choices', async () => {
    const g0 = minedG0(RECORDS.slice(0, 8), TOOLS);
    const router = g0.nodes.find((n) => n.id === 'route') as LlmNode;
    const policy = createOfflinePolicy({ tools: TOOLS });
    const route = async (node: LlmNode, query: string) =>
      (
        await policy.runLlmNode({
          query,
          workflow: { ...g0, nodes: g0.nodes.map((n) => (n.id === 'route' ? node : n)) },
          inputs: [],
          context: query,
          scratch: new Map(),
          node,
        })
      ).output;
    const queries = [
      'Find flights from BOS to SEA, then check the status of flight AA100.',
      'Search hotels in Bern, then show the hotel reviews for Bern.',
      'Tell me the weather in Paris today please.',
    ];
    const decide = async (node: LlmNode) => Promise.all(queries.map((q) => route(node, q)));
    const asMined = await decide(router);
    expect(asMined).toEqual([{ route: 'route_1' }, { route: 'route_2' }, { route: 'other' }]);
    // Another wording, even one that lists the routes the other way round: the same decisions.
    const swapped = nodePromptText({
      ...router,
      choices: { ...router.choices!, options: [...router.choices!.options].reverse() },
    });
    expect(await decide({ ...router, prompt: `Pick a route.\n\nRequest: {{query}}\n\n${swapped}` })).toEqual(asMined);
    // Other choices: other decisions (route_1 now names the hotel tools, route_2 the weather).
    const [flights, hotels] = router.choices!.options;
    const moved: LlmNode = {
      ...router,
      choices: {
        ...router.choices!,
        options: [
          { ...flights!, tools: hotels!.tools },
          { ...hotels!, tools: ['city_weather'] },
        ],
      },
    };
    expect(await decide(moved)).toEqual([{ route: 'other' }, { route: 'route_1' }, { route: 'route_2' }]);
    // A router written before routers had choices (its routes only as lines of its prompt) still
    // runs: its prompt is what a model reads, and the offline policy fills the field by its schema.
    const { choices: _choices, ...old } = router;
    const written: LlmNode = { ...old, prompt: nodePromptText(router) };
    expect(validateWorkflow({ ...g0, nodes: g0.nodes.map((n) => (n.id === 'route' ? written : n)) }, TOOLS)).toEqual(
      [],
    );
    expect(await decide(written)).toEqual([{ route: 'route_1' }, { route: 'route_1' }, { route: 'route_1' }]);
  });

  it("takes a route offline only when the request's parts ask for its tools, whatever keywords it uses", () => {
    const choices: Choices = {
      field: 'route',
      options: [
        {
          value: 'route_1',
          tools: ['search_flights', 'flight_status'],
          about: 'Search flights between two airports',
          asks: ['flights', 'status'],
        },
        {
          value: 'route_2',
          tools: ['search_hotels', 'hotel_reviews'],
          about: 'Search hotels in a city',
          asks: ['hotels', 'reviews'],
        },
      ],
      otherwise: 'other',
    };
    // A part's fit to a tool: 1 for the tool named in it, else 0.
    const fit = (part: string, tool: string) => (part.toLowerCase().includes(tool.split('_')[1]!) ? 1 : 0);
    expect(routeBySequence(choices, 'Search flights from BOS to SEA, then the flight status of AA100.', fit)).toBe(
      'route_1',
    );
    // Both of route_1's keywords, but parts that ask for route_2's tools.
    expect(routeBySequence(choices, 'Skip flights and status: search hotels in Bern, then the reviews.', fit)).toBe(
      'route_2',
    );
    // One of a route's two steps asked for, then a part it has no step for: the skeleton handles it.
    expect(routeBySequence(choices, 'Search hotels in Bern, then museums in Bern.', fit)).toBe('other');
    expect(routeBySequence({ ...choices, options: [] }, 'anything', fit)).toBeUndefined();
    // Without `otherwise`, the best option however weak.
    const { otherwise: _other, ...noOther } = choices;
    expect(routeBySequence(noOther, 'Search hotels in Bern, then museums in Bern.', fit)).toBe('route_2');
  });

  it('keeps G0 within its node budget, leaving out the routes with the fewest runs', () => {
    const g0 = minedG0(RECORDS.slice(0, 8), TOOLS);
    const small = processTreeToWorkflow(discoverProcessTree(eventLogFromRecords(RECORDS.slice(0, 8))), {
      tools: TOOLS,
      name: 'small',
      routes: recordVariants(RECORDS.slice(0, 8), byName),
      routeOptions: { minRuns: 3 },
      maxNodes: g0.nodes.length - 1,
    });
    expect(small.nodes.length).toBeLessThanOrEqual(g0.nodes.length - 1);
    expect((small.meta?.routes as unknown[]).length).toBe(1);
  });

  it('runs a routed request through its route: its tools in order, with the values of the request', async () => {
    const { registry, called } = recordingTools(TOOLS);
    const opt = RECORDS.slice(0, 8);
    const g0 = minedG0(opt, TOOLS);
    const policy = createOfflinePolicy({ tools: TOOLS });
    const trace = await executeWorkflow(
      g0,
      { query: 'Find flights from BOS to SEA, then check the status of flight AA100.' },
      { policy, tools: registry },
    );
    expect(trace.observations.find((o) => o.nodeId === 'route')?.output).toEqual({ route: 'route_1' });
    expect(trace.calls.map((c) => [c.tool, c.args])).toEqual([
      ['search_flights', { origin: 'BOS', destination: 'SEA' }],
      ['flight_status', { flight: 'AA100' }],
    ]);
    expect(called).toEqual(['search_flights', 'flight_status']);
    // A request that uses no route's keywords goes through the mined skeleton.
    const other = await executeWorkflow(
      g0,
      { query: 'Tell me the weather in Paris today please.' },
      { policy, tools: registry },
    );
    expect(other.observations.find((o) => o.nodeId === 'route')?.output).toEqual({ route: 'other' });
    expect(other.observations.filter((o) => o.status !== 'skipped' && o.nodeId.startsWith('route_'))).toEqual([]);
    expect(other.calls.map((c) => c.tool)).toEqual(['city_weather']);
  });

  it('learns a fallback route from feedback: requests sent to the skeleton whose references one route covers go there', async () => {
    const opt = RECORDS.slice(0, 8);
    const g0 = minedG0(opt, TOOLS);
    const policy = createOfflinePolicy({ tools: TOOLS });
    const { registry } = recordingTools(TOOLS);
    // Requests that state a goal: no route's tools answer their parts, so the router sends them to `other`.
    const goals = [
      ['g1', 'My cousin lands at LAX from JFK tonight on DL12 and I worry it is late.'],
      ['g2', 'Our team travels SFO to ORD; is UA7 on time?'],
      ['g3', 'Trip planning: BOS to SEA with AA100, keep me posted.'],
    ] as const;
    const records = goals.map(([id, query]) =>
      rec(id, query, [
        ['search_flights', { origin: 'X', destination: 'Y' }],
        ['flight_status', { flight: 'Z' }],
      ]),
    );
    const perRecord = [] as RecordEvaluation[];
    for (const r of records) {
      const trace = await executeWorkflow(g0, { query: r.query }, { policy, tools: registry });
      expect(trace.observations.find((o) => o.nodeId === 'route')?.output).toEqual({ route: 'other' });
      perRecord.push({ id: r.id, tc: 0, es: 0, trace } as unknown as RecordEvaluation);
    }
    const [pattern] = routeFallbacks(g0, records, perRecord);
    expect(pattern).toMatchObject({ kind: 'route-fallback', judge: 'route', option: 'route_1', evidence: 3 });
    // The rule optimizer turns it into an edit; applied, the router takes route_1 when nothing fits,
    // and a model reads the same as one line of the router's prompt.
    const feedback = { patterns: [pattern!], nodes: [] } as unknown as Feedback;
    const fallback = ruleEdits({ workflow: g0, feedback, tools: byName, allowToolNodes: true }).find((e) =>
      e.plan.edits.some((x) => x.op === 'refine_branch'),
    );
    expect(fallback?.plan.edits).toEqual([{ op: 'refine_branch', judge: 'route', fallback: 'route_1' }]);
    const applied = applyEditPlan(g0, fallback!.plan, { tools: TOOLS });
    expect(applied.ok).toBe(true);
    const learned = applied.ok ? applied.workflow : g0;
    const router = learned.nodes.find((n) => n.id === 'route') as LlmNode;
    expect(router.choices?.fallback).toBe('route_1');
    expect(nodePromptText(router)).toContain('When no option clearly fits, answer route_1');
    const trace = await executeWorkflow(learned, { query: goals[0][1] }, { policy, tools: registry });
    expect(trace.observations.find((o) => o.nodeId === 'route')?.output).toEqual({ route: 'route_1' });
    // A fallback must be one of the router's options.
    expect(applyEditPlan(g0, { edits: [{ op: 'refine_branch', judge: 'route', fallback: 'route_9' }] }).ok).toBe(false);
    const wrong = structuredClone(learned);
    (wrong.nodes.find((n) => n.id === 'route') as LlmNode).choices!.fallback = 'route_9';
    expect(validateWorkflow(wrong, TOOLS).map((p) => p.path)).toContain('$.nodes[1].choices.fallback');
  });
});
