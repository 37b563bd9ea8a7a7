import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../test/support/llm-server.js';
import { createLlmClient } from './client.js';
import { resolveModel } from './resolve-model.js';

/**
 * Prompt caching as a user pays for it: the stable part of a prompt is sent first, Anthropic gets
 * cache breakpoints on it, and input tokens the provider read from its cache are counted and priced
 * at the cached rate.
 */

let server: TestLlmServer | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const c of closers.splice(0)) await c();
});

describe('prompt caches', () => {
  it('sends the stable part first and prices the cached input tokens an OpenAI-style server reports at the cached rate', async () => {
    server = await startTestLlmServer({
      script: [{ text: 'ok', usage: { prompt_tokens: 2000, completion_tokens: 10, cached_tokens: 1536 } }],
    });
    const prices = { 'test-model': { input: 1, output: 2, cachedInput: 0.1 } };
    const client = createLlmClient({
      model: await resolveModel(server.spec(), { env: {} }),
      prices,
      sleep: async () => {},
      timeoutMs: 5000,
    });
    const r = await client.text({ system: 'S', stablePrompt: 'FIXED INSTRUCTIONS', prompt: 'per-record part' });
    expect(server.requests[0]!.body.messages.at(-1).content).toBe('FIXED INSTRUCTIONS\n\nper-record part');
    expect(r.usage.inputTokens).toBe(2000);
    expect(r.usage.cachedInputTokens).toBe(1536);
    expect(r.usage.costUsd).toBeCloseTo((464 * 1 + 1536 * 0.1 + 10 * 2) / 1e6, 12);
    expect(client.stats().cachedInputTokens).toBe(1536);
  });

  it('marks the system text and the stable part as Anthropic cache breakpoints and prices cache reads and writes', async () => {
    const bodies: any[] = [];
    const http = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        bodies.push(JSON.parse(raw));
        const body = JSON.stringify({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-haiku-4-5',
          content: [{ type: 'text', text: 'ok' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: {
            input_tokens: 100,
            output_tokens: 5,
            cache_read_input_tokens: 1500,
            cache_creation_input_tokens: 400,
          },
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      });
    });
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => http.close(() => r())));
    const env = {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${(http.address() as AddressInfo).port}/v1`,
    };
    const client = createLlmClient({
      model: await resolveModel('anthropic:claude-haiku-4-5', { env }),
      env,
      sleep: async () => {},
      timeoutMs: 5000,
    });
    const r = await client.text({ system: 'S', stablePrompt: 'FIXED INSTRUCTIONS', prompt: 'per-record part' });
    const sent = bodies[0];
    expect(sent.system).toEqual([{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }]);
    expect(sent.messages[0].content[0]).toMatchObject({
      type: 'text',
      text: 'FIXED INSTRUCTIONS\n\n',
      cache_control: { type: 'ephemeral' },
    });
    expect(sent.messages[0].content[1]).toEqual({ type: 'text', text: 'per-record part' });
    expect(r.usage.inputTokens).toBe(2000);
    expect(r.usage.cachedInputTokens).toBe(1500);
    // claude-haiku-4-5: $1 / M input, $0.10 / M cache read, $1.25 / M cache write, $5 / M output.
    expect(r.usage.costUsd).toBeCloseTo((100 * 1 + 1500 * 0.1 + 400 * 1.25 + 5 * 5) / 1e6, 12);
  });
});
