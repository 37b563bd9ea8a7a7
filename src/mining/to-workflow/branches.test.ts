import { afterEach, describe, expect, it } from 'vitest';
import { recordingTools } from '../../../test/support/recording-tools.js';
import { startTestLlmServer, type RecordedRequest, type TestLlmServer } from '../../../test/support/llm-server.js';
import { createLlmClient } from '../../llm/client.js';
import { resolveModel } from '../../llm/resolve-model.js';
import { createLlmPolicy } from '../../policies/llm-policy.js';
import type { Choices, LlmNode, ToolNode, Workflow } from '../../graph/schema.js';
import { validateWorkflow } from '../../graph/validate.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { createOfflinePolicy } from '../../policies/offline/offline-policy.js';
import { routeBySequence } from '../../policies/offline/llm-rules.js';
import { executeWorkflow } from '../../runtime/execute.js';
import { createToolRegistry } from '../../tools/registry.js';
import { workflowProcessTree } from '../../conformance/workflow-tree.js';
import { eventLogFromTraces } from '../event-log/event-log.js';
import { formatProcessTree } from '../process-tree/format.js';
import { parseProcessTree } from '../process-tree/parse.js';
import { processTreeToWorkflow } from '../to-workflow.js';

/** A tool whose parameters are all required strings. */
const tool = (name: string, description: string, ...params: string[]): ToolDescriptor => ({
  name,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])),
    required: params,
  },
});
const TOOLS: ToolDescriptor[] = [
  tool('search_flights', 'Search flights between two airports.', 'origin', 'destination'),
  tool('flight_status', 'Status of one departure by its number.', 'flight'),
  tool('airport_delays', 'Delays at an airport.', 'airport'),
  tool('search_hotels', 'Search hotels in a city.', 'city'),
  tool('hotel_reviews', 'Reviews of hotels in a city.', 'city'),
];
const TREE =
  "->( 'search_flights', X( ->( 'flight_status', 'airport_delays' ), ->( 'search_hotels', 'hotel_reviews' ), tau ) )";
// Runs that follow the tree: 3 took the flight option, 2 the hotel option, 1 neither.
const LOG = eventLogFromTraces([
  ...new Array<string[]>(3).fill(['search_flights', 'flight_status', 'airport_delays']),
  ...new Array<string[]>(2).fill(['search_flights', 'search_hotels', 'hotel_reviews']),
  ['search_flights'],
]);
const mine = (extra: Partial<Parameters<typeof processTreeToWorkflow>[1]> = {}) =>
  processTreeToWorkflow(parseProcessTree(TREE), { tools: TOOLS, name: 'trip', log: LOG, positions: 3, ...extra });
const branchNode = (w: Workflow) => w.nodes.find((n): n is LlmNode => n.kind === 'llm' && n.choices !== undefined);
const toolOf = (w: Workflow, id: string) => (w.nodes.find((n) => n.id === id) as ToolNode).mined;

describe('a choice between step sequences as a branch with a structured condition (docs/DESIGN.md, "Mining")', () => {
  it('lists only the tools the definitions hold when the runs also called an API the definitions lack', () => {
    // A noisy log (kept with failed calls): the hotel option's runs also called an undefined API.
    const tree =
      "->( 'search_flights', X( ->( 'flight_status', 'airport_delays' ), ->( 'search_hotels', 'undefined_api' ), tau ) )";
    const log = eventLogFromTraces([
      ...new Array<string[]>(3).fill(['search_flights', 'flight_status', 'airport_delays']),
      ...new Array<string[]>(2).fill(['search_flights', 'search_hotels', 'undefined_api']),
      ['search_flights'],
    ]);
    const w = processTreeToWorkflow(parseProcessTree(tree), {
      tools: TOOLS,
      name: 'trip',
      log,
      positions: 3,
      branches: true,
    });
    expect(validateWorkflow(w, TOOLS)).toEqual([]);
    expect(branchNode(w)!.choices!.options.flatMap((o) => o.tools)).not.toContain('undefined_api');
  });

  it('becomes a judge whose choices list each option\'s tools, "none" for τ, and guarded edges into each option', () => {
    const w = mine({ branches: true });
    expect(validateWorkflow(w, TOOLS)).toEqual([]);
    const judge = branchNode(w)!;
    expect(judge).toMatchObject({ id: 'branch_1', role: 'judge' });
    expect(judge.choices).toMatchObject({
      field: 'branch',
      part: true,
      otherwise: 'none',
      options: [
        { value: 'option_1', tools: ['flight_status', 'airport_delays'] },
        { value: 'option_2', tools: ['search_hotels', 'hotel_reviews'] },
      ],
    });
    // The option most runs took is listed first; each option's description comes from its tools.
    expect(judge.choices!.options[0]!.about).toBe('Status of one departure by its number; Delays at an airport');
    const guarded = w.edges
      .filter((e) => e.from === 'branch_1' && e.when)
      .map((e) => [toolOf(w, e.to)?.[0] ?? e.to, e.when!.kind === 'field' ? e.when!.value : undefined]);
    expect(guarded).toEqual([
      ['flight_status', 'option_1'],
      ['search_hotels', 'option_2'],
      ['synthesize', 'none'],
    ]);
    // An option's steps are entered only through the branch (no edge from the plan would run them anyway).
    for (const id of ['step_2', 'step_4'])
      expect(w.edges.filter((e) => e.to === id).map((e) => e.from)).toEqual(['branch_1']);
    // The judge's answer is one of its choices: a model's structured output cannot name another.
    expect(judge.output).toMatchObject({
      type: 'json',
      schema: { properties: { branch: { enum: ['option_1', 'option_2', 'none'] } } },
    });
  });

  it('keeps the tree: the branched workflow allows the runs the tree allows, the merged one also mixes the options', () => {
    // Conformance reads a workflow back as a process tree (docs/guides/conformance.md).
    expect(formatProcessTree(workflowProcessTree(mine()))).toBe(TREE);
    expect(formatProcessTree(workflowProcessTree(mine({ branches: false })))).toBe(
      "->( 'search_flights', X( 'flight_status', 'search_hotels' ), X( 'airport_delays', 'hotel_reviews' ) )",
    );
  });

  it('is the default; merged on request (and when the shape must be smaller) into steps that pick their tool', () => {
    expect(branchNode(mine())).toBeDefined();
    for (const w of [mine({ branches: false }), mine({ positions: 1 })]) {
      expect(branchNode(w)).toBeUndefined();
      expect(w.edges.some((e) => e.when)).toBe(false);
      expect(validateWorkflow(w, TOOLS)).toEqual([]);
    }
    expect(
      mine({ branches: false })
        .nodes.filter((n) => n.kind === 'tool')
        .map((n) => (n as ToolNode).mined),
    ).toEqual([['search_flights'], ['flight_status', 'search_hotels'], ['airport_delays', 'hotel_reviews']]);
  });

  it('runs only the option the request asks for, offline, and no option when it asks for none', async () => {
    const { registry, called } = recordingTools(TOOLS);
    const w = mine({ branches: true });
    const policy = createOfflinePolicy({ tools: TOOLS });
    const run = (query: string) => executeWorkflow(w, { query }, { policy, tools: registry });
    const hotels = await run(
      'Find flights from BOS to SEA. Then search hotels in Seattle. Then show reviews of hotels in Seattle.',
    );
    expect(hotels.observations.find((o) => o.nodeId === 'branch_1')?.output).toEqual({ branch: 'option_2' });
    expect(hotels.calls.map((c) => c.tool)).toEqual(['search_flights', 'search_hotels', 'hotel_reviews']);
    const flights = await run(
      'Find flights from BOS to SEA. Then the status of departure AA100. Then the delays at airport SEA.',
    );
    expect(flights.observations.find((o) => o.nodeId === 'branch_1')?.output).toEqual({ branch: 'option_1' });
    expect(flights.calls.map((c) => c.tool)).toEqual(['search_flights', 'flight_status', 'airport_delays']);
    // A request no option's tools answer takes no branch; a part the step before the branch served
    // (the flights) is not the branch's, even where an option's tool also fits it.
    const only = await run('Find flights from BOS to SEA.');
    expect(only.observations.find((o) => o.nodeId === 'branch_1')?.output).toEqual({ branch: 'none' });
    expect(only.calls.map((c) => c.tool)).toEqual(['search_flights']);
    const none = await run('What is the capital of Peru?');
    expect(none.observations.find((o) => o.nodeId === 'branch_1')?.output).toEqual({ branch: 'none' });
    expect(none.observations.filter((o) => /^step_[2-5]$/.test(o.nodeId)).map((o) => o.status)).toEqual(
      new Array(4).fill('skipped'),
    );
    expect(called.filter((t) => t === 'flight_status')).toHaveLength(1);
  });

  it('offline, a branch inside the workflow is judged on the parts of the request its tools answer', () => {
    const choices: Choices = {
      field: 'branch',
      part: true,
      options: [
        { value: 'option_1', tools: ['flight_status', 'airport_delays'] },
        { value: 'option_2', tools: ['search_hotels', 'hotel_reviews'] },
      ],
      otherwise: 'none',
    };
    const fit = (part: string, tool: string) =>
      part.toLowerCase().includes(tool.split('_')[1]!.replace(/s$/, '')) ? 1 : 0;
    // A request with more parts than the branch has steps: a router would refuse it, a branch does its part.
    const query = 'Search flights from BOS to SEA. Then hotels in Seattle. Then reviews of them. Then the weather.';
    expect(routeBySequence(choices, query, fit)).toBe('option_2');
    expect(routeBySequence({ ...choices, part: undefined }, query, fit)).toBe('none');
    expect(routeBySequence(choices, 'Search flights from BOS to SEA.', fit)).toBe('none');
    // A part that a tool called before the branch answers as well is that step's, not the branch's.
    const anyWord = (part: string, tool: string) =>
      tool.split('_').some((w) => part.toLowerCase().includes(w.replace(/s$/, ''))) ? 1 : 0;
    expect(routeBySequence(choices, 'Search hotels in Bern.', anyWord)).toBe('option_2');
    expect(routeBySequence(choices, 'Search hotels in Bern.', anyWord, ['search_hotels'])).toBe('none');
  });

  it('under the LLM policy, the model reads each branch with its tools and its answer picks the steps that run', async () => {
    const userText = (req: RecordedRequest): string =>
      (req.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user').at(-1)!.content;
    server = await startTestLlmServer({
      script: (req) => {
        const text = userText(req);
        if (text.startsWith('Choose how the workflow goes on')) return { json: { branch: 'option_2' } };
        // A step's prompt says what it is for (its task: "Typical use: …"); the model calls that tool.
        const calls: Array<[string, string, Record<string, string>]> = [
          ['Typical use: Search flights', 'search_flights', { origin: 'BOS', destination: 'SEA' }],
          ['Typical use: Search hotels', 'search_hotels', { city: 'Seattle' }],
          ['Typical use: Reviews of hotels', 'hotel_reviews', { city: 'Seattle' }],
        ];
        const step = calls.find(([task]) => text.includes(task));
        if (step) return { json: { calls: [{ tool: step[1], args: step[2] }] } };
        return { text: 'Flights and hotels in Seattle were found.' };
      },
    });
    const client = createLlmClient({
      model: await resolveModel(server.spec(), { env: {} }),
      sleep: async () => {},
      timeoutMs: 5000,
    });
    const registry = createToolRegistry(TOOLS.map((t) => ({ ...t, execute: async () => ({ ok: true }) })));
    const trace = await executeWorkflow(
      mine({ branches: true }),
      { query: 'Find flights from BOS to SEA, then hotels in Seattle and their reviews.' },
      { policy: createLlmPolicy({ client, tools: TOOLS }), tools: registry },
    );
    expect(trace.status).toBe('ok');
    const prompt = server.requests.map(userText).find((t) => t.startsWith('Choose how the workflow goes on'))!;
    expect(prompt).toMatch(/^- option_1: calls flight_status → airport_delays\. About: .*$/m);
    expect(prompt).toMatch(/^- option_2: calls search_hotels → hotel_reviews\. About: .*$/m);
    expect(prompt).toMatch(/^- none: none of the above\.$/m);
    expect(trace.calls.map((c) => c.tool)).toEqual(['search_flights', 'search_hotels', 'hotel_reviews']);
  });
});

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
