import { describe, expect, it } from 'vitest';
import type { LlmNode, ToolNode, Workflow } from '../../graph/schema.js';
import { validateWorkflow } from '../../graph/validate.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import type { TaskRecord } from '../../records/schema.js';
import { createOfflinePolicy } from '../../policies/offline/offline-policy.js';
import { exclusiveBranches, toolPositions } from '../../policies/hand-off.js';
import { routeByPastRequests } from '../../policies/offline/llm-rules.js';
import { executeWorkflow } from '../../runtime/execute.js';
import { minedG0 } from '../../search/variants.js';
import { createToolRegistry } from '../../tools/registry.js';
import { recordVariants, routerPrompt } from './routes.js';

const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });
const TOOLS: ToolDescriptor[] = [
  { name: 'search_flights', description: 'Search flights between two airports.', inputSchema: obj({ origin: { type: 'string' }, destination: { type: 'string' } }, ['origin', 'destination']) },
  { name: 'flight_status', description: 'Status of one flight by its flight number.', inputSchema: obj({ flight: { type: 'string' } }, ['flight']) },
  { name: 'search_hotels', description: 'Search hotels in a city.', inputSchema: obj({ city: { type: 'string' } }, ['city']) },
  { name: 'hotel_reviews', description: 'Reviews of hotels in a city.', inputSchema: obj({ city: { type: 'string' } }, ['city']) },
  { name: 'city_weather', description: 'Current weather in a city.', inputSchema: obj({ city: { type: 'string' } }, ['city']) },
];
const byName = new Map(TOOLS.map((t) => [t.name, t]));

const rec = (id: string, query: string, calls: Array<[string, Record<string, unknown>]>): TaskRecord => ({ id, query, reference: '', calls: calls.map(([tool, args]) => ({ tool, args })) });
const RECORDS: TaskRecord[] = [
  rec('f1', 'Find flights from JFK to LAX, then check the status of flight DL12.', [['search_flights', { origin: 'JFK', destination: 'LAX' }], ['flight_status', { flight: 'DL12' }]]),
  rec('f2', 'Find flights from SFO to ORD, then check the status of flight UA7.', [['search_flights', { origin: 'SFO', destination: 'ORD' }], ['flight_status', { flight: 'UA7' }]]),
  rec('h1', 'Search hotels in Lyon, then show hotel reviews in Lyon, and the weather in Lyon.', [['search_hotels', { city: 'Lyon' }], ['hotel_reviews', { city: 'Lyon' }], ['city_weather', { city: 'Lyon' }]]),
  rec('w1', 'What is the weather in Oslo?', [['city_weather', { city: 'Oslo' }]]),
  rec('x1', 'Search hotels in Rome and the weather there.', [['search_hotels', { city: 'Rome' }], ['unknown_tool', {}]]),
];

const tools = (n: Workflow) => n.nodes.filter((x): x is ToolNode => x.kind === 'tool');

describe('routes: the recurring variants of the records as branches of G0 (docs/DESIGN.md, "Mining")', () => {
  it('groups records by their sequence of tools, most runs first, and leaves out variants calling tools outside T', () => {
    const v = recordVariants(RECORDS, byName);
    expect(v.map((x) => [x.tools, x.requests.length])).toEqual([
      [['search_flights', 'flight_status'], 2],
      [['search_hotels', 'hotel_reviews', 'city_weather'], 1],
      [['city_weather'], 1],
    ]);
    expect(recordVariants(RECORDS, byName, { maxRoutes: 1 })).toHaveLength(1);
  });

  it('puts a router in front of the mined skeleton: one guarded branch of bound positions per variant, `other` into the skeleton', () => {
    const g0 = minedG0(RECORDS.slice(0, 4), TOOLS);
    expect(validateWorkflow(g0, TOOLS)).toEqual([]);
    const router = g0.nodes.find((n) => n.id === 'route') as LlmNode;
    expect(router).toMatchObject({ kind: 'llm', role: 'judge' });
    expect(router.output).toMatchObject({ type: 'json', schema: { properties: { route: { enum: ['route_1', 'route_2', 'route_3', 'other'] } } } });
    expect(router.prompt).toContain('- route_1: calls search_flights → flight_status. Past requests:');
    expect(router.prompt).toContain('  • "Find flights from SFO to ORD, then check the status of flight UA7."');
    const route1 = tools(g0).filter((n) => n.id.startsWith('route_1_'));
    expect(route1.map((n) => [n.id, n.tools])).toEqual([
      ['route_1_step_1', ['search_flights']],
      ['route_1_step_2', ['flight_status']],
    ]);
    expect(g0.edges).toContainEqual({ from: 'route', to: 'route_1_step_1', kind: 'data', when: { kind: 'field', field: 'route', op: 'eq', value: 'route_1' } });
    // The skeleton is entered only under `other`, and no unguarded edge from plan reaches it.
    const skeleton = tools(g0).filter((n) => n.id.startsWith('step_'));
    expect(skeleton.length).toBeGreaterThan(0);
    expect(g0.edges.filter((e) => e.from === 'plan').map((e) => e.to)).toEqual(['route']);
    expect(g0.edges.some((e) => e.from === 'route' && e.to === 'step_1' && e.when?.kind === 'field' && e.when.value === 'other')).toBe(true);
    expect(g0.meta?.routes).toEqual([
      { tools: ['search_flights', 'flight_status'], runs: 2 },
      { tools: ['search_hotels', 'hotel_reviews', 'city_weather'], runs: 1 },
      { tools: ['city_weather'], runs: 1 },
    ]);
    expect(minedG0(RECORDS.slice(0, 4), TOOLS, { routes: false }).nodes.some((n) => n.id === 'route')).toBe(false);
  });

  it('keeps positions of different routes apart: a route position competes for parts only with its own route', () => {
    const g0 = minedG0(RECORDS.slice(0, 4), TOOLS);
    expect(toolPositions(g0, 'route_2_step_1').map((p) => p.id)).toEqual(['route_2_step_1', 'route_2_step_2', 'route_2_step_3']);
    expect(toolPositions(g0, 'step_1').every((p) => p.id.startsWith('step_'))).toBe(true);
    expect(exclusiveBranches(g0).get('route_1_step_2')).toEqual(new Map([['route.route', '"route_1"']]));
    // Without the node, every position (the layout the memo scope hashes).
    expect(toolPositions(g0).length).toBe(tools(g0).length);
  });

  it('routes offline by the past requests most like the request, and to `other` when none is like it', () => {
    const g0 = minedG0(RECORDS.slice(0, 4), TOOLS);
    const prompt = (g0.nodes.find((n) => n.id === 'route') as LlmNode).prompt;
    const values = ['route_1', 'route_2', 'route_3', 'other'];
    expect(routeByPastRequests(prompt, 'Find flights from BOS to SEA, then check the status of flight AA100.', values)).toBe('route_1');
    expect(routeByPastRequests(prompt, 'Which museums open on Mondays in Vienna and how much do tickets cost?', values)).toBe('other');
    expect(routeByPastRequests('Pick one: {{query}}', 'anything', values)).toBeUndefined();
  });

  it('between routes whose past requests are about as like the request, takes the one with as many steps as the request has parts', () => {
    const trip = 'For our long awaited family holiday trip to the south of France this summer';
    const prompt = routerPrompt(
      [
        { tools: ['search_hotels', 'hotel_reviews'], requests: [`${trip}, search hotels in Nice for the weekend, then show hotel reviews in Nice for kids.`] },
        { tools: ['search_hotels', 'hotel_reviews', 'city_weather'], requests: [`${trip}, search hotels in Nice for the weekend, then show hotel reviews in Nice for families, then the weather.`] },
      ],
      4,
    );
    const values = ['route_1', 'route_2', 'other'];
    // Each request's words are a little more like the other route's request; its parts (2, then 3) decide.
    expect(routeByPastRequests(prompt, `${trip}, search hotels in Nice for the weekend, then show hotel reviews in Nice for families.`, values)).toBe('route_1');
    expect(routeByPastRequests(prompt, `${trip}, search hotels in Lyon for the weekend, then show hotel reviews in Lyon for kids, then the weather.`, values)).toBe('route_2');
  });

  it('runs a request like a variant as that variant: its tools in its order, with the values of the request', async () => {
    const called: string[] = [];
    const registry = createToolRegistry(TOOLS.map((t) => ({ ...t, execute: async (args: Record<string, unknown>) => (called.push(t.name), { ok: true, ...args }) })));
    const opt = RECORDS.slice(0, 4);
    const g0 = minedG0(opt, TOOLS);
    const policy = createOfflinePolicy({ tools: TOOLS, records: opt });
    const trace = await executeWorkflow(g0, { query: 'Find flights from BOS to SEA, then check the status of flight AA100.' }, { policy, tools: registry });
    expect(trace.observations.find((o) => o.nodeId === 'route')?.output).toEqual({ route: 'route_1' });
    expect(trace.calls.map((c) => [c.tool, c.args])).toEqual([
      ['search_flights', { origin: 'BOS', destination: 'SEA' }],
      ['flight_status', { flight: 'AA100' }],
    ]);
    expect(called).toEqual(['search_flights', 'flight_status']);
    // A request like no variant goes through the mined skeleton.
    const other = await executeWorkflow(g0, { query: 'Tell me the weather in Paris today please.' }, { policy, tools: registry });
    expect(other.observations.find((o) => o.nodeId === 'route')?.output).toEqual({ route: 'other' });
    expect(other.observations.filter((o) => o.status !== 'skipped' && o.nodeId.startsWith('route_'))).toEqual([]);
    expect(other.calls.map((c) => c.tool)).toEqual(['city_weather']);
  });
});
