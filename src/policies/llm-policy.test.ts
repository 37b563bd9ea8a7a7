import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../test/support/llm-server.js';
import { mockModel, roles, userText, type MockReply } from '../../test/support/mock-model.js';
import { isFlowScoutError } from '../errors/index.js';
import type { LlmNode, ToolNode, Workflow } from '../graph/schema.js';
import { createLlmClient } from '../llm/client.js';
import { resolveModel } from '../llm/resolve-model.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { createLlmPolicy } from './llm-policy.js';
import { handOffText } from './llm-prompts.js';
import type { LlmNodeRequest, NodeInput, ToolPlanRequest } from './types.js';

const WEATHER: ToolDescriptor = {
  name: 'current_weather',
  description: 'Current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' } },
    required: ['city'],
  },
};
const QUOTE: ToolDescriptor = {
  name: 'stock_quote',
  description: 'Latest quote for a ticker symbol.',
  inputSchema: { type: 'object', properties: { symbol: { type: 'string' } }, required: ['symbol'] },
};

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * The policy over a mock model at the AI SDK contract (unit tests): `model.doGenerateCalls` are the
 * structured requests it sent. Only the test of a node's own model goes through the HTTP test server,
 * since that path resolves a second provider from a model string.
 */
function policyWith(script: MockReply[]) {
  const model = mockModel(script);
  const client = createLlmClient({ model, spec: 'mock:model', env: {}, sleep: async () => {}, timeoutMs: 2000 });
  return {
    policy: createLlmPolicy({ client, tools: [WEATHER, QUOTE] }),
    model,
    calls: model.doGenerateCalls,
    stats: () => ({ ...client.stats() }),
  };
}

const wf: Workflow = { version: 1, name: 'w', nodes: [], edges: [] };
const base = {
  query: 'Weather in Paris and Lyon?',
  workflow: wf,
  context: 'Weather in Paris and Lyon?',
  scratch: new Map<string, unknown>(),
};

function toolReq(node: Partial<ToolNode> = {}, inputs: NodeInput[] = []): ToolPlanRequest {
  return {
    ...base,
    inputs,
    node: { id: 'lookup', kind: 'tool', task: 'Look up the weather', ...node },
    candidates: [WEATHER, QUOTE],
    attempt: 1,
  };
}

function llmReq(node: Partial<LlmNode>): LlmNodeRequest {
  return {
    ...base,
    inputs: [
      {
        nodeId: 'lookup',
        kind: 'tool',
        output: [{ tool: 'current_weather', args: { city: 'Paris' }, status: 'ok', output: "{'temp': 21}" }],
        status: 'ok',
        calls: [{ tool: 'current_weather', args: { city: 'Paris' }, status: 'ok' }],
      },
    ],
    node: {
      id: 'answer',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from:\n{{inputs}}',
      output: { type: 'text' },
      ...node,
    } as LlmNode,
  };
}

/** The plan schema the request's JSON response format carries. */
const planSchemaOf = (call: { responseFormat?: unknown }) =>
  (
    call.responseFormat as {
      schema: { properties: { calls: { items: { properties: { tool: { enum: string[] } } } } } };
    }
  ).schema;

describe('LLM policy', () => {
  it('is labelled with its model', () => {
    const { policy } = policyWith([]);
    expect(policy.id).toBe('llm:mock:model');
    expect(policy.kind).toBe('llm');
    expect(policy.label).toBe('LLM policy (mock:model)');
  });

  it('runs a text node with the query and the upstream results in the prompt', async () => {
    const { policy, calls } = policyWith([{ text: 'It is 21 °C in Paris.' }]);
    const r = await policy.runLlmNode(llmReq({}));
    expect(r).toMatchObject({
      output: 'It is 21 °C in Paris.',
      model: 'mock:model',
      usage: { llmCalls: 1, inputTokens: 10, outputTokens: 5 },
    });
    expect(calls).toHaveLength(1);
    // A text request: no response format, no tools; a system message, then the user prompt.
    expect(calls[0]!.responseFormat ?? { type: 'text' }).toMatchObject({ type: 'text' });
    expect(calls[0]!.tools ?? []).toEqual([]);
    expect(roles(calls[0]!)).toEqual(['system', 'user']);
    const prompt = userText(calls[0]!);
    expect(prompt).toContain('Answer Weather in Paris and Lyon? from:');
    expect(prompt).toContain(`current_weather({"city":"Paris"}) → {'temp': 21}`);
  });

  it('runs a JSON node, repairing an answer that breaks the declared schema', async () => {
    const outSchema = { type: 'object' as const, properties: { more: { type: 'boolean' } }, required: ['more'] };
    const node: Partial<LlmNode> = {
      role: 'judge',
      prompt: 'Is more needed? {{inputs}}',
      output: { type: 'json', schema: outSchema },
    };
    const { policy, calls, stats } = policyWith([{ json: { more: 'perhaps' } }, { json: { more: false } }]);
    const r = await policy.runLlmNode(llmReq(node));
    expect(r.output).toEqual({ more: false });
    expect(r.usage).toMatchObject({ llmCalls: 2, inputTokens: 20, outputTokens: 10 });
    // Both requests ask for the node's declared schema as the JSON response format, named after the node.
    for (const call of calls)
      expect(call.responseFormat).toMatchObject({ type: 'json', name: 'answer_output', schema: outSchema });
    expect(userText(calls[1]!)).toContain('$.more: expected boolean, got string "perhaps"');
    expect(stats()).toMatchObject({ calls: 2, retries: 0 });
  });

  it('fails a JSON node with MODEL_ERROR after one repair round of malformed JSON', async () => {
    const node: Partial<LlmNode> = {
      role: 'judge',
      prompt: 'Decide {{inputs}}',
      output: { type: 'json', schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
    };
    const { policy, calls } = policyWith([{ text: '{"ok": tru' }, { text: '{"ok": tru' }, { json: { ok: true } }]);
    let err: unknown;
    try {
      await policy.runLlmNode(llmReq(node));
    } catch (e) {
      err = e;
    }
    expect(isFlowScoutError(err) && err.code).toBe('MODEL_ERROR');
    expect((err as Error).message).toMatch(/node 'answer'.*after one repair round: the answer is not valid JSON/);
    expect((err as { details: { usage: { llmCalls: number } } }).details.usage.llmCalls).toBe(2);
    expect(calls).toHaveLength(2);
  });

  it('plans one valid call', async () => {
    const { policy, calls } = policyWith([
      { json: { calls: [{ tool: 'current_weather', args: { city: 'Paris', days: '2' } }] } },
    ]);
    const r = await policy.planToolCalls(toolReq());
    expect(r.error).toBeUndefined();
    expect(r.calls).toEqual([{ tool: 'current_weather', args: { city: 'Paris', days: 2 } }]);
    const call = calls[0]!;
    // The plan is structured output (not native tool calling): the candidates are the schema's tool enum.
    expect(call.tools ?? []).toEqual([]);
    expect(call.responseFormat).toMatchObject({ type: 'json', name: 'tool_calls' });
    expect(planSchemaOf(call).properties.calls.items.properties.tool.enum).toEqual(['current_weather', 'stock_quote']);
    expect(roles(call)).toEqual(['system', 'user']);
    expect(userText(call)).toContain(WEATHER.description);
  });

  it("shows the workflow's hints about the shown tools in the request, wherever the workflow keeps them, and the bound values", async () => {
    const { policy, calls } = policyWith([{ json: { calls: [{ tool: 'current_weather', args: { city: 'Paris' } }] } }]);
    const holder: ToolNode = {
      id: 'elsewhere',
      kind: 'tool',
      task: 'Another step',
      hints: [
        {
          tool: 'current_weather',
          asks: { weather: 0.9, forecast: 0.4 },
          params: {
            city: { from: { request: 0.95 }, before: { in: 0.8 }, shapes: { name: 0.9 }, format: { listSep: ',' } },
            days: { set: 'if-asked', setRates: { overall: 0.3 }, asked: { days: 0.8 } },
          },
        },
      ],
    };
    const node: ToolNode = {
      id: 'lookup',
      kind: 'tool',
      task: 'Look up the weather',
      bind: [{ tool: 'current_weather', param: 'days', source: { from: 'const', value: 1 } }],
    };
    const workflow: Workflow = { version: 1, name: 'w', nodes: [node, holder], edges: [] };
    await policy.planToolCalls({ ...toolReq(node), workflow, bound: { current_weather: { days: 1 } } });
    const text = userText(calls[0]!);
    expect(text).toContain('What this workflow learned about calling these tools');
    expect(text).toContain('- current_weather: requests that need it say "weather", "forecast"');
    expect(text).toContain(
      '  - city: almost always from the request; written after "in"; shaped like name; several values the request names joined by ","',
    );
    expect(text).toContain('  - days: set it only when the request asks for it (e.g. mentions "days")');
    expect(text).toContain('current_weather.days = 1');
    // No hint about the other tool: nothing is said of it.
    expect(text).not.toMatch(/- stock_quote:/);
  });

  it('tells the model where the workflow takes an argument from, so it need not guess it', async () => {
    const { policy, calls } = policyWith([{ json: { calls: [{ tool: 'current_weather', args: { city: 'Paris' } }] } }]);
    const node: ToolNode = { id: 'lookup', kind: 'tool', task: 'Look up the weather' };
    // The binding is kept by another step of the workflow: every step that picks the tool reads it.
    const holder: ToolNode = {
      id: 'places',
      kind: 'tool',
      task: 'Find the place',
      bind: [
        {
          tool: 'current_weather',
          param: 'city',
          source: { from: 'output', tool: 'find_place', path: 'results[*].name', pick: 'first' },
        },
      ],
    };
    const workflow: Workflow = { version: 1, name: 'w', nodes: [holder, node], edges: [] };
    await policy.planToolCalls({ ...toolReq(node), workflow });
    const text = userText(calls[0]!);
    expect(text).toContain('Arguments the workflow fills (set for you, whatever you write; fill the others):');
    expect(text).toContain('- current_weather: `city` is the `name` of the first item in the latest find_place result');
  });

  it('asks no model for a step whose one tool has every parameter bound, and calls it with the bound values', async () => {
    const { policy, calls } = policyWith([]);
    const node: ToolNode = {
      id: 'quote',
      kind: 'tool',
      task: 'Get the quote',
      tools: ['stock_quote'],
      bind: [{ tool: 'stock_quote', param: 'symbol', source: { from: 'request', pattern: '\\(([A-Z]+)\\)' } }],
    };
    const r = await policy.planToolCalls({
      ...toolReq(node),
      candidates: [QUOTE],
      workflow: { version: 1, name: 'w', nodes: [node], edges: [] },
      bound: { stock_quote: { symbol: 'ACME' } },
    });
    expect(r.calls).toEqual([{ tool: 'stock_quote', args: { symbol: 'ACME' } }]);
    expect(calls).toHaveLength(0);
  });

  it("names the step's part of the request, handed to the position whose tools fit it, and declares the layout as its memo scope", async () => {
    const { policy, calls } = policyWith([
      { json: { calls: [{ tool: 'stock_quote', args: { symbol: 'AAPL' } }] } },
      { json: { calls: [{ tool: 'current_weather', args: { city: 'Paris' } }] } },
      { json: { calls: [] } },
    ]);
    const query = 'Get the quote for AAPL, then the weather in Paris.';
    const pos = (id: string, mined: string): ToolNode => ({
      id,
      kind: 'tool',
      task: 'Look up something',
      calls: 'many',
      mined: [mined],
    });
    // A weather position comes first, but the first part asks for a quote: it goes to the quote position.
    const [early, quotes, late] = [
      pos('early', 'current_weather'),
      pos('quotes', 'stock_quote'),
      pos('late', 'current_weather'),
    ];
    const nodes: Workflow['nodes'] = [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'p {{query}}', output: { type: 'text' } },
      early,
      quotes,
      late,
    ];
    const w: Workflow = {
      version: 1,
      name: 'w',
      nodes,
      edges: nodes.slice(1).map((n, i) => ({ from: nodes[i]!.id, to: n.id, kind: 'data' as const })),
    };
    for (const node of [quotes, late, early])
      await policy.planToolCalls({
        ...base,
        query,
        context: query,
        workflow: w,
        inputs: [],
        node,
        candidates: [WEATHER, QUOTE],
        attempt: 1,
      });
    // Each request carries its own part as the hand-off text the product writes for it.
    expect(userText(calls[0]!)).toContain(handOffText(['Get the quote for AAPL'], true));
    expect(userText(calls[1]!)).toContain(handOffText(['the weather in Paris'], true));
    // The third position may make no call and is handed no part: it asks no model.
    expect(calls).toHaveLength(2);
    const none = await policy.planToolCalls({
      ...base,
      query,
      context: query,
      workflow: w,
      inputs: [],
      node: early,
      candidates: [WEATHER, QUOTE],
      attempt: 1,
    });
    expect(none.calls).toEqual([]);
    expect(calls).toHaveLength(2);
    expect(policy.memoScope!(w, quotes)).toMatch(/^hand-off [0-9a-f]{16}, position 1$/);
    expect(policy.memoScope!(w, nodes[0]!)).toBe('');
  });

  it('repairs a call to a tool that is not a candidate', async () => {
    const { policy, calls } = policyWith([
      { json: { calls: [{ tool: 'weather_forecast_v9', args: { city: 'Paris' } }] } },
      { json: { calls: [{ tool: 'current_weather', args: { city: 'Paris' } }] } },
    ]);
    const r = await policy.planToolCalls(toolReq());
    expect(r.calls).toEqual([{ tool: 'current_weather', args: { city: 'Paris' } }]);
    expect(r.usage?.llmCalls).toBe(2);
    expect(calls[1]!.responseFormat).toMatchObject({ type: 'json', name: 'tool_calls' });
    expect(userText(calls[1]!)).toContain(
      'tool "weather_forecast_v9" is not one of the candidate tools (current_weather, stock_quote)',
    );
  });

  it('repairs a native tool call to a tool that does not exist (instead of the JSON plan)', async () => {
    const { policy, calls } = policyWith([
      { toolCalls: [{ name: 'ghost_tool', arguments: { city: 'Paris' } }] },
      { json: { calls: [{ tool: 'current_weather', args: { city: 'Paris' } }] } },
    ]);
    const r = await policy.planToolCalls(toolReq());
    expect(r.calls).toEqual([{ tool: 'current_weather', args: { city: 'Paris' } }]);
    expect(calls).toHaveLength(2);
    expect(userText(calls[1]!)).toContain('no content (the model answered with a tool call or nothing)');
  });

  it('gives up with an error after arguments fail the schema twice', async () => {
    const bad = { json: { calls: [{ tool: 'current_weather', args: { town: 'Paris' } }] } };
    const { policy, calls } = policyWith([bad, bad]);
    const r = await policy.planToolCalls(toolReq());
    expect(r.calls).toEqual([]);
    expect(r.error).toMatch(
      /no valid tool plan for node 'lookup' after one repair round: calls\[0\]: invalid arguments for 'current_weather': \$\.city: required but missing/,
    );
    expect(r.usage).toMatchObject({ llmCalls: 2, inputTokens: 20, outputTokens: 10 });
    expect(calls).toHaveLength(2);
  });

  it('repairs malformed JSON in a plan', async () => {
    const { policy, calls } = policyWith([
      { text: '{"calls": [{"tool": ' },
      { json: { calls: [{ tool: 'stock_quote', args: { symbol: 'AAPL' } }] } },
    ]);
    const r = await policy.planToolCalls(toolReq());
    expect(r.calls).toEqual([{ tool: 'stock_quote', args: { symbol: 'AAPL' } }]);
    expect(userText(calls[1]!)).toContain('{"calls": [{"tool": ');
  });

  it("plans several calls for calls: 'many' and rejects two calls for calls: 'one'", async () => {
    const two = {
      json: {
        calls: [
          { tool: 'current_weather', args: { city: 'Paris' } },
          { tool: 'current_weather', args: { city: 'Lyon' } },
        ],
      },
    };
    const { policy, calls } = policyWith([two, two, two]);
    const many = await policy.planToolCalls(toolReq({ calls: 'many' }));
    expect(many.calls.map((c) => c.args.city)).toEqual(['Paris', 'Lyon']);
    const one = await policy.planToolCalls(toolReq({ calls: 'one' }));
    expect(one.error).toMatch(/exactly one call, but the answer has 2/);
    expect(calls).toHaveLength(3);
    // The node's calls setting reaches the request: the 'many' and 'one' prompts differ.
    expect(userText(calls[0]!)).not.toBe(userText(calls[1]!));
  });

  it('records a model failure that survived retries as a plan error, and passes the previous error on retries', async () => {
    const { policy, calls } = policyWith([{ fail: 500 }, { fail: 500 }, { fail: 500 }, { fail: 500 }]);
    const r = await policy.planToolCalls({ ...toolReq(), attempt: 2, previousError: 'tool said: city not found' });
    expect(r.error).toMatch(/failed after 4 attempts: server error \(HTTP 500\)/);
    expect(calls).toHaveLength(4);
    expect(userText(calls[0]!)).toContain('tool said: city not found');
  });

  it("uses a node's own model through the registry (over HTTP: the node's model string is resolved to a real provider)", async () => {
    server = await startTestLlmServer({ script: [{ text: 'from the other model' }] });
    const client = createLlmClient({
      model: await resolveModel(server.spec(), { env: {} }),
      sleep: async () => {},
      timeoutMs: 2000,
    });
    const policy = createLlmPolicy({ client, tools: [WEATHER, QUOTE] });
    const r = await policy.runLlmNode(llmReq({ model: `openai-compatible:${server.baseURL}#other-model` }));
    expect(r.model).toBe(`openai-compatible:${server.baseURL}#other-model`);
    expect(server.requests[0]!.body.model).toBe('other-model');
  });
});
