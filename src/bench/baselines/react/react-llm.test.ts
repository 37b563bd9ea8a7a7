import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type ScriptedReply, type TestLlmServer } from '../../../../test/support/llm-server.js';
import { createBudget } from '../../../llm/budget.js';
import { resolveModel } from '../../../llm/resolve-model.js';
import { createToolRegistry } from '../../../tools/registry.js';
import type { ToolSpec } from '../../../contracts/tools.js';
import { createLlmReact } from './react-llm.js';

const WEATHER: ToolSpec = {
  name: 'current_weather',
  description: 'Current weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async (args) => ({ city: args.city, temp: 21, sky: 'sunny' }),
};
const FAILING: ToolSpec = {
  name: 'air_quality',
  description: 'Air quality index for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async () => {
    throw new Error('upstream API down');
  },
};

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function react(
  script: ScriptedReply[],
  extra: { budget?: ReturnType<typeof createBudget>; maxSteps?: number } = {},
) {
  server = await startTestLlmServer({ script });
  const model = await resolveModel(server.spec(), { env: {} });
  const tools = createToolRegistry([WEATHER, FAILING]);
  return createLlmReact({ model, tools, sleep: async () => {}, timeoutMs: 2000, ...extra });
}

describe('ReAct with a model (AI SDK tool loop against the local test server)', () => {
  it('records every call in order — a real one, a failing one, one to a tool that does not exist — survives a 429 and returns the final text', async () => {
    const agent = await react([
      { toolCalls: [{ name: 'current_weather', arguments: { city: 'Paris' } }] },
      { fault: 'rate-limit', retryAfterMs: 5 },
      {
        toolCalls: [
          { name: 'air_quality', arguments: { city: 'Paris' } },
          { name: 'pollen_forecast', arguments: { city: 'Paris' } },
        ],
      },
      {
        text: 'Paris is sunny at 21 °C; air quality and pollen data were unavailable.',
        usage: { prompt_tokens: 30, completion_tokens: 12 },
      },
    ]);
    const run = await agent.run({ query: 'Weather, air quality and pollen in Paris?' });
    expect(run.error).toBeUndefined();
    expect(run.answer).toBe('Paris is sunny at 21 °C; air quality and pollen data were unavailable.');
    expect(run.calls.map((c) => [c.tool, c.status])).toEqual([
      ['current_weather', 'ok'],
      ['air_quality', 'error'],
      ['pollen_forecast', 'error'],
    ]);
    expect(run.calls[0]).toMatchObject({ args: { city: 'Paris' }, output: { city: 'Paris', temp: 21, sky: 'sunny' } });
    // 4 requests sent (the 429 included), 3 model steps; tokens: 10+5 (×2 default) + 30+12.
    expect(run).toMatchObject({ llmCalls: 4, llmSteps: 3, toolCalls: 3 });
    expect(run.usage).toMatchObject({ llmCalls: 4, inputTokens: 50, outputTokens: 22 });
    expect(server!.requests).toHaveLength(4);
    // The model saw its tools, and the errors came back to it as tool results.
    expect(server!.requests[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'current_weather',
      'air_quality',
    ]);
    const toolMessages = (server!.requests[3]!.body.messages as Array<{ role: string; content: string }>)
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(toolMessages.join('\n')).toContain('upstream API down');
    expect(toolMessages.join('\n')).toMatch(/pollen_forecast/);
  });

  it('stops at the step limit', async () => {
    const loop: ScriptedReply = { toolCalls: [{ name: 'current_weather', arguments: { city: 'Oslo' } }] };
    const agent = await react([loop, loop, loop], { maxSteps: 2 });
    const run = await agent.run({ query: 'Weather in Oslo?' });
    expect(run.llmSteps).toBe(2);
    expect(run.calls).toHaveLength(2);
    expect(server!.requests).toHaveLength(2);
  });

  it('a budget that runs out ends the run with the calls made so far and the reason', async () => {
    const agent = await react(
      [{ toolCalls: [{ name: 'current_weather', arguments: { city: 'Rome' } }] }, { text: 'never sent' }],
      { budget: createBudget({ maxLlmCalls: 1 }) },
    );
    const run = await agent.run({ query: 'Weather in Rome?' });
    expect(run.error).toMatch(/budget exhausted: 1 of 1 model calls used/);
    expect(run.answer).toBe('');
    expect(run.calls).toEqual([
      {
        tool: 'current_weather',
        args: { city: 'Rome' },
        status: 'ok',
        output: { city: 'Rome', temp: 21, sky: 'sunny' },
      },
    ]);
    expect(server!.requests).toHaveLength(1);
  });

  it('a model that keeps failing is reported, not thrown', async () => {
    const agent = await react([
      { fault: 'server-error' },
      { fault: 'server-error' },
      { fault: 'server-error' },
      { fault: 'server-error' },
    ]);
    const run = await agent.run({ query: 'Weather in Rome?' });
    expect(run.error).toBeDefined();
    // The same failure the LLM client reports: both send through src/llm/model-request.ts.
    expect(run.error).toMatch(/model '.+' failed after 4 attempts: server error \(HTTP 500\)/);
    expect(run.calls).toEqual([]);
    expect(run.llmCalls).toBe(4);
  });
});
