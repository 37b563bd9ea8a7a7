import { afterEach, describe, expect, it } from 'vitest';
import { scoreLogprobs, startTestLlmServer, type TestLlmServer } from './llm-server.js';

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (
  s: TestLlmServer,
  body: unknown = { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
  signal?: AbortSignal,
) =>
  fetch(`${s.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test-abcdefgh' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });

describe('test LLM server', () => {
  it('answers scripted text, JSON and tool calls in OpenAI chat-completion form, and records each request', async () => {
    server = await startTestLlmServer({
      script: [
        { text: 'hello', usage: { prompt_tokens: 7, completion_tokens: 2 } },
        { json: { a: 1 } },
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
      ],
    });
    const a = (await (await post(server)).json()) as any;
    expect(a.choices[0].message.content).toBe('hello');
    expect(a.usage).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
    expect(a.model).toBe('m');
    const b = (await (await post(server)).json()) as any;
    expect(JSON.parse(b.choices[0].message.content)).toEqual({ a: 1 });
    const c = (await (await post(server)).json()) as any;
    expect(c.choices[0].finish_reason).toBe('tool_calls');
    expect(c.choices[0].message.tool_calls[0].function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]!.body.messages[0].content).toBe('hi');
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-test-abcdefgh');
  });

  it('says so when the script runs out, and lists models', async () => {
    server = await startTestLlmServer({ script: [] });
    const r = await post(server);
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error.message).toMatch(/no scripted reply left for request #1/);
    const models = (await (await fetch(`${server.baseURL}/models`)).json()) as any;
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(['test-model']);
    expect(server.spec()).toBe(`openai-compatible:${server.url}/v1#test-model`);
  });

  it('chooses replies with a function of the request', async () => {
    server = await startTestLlmServer({ script: (req, i) => ({ text: `${req.body.model}#${i}` }) });
    expect(((await (await post(server)).json()) as any).choices[0].message.content).toBe('m#0');
    expect(((await (await post(server, { model: 'x', messages: [] })).json()) as any).choices[0].message.content).toBe(
      'x#1',
    );
  });

  it('produces each fault on demand', async () => {
    server = await startTestLlmServer({
      script: [
        { fault: 'rate-limit', retryAfter: '3', retryAfterMs: 1500 },
        { fault: 'server-error' },
        { fault: 'malformed-json' },
        { fault: 'truncated' },
        { fault: 'hang' },
      ],
    });
    const r429 = await post(server);
    expect(r429.status).toBe(429);
    expect(r429.headers.get('retry-after')).toBe('3');
    expect(r429.headers.get('retry-after-ms')).toBe('1500');
    expect((await post(server)).status).toBe(500);
    const bad = (await (await post(server)).json()) as any;
    expect(() => JSON.parse(bad.choices[0].message.content)).toThrow();
    const cut = await post(server);
    expect(cut.status).toBe(200);
    await expect(cut.text()).rejects.toThrow(/terminated|closed/);
    await expect(post(server, undefined, AbortSignal.timeout(150))).rejects.toThrow();
    expect(server.requests).toHaveLength(5);
  });

  it('returns OpenAI-style logprobs', async () => {
    server = await startTestLlmServer({ script: [{ text: '4', logprobs: scoreLogprobs({ 4: 0.75, 5: 0.25 }) }] });
    const r = (await (await post(server)).json()) as any;
    const lp = r.choices[0].logprobs.content[0];
    expect(lp.token).toBe('4');
    expect(lp.top_logprobs.map((t: { token: string }) => t.token)).toEqual(['4', '5']);
    expect(Math.exp(lp.top_logprobs[1].logprob)).toBeCloseTo(0.25);
  });
});
