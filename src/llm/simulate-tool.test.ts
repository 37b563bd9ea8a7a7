import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../test/support/llm-server.js';
import { createLlmClient } from './client.js';
import { resolveModel } from './resolve-model.js';
import { createToolSimulator, renderSimulationPrompt } from './simulate-tool.js';

const TOOL = {
  name: 'get_quote_for_alpha',
  description: 'Latest stock quote.',
  inputSchema: { type: 'object', properties: { symbol: { type: 'string' } } },
};
const EXAMPLES = Array.from({ length: 7 }, (_, i) => ({ args: { symbol: `S${i}` }, output: `{'price': ${i}}` }));

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('LLM tool simulator', () => {
  it('shows the doc and at most 5 examples within 2048 characters', () => {
    const p = renderSimulationPrompt(TOOL, { symbol: 'AAPL' }, EXAMPLES);
    expect(p).toContain('Documentation:\nLatest stock quote.');
    expect(p).toContain('Arguments: {"symbol":"S4"}');
    expect(p).not.toContain('S5');
    expect(p).toContain('New call arguments: {"symbol":"AAPL"}');
    const long = renderSimulationPrompt(TOOL, {}, [
      { args: {}, output: 'x'.repeat(5000) },
      { args: {}, output: 'y' },
    ]);
    expect(long.length).toBeLessThan(3000);
  });

  it('returns the simulated response, and throws the simulated API error', async () => {
    server = await startTestLlmServer({
      script: [
        { json: { error: '', response: { price: 187.2 } } },
        { json: { error: 'Invalid symbol', response: '' } },
      ],
    });
    const client = createLlmClient({ model: await resolveModel(server.spec(), { env: {} }) });
    const sim = createToolSimulator({ client });
    expect(await sim.simulate(TOOL, { symbol: 'AAPL' }, EXAMPLES)).toEqual({ price: 187.2 });
    await expect(sim.simulate(TOOL, { symbol: '??' }, [])).rejects.toThrow('simulated API error: Invalid symbol');
    expect(server.requests[0]!.body.response_format.type).toBe('json_schema');
  });
});
