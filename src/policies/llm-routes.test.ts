import { afterEach, describe, expect, it } from 'vitest';
import { recordingTools } from '../../test/support/recording-tools.js';
import {
  startTestLlmServer,
  type RecordedRequest,
  type ScriptedReply,
  type TestLlmServer,
} from '../../test/support/llm-server.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { createLlmClient } from '../llm/client.js';
import { resolveModel } from '../llm/resolve-model.js';
import type { TaskRecord } from '../records/schema.js';
import { executeWorkflow } from '../runtime/execute.js';
import { minedG0 } from '../search/variants.js';
import { createLlmPolicy } from './llm-policy.js';

// G0's router over the records' variants (docs/DESIGN.md, "Mining": routes) under the LLM policy, against the test server.

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
    name: 'city_weather',
    description: 'Current weather in a city.',
    inputSchema: obj({ city: { type: 'string' } }, ['city']),
  },
];
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
  rec('h1', 'Search hotels in Lyon, then the weather in Lyon.', [
    ['search_hotels', { city: 'Lyon' }],
    ['city_weather', { city: 'Lyon' }],
  ]),
  rec('h2', 'Search hotels in Nice, then the weather in Nice.', [
    ['search_hotels', { city: 'Nice' }],
    ['city_weather', { city: 'Nice' }],
  ]),
  rec('h3', 'Search hotels in Graz, then the weather in Graz.', [
    ['search_hotels', { city: 'Graz' }],
    ['city_weather', { city: 'Graz' }],
  ]),
];

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const userText = (req: RecordedRequest): string =>
  (req.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').at(-1)!.content;

describe('routes under the LLM policy', () => {
  it('asks the model for the route with every route described by its tools, a description and keywords (no past request), then runs only that route, each step with its part of the request', async () => {
    const reply = (req: RecordedRequest): ScriptedReply => {
      const text = userText(req);
      if (text.startsWith('Choose the route for this request')) return { json: { route: 'route_1' } };
      const tools = req.body.response_format?.json_schema?.schema?.properties?.calls?.items?.properties?.tool?.enum as
        string[] | undefined;
      if (tools?.[0] === 'search_flights')
        return { json: { calls: [{ tool: 'search_flights', args: { origin: 'BOS', destination: 'SEA' } }] } };
      if (tools?.[0] === 'flight_status')
        return { json: { calls: [{ tool: 'flight_status', args: { flight: 'AA100' } }] } };
      return { text: 'Flights BOS to SEA were found and AA100 is on time.' };
    };
    server = await startTestLlmServer({ script: reply });
    const client = createLlmClient({
      model: await resolveModel(server.spec(), { env: {} }),
      sleep: async () => {},
      timeoutMs: 5000,
    });
    const policy = createLlmPolicy({ client, tools: TOOLS });
    const { registry, called } = recordingTools(TOOLS);
    const g0 = minedG0(RECORDS, TOOLS);
    const query = 'Find flights from BOS to SEA, then check the status of flight AA100.';
    const trace = await executeWorkflow(g0, { query }, { policy, tools: registry });

    expect(trace.status).toBe('ok');
    const routerPrompt = server.requests.map(userText).find((t) => t.startsWith('Choose the route'))!;
    expect(routerPrompt).toContain(`Request: ${query}`);
    expect(routerPrompt).toMatch(
      /^- route_1: calls search_flights → flight_status\. About: Search flights between two airports; Status of one flight by its flight number\. Keywords: .*flights.*\.$/m,
    );
    expect(routerPrompt).toMatch(
      /^- route_2: calls search_hotels → city_weather\. About: .*\. Keywords: .*hotels.*\.$/m,
    );
    for (const r of RECORDS) expect(routerPrompt).not.toContain(r.query);
    expect(trace.observations.find((o) => o.nodeId === 'route')?.output).toEqual({ route: 'route_1' });
    expect(trace.calls.map((c) => [c.tool, c.args])).toEqual([
      ['search_flights', { origin: 'BOS', destination: 'SEA' }],
      ['flight_status', { flight: 'AA100' }],
    ]);
    expect(called).toEqual(['search_flights', 'flight_status']);
    // Only route_1's positions share the request's parts: the second step gets the second part.
    const statusPrompt = server.requests
      .filter(
        (r) =>
          r.body.response_format?.json_schema?.schema?.properties?.calls?.items?.properties?.tool?.enum?.[0] ===
          'flight_status',
      )
      .map(userText)[0]!;
    expect(statusPrompt).toContain(
      'Your part of the request (the other parts go to other steps):\n1. check the status of flight AA100',
    );
    // No step of another route or of the skeleton asked the model anything.
    expect(trace.observations.filter((o) => o.kind === 'tool' && o.status !== 'skipped').map((o) => o.nodeId)).toEqual([
      'route_1_step_1',
      'route_1_step_2',
    ]);
  });
});
