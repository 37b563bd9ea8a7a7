import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../test/support/llm-server.js';
import { createBudget } from '../llm/budget.js';
import { resolveJudge, resolvePolicy } from './resolve-models.js';
import { rejection as errorOf } from '../../test/support/rejection.js';

const TOOLS = [
  {
    name: 'lookup',
    description: 'Look something up',
    inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  },
];

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('resolvePolicy / resolveJudge', () => {
  it('defaults to the offline policy and the lexical judge when no model is configured', async () => {
    const p = await resolvePolicy(undefined, { tools: TOOLS, env: {} });
    expect([p.spec, p.label, p.instance.kind, p.client]).toEqual([
      'offline',
      'offline policy (no LLM)',
      'offline',
      undefined,
    ]);
    const j = await resolveJudge(undefined, { env: {} });
    expect([j.spec, j.instance.kind, j.label]).toEqual(['offline', 'offline', 'offline lexical judge']);
  });

  it('uses FLOWSCOUT_MODEL, or the given string, for an LLM policy and judge through the registry', async () => {
    server = await startTestLlmServer({
      script: [
        { json: { calls: [{ tool: 'lookup', args: { q: 'x' } }] } },
        { json: { correctness: 4, completeness: 4, relevance: 4, clarity: 4 } },
      ],
    });
    const env = { FLOWSCOUT_MODEL: server.spec() };
    const budget = createBudget({ maxLlmCalls: 10 });
    const p = await resolvePolicy(undefined, { tools: TOOLS, env, client: { budget } });
    expect(p.label).toBe(`LLM policy (${server.spec()})`);
    const node = { id: 'n', kind: 'tool' as const, task: 'look up' };
    const plan = await p.instance.planToolCalls({
      query: 'q',
      workflow: { version: 1, name: 'w', nodes: [node], edges: [] },
      inputs: [],
      context: 'q',
      scratch: new Map(),
      node,
      candidates: TOOLS,
      attempt: 1,
    });
    expect(plan.calls).toEqual([{ tool: 'lookup', args: { q: 'x' } }]);
    const j = await resolveJudge(server.spec(), { env: {}, client: { budget } });
    expect(j.label).toBe(`LLM judge (${server.spec()}, joint)`);
    expect((await j.instance.score({ query: 'q', reference: 'r', answer: 'a' })).es).toBeCloseTo(0.75);
    expect(budget.spent().llmCalls).toBe(2);
  });

  it('reports bad model strings and missing keys as MODEL_CONFIG', async () => {
    expect((await errorOf(resolvePolicy('gpt-4o', { tools: TOOLS, env: {} }))).code).toBe('MODEL_CONFIG');
    const e = await errorOf(resolvePolicy('openai:gpt-4o-mini', { tools: TOOLS, env: {} }));
    expect(e.message).toContain('OPENAI_API_KEY');
    expect((await errorOf(resolveJudge('llama-cpp:./m.gguf', { env: {} }))).describe()).toContain(
      'npm i -E node-llama-cpp@3.21.1',
    );
  });
});
