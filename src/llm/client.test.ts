import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestLlmServer, type ScriptedReply, type TestLlmServer } from '../../test/support/llm-server.js';
import { BudgetExceededError, createBudget } from './budget.js';
import { createLlmClient, type LlmClientOptions } from './client.js';
import { InvalidModelOutputError } from './llm-errors.js';
import { createRateLimiter } from './rate-limiter.js';
import { resolveModel } from './resolve-model.js';
import { rejection } from '../../test/support/rejection.js';

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A client against a fresh test server; sleeps are recorded instead of waited. */
async function setup(script: ScriptedReply[], opts: Partial<LlmClientOptions> = {}) {
  server = await startTestLlmServer({ script });
  const sleeps: number[] = [];
  const logs: string[] = [];
  const model = await resolveModel(server.spec(), { env: {} });
  const client = createLlmClient({
    model,
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0.5,
    timeoutMs: 2000,
    log: (l) => logs.push(l),
    ...opts,
  });
  return { client, sleeps, logs, server };
}

describe('LLM client against the test server', () => {
  it('returns text with usage and the model string', async () => {
    const { client } = await setup([{ text: 'Paris', usage: { prompt_tokens: 12, completion_tokens: 3 } }]);
    const r = await client.text({ system: 'terse', prompt: 'Capital of France?' });
    expect(r).toMatchObject({
      value: 'Paris',
      usage: { llmCalls: 1, inputTokens: 12, outputTokens: 3, costUsd: 0 },
      model: server!.spec(),
    });
    const body = server!.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'terse' },
      { role: 'user', content: 'Capital of France?' },
    ]);
    expect(body.temperature).toBe(0);
  });

  it('returns objects through Output.object with a json_schema response format', async () => {
    const { client } = await setup([{ json: { city: 'Paris', days: 3 } }]);
    const r = await client.object({ schema: z.object({ city: z.string(), days: z.number() }), prompt: 'trip' });
    expect(r.value).toEqual({ city: 'Paris', days: 3 });
    expect(server!.requests[0]!.body.response_format.type).toBe('json_schema');
  });

  it('retries a 429, waiting what Retry-After (seconds) says, and counts the retry', async () => {
    const { client, sleeps, logs } = await setup([{ fault: 'rate-limit', retryAfter: '3' }, { text: 'ok' }]);
    const r = await client.text({ prompt: 'x' });
    expect(r.value).toBe('ok');
    expect(sleeps).toEqual([3000]);
    expect(r.usage.llmCalls).toBe(2);
    expect(client.stats()).toMatchObject({
      calls: 1,
      requests: 2,
      retries: 1,
      failures: 0,
      inputTokens: 10,
      outputTokens: 5,
    });
    expect(logs[0]).toMatch(/^retrying .* in 3 s \(rate limited \(HTTP 429, retry after 3000 ms\); retry 1 of 3\)/);
  });

  it('honours retry-after-ms and an HTTP-date Retry-After', async () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    const { client, sleeps } = await setup(
      [
        { fault: 'rate-limit', retryAfterMs: 250 },
        { fault: 'rate-limit', retryAfter: 'Wed, 01 Jan 2025 00:00:07 GMT' },
        { text: 'ok' },
      ],
      { now: () => now },
    );
    await client.text({ prompt: 'x' });
    expect(sleeps).toEqual([250, 7000]);
  });

  it('backs off exponentially with jitter on 500s', async () => {
    const { client, sleeps } = await setup(
      [{ fault: 'server-error' }, { fault: 'server-error', status: 503 }, { text: 'ok' }],
      { baseDelayMs: 100, random: () => 1 },
    );
    await client.text({ prompt: 'x' });
    expect(sleeps).toEqual([100, 200]);
    expect(client.stats().retries).toBe(2);
  });

  it('gives up after maxRetries with MODEL_ERROR naming the attempts', async () => {
    const { client, sleeps } = await setup(
      [{ fault: 'server-error' }, { fault: 'server-error' }, { fault: 'server-error' }],
      { maxRetries: 2 },
    );
    const e = await rejection(client.text({ prompt: 'x' }));
    expect(e.code).toBe('MODEL_ERROR');
    expect(e.message).toMatch(/failed after 3 attempts: server error \(HTTP 500\)/);
    expect(sleeps).toHaveLength(2);
    expect(client.stats()).toMatchObject({ calls: 0, requests: 3, retries: 2, failures: 1 });
  });

  it('does not retry a 400', async () => {
    const { client } = await setup([{ status: 400, body: { error: { message: 'bad request: unknown field' } } }]);
    const e = await rejection(client.text({ prompt: 'x' }));
    expect(e.message).toMatch(/failed after 1 attempt: .*bad request/);
    expect(server!.requests).toHaveLength(1);
  });

  it('times out a hanging request and retries it', async () => {
    const { client } = await setup([{ fault: 'hang' }, { text: 'late but fine' }], { timeoutMs: 150 });
    const r = await client.text({ prompt: 'x' });
    expect(r.value).toBe('late but fine');
    expect(client.stats()).toMatchObject({ retries: 1, requests: 2 });
  });

  it('reports a timeout when retries are exhausted', async () => {
    const { client } = await setup([{ fault: 'hang' }], { timeoutMs: 100, maxRetries: 0 });
    const e = await rejection(client.text({ prompt: 'x' }));
    expect(e.message).toMatch(/no answer within 100 ms/);
    expect(e.details).toMatchObject({ kind: 'timeout' });
  });

  it('retries a truncated HTTP body as a network error', async () => {
    const { client } = await setup([{ fault: 'truncated' }, { text: 'whole' }]);
    expect((await client.text({ prompt: 'x' })).value).toBe('whole');
    expect(client.stats().retries).toBe(1);
  });

  it('turns malformed JSON into InvalidModelOutputError with the tokens it cost', async () => {
    const { client } = await setup([{ fault: 'malformed-json', usage: { prompt_tokens: 20, completion_tokens: 8 } }]);
    let err: unknown;
    try {
      await client.object({ schema: z.object({ a: z.number() }), prompt: 'x' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidModelOutputError);
    const inv = err as InvalidModelOutputError;
    expect(inv.problem).toMatch(/not valid JSON/);
    expect(inv.text).toContain('{"calls"');
    expect(inv.usage).toMatchObject({ llmCalls: 1, inputTokens: 20, outputTokens: 8 });
    expect(client.stats()).toMatchObject({ retries: 0, inputTokens: 20, outputTokens: 8, failures: 1 });
  });

  it('stops at once when the caller aborts (no retry)', async () => {
    const { client } = await setup([{ fault: 'hang' }], { timeoutMs: 5000 });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const e = await rejection(client.text({ prompt: 'x', signal: ctl.signal }));
    expect(e.code).toBe('ABORTED');
    expect(client.stats().retries).toBe(0);
  });

  it('prices calls from the table, and says when a model has no price', async () => {
    const { client } = await setup([{ text: 'a', usage: { prompt_tokens: 1_000_000, completion_tokens: 500_000 } }], {
      prices: { 'openai-compatible:test-model': { input: 2, output: 4 } },
    });
    const r = await client.text({ prompt: 'x' });
    expect(r.usage.costUsd).toBeCloseTo(4);
    expect(client.stats()).toMatchObject({ costUsd: 4, unpricedRequests: 0 });
    expect(client.priced).toBe(true);
    server!.push({ text: 'b' });
    const other = await client.forModel(`openai-compatible:${server!.baseURL}#unknown-model`);
    await other.text({ prompt: 'y' });
    expect(other.priced).toBe(false);
    expect(client.stats()).toMatchObject({ calls: 2, unpricedRequests: 1 });
    expect(server!.requests[1]!.body.model).toBe('unknown-model');
  });

  it('stops cleanly with BUDGET_EXHAUSTED before the call that would exceed the call budget', async () => {
    const budget = createBudget({ maxLlmCalls: 2 });
    const { client } = await setup(
      [{ fault: 'rate-limit', retryAfter: '0' }, { text: 'one' }, { text: 'never sent' }],
      { budget },
    );
    await client.text({ prompt: 'x' });
    const e = await rejection(client.text({ prompt: 'y' }));
    expect(e).toBeInstanceOf(BudgetExceededError);
    expect(e.code).toBe('BUDGET_EXHAUSTED');
    expect((e as BudgetExceededError).resource).toBe('llmCalls');
    expect(e.message).toBe('budget exhausted: 2 of 2 model calls used');
    expect(server!.requests).toHaveLength(2);
  });

  it('stops on token, cost and time budgets', async () => {
    let t = 0;
    const tokens = createBudget({ maxTokens: 20 });
    const { client } = await setup([{ text: 'a' }, { text: 'b' }, { text: 'c' }], { budget: tokens });
    await client.text({ prompt: '1' });
    await client.text({ prompt: '2' });
    expect((await rejection(client.text({ prompt: '3' }))).message).toBe('budget exhausted: 30 of 20 tokens used');
    const cost = createBudget({ maxCostUsd: 0.5 });
    cost.charge(0, 0.5);
    expect(() => cost.check()).toThrow(/\$0.5000 of \$0.5 spent/);
    const wall = createBudget({ maxWallMs: 1000 }, { now: () => t });
    t = 999;
    expect(() => wall.check()).not.toThrow();
    t = 1000;
    expect(() => wall.check()).toThrow(/1 s of 1 s elapsed/);
  });

  it('shares one limiter: with concurrency 1 requests never overlap', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    server = await startTestLlmServer({
      script: async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        return { text: 'ok' };
      },
    });
    const limiter = createRateLimiter({ concurrency: 1 });
    const model = await resolveModel(server.spec(), { env: {} });
    const a = createLlmClient({ model, limiter });
    const b = createLlmClient({ model, limiter });
    await Promise.all([a.text({ prompt: '1' }), b.text({ prompt: '2' }), a.text({ prompt: '3' })]);
    expect(maxInFlight).toBe(1);
    expect(server.requests).toHaveLength(3);
  });

  it('asks for and returns log-probabilities from OpenAI-compatible servers', async () => {
    const { client } = await setup([
      {
        text: '4',
        logprobs: [
          {
            token: '4',
            logprob: -0.2,
            top: [
              { token: '4', logprob: -0.2 },
              { token: '3', logprob: -1.8 },
            ],
          },
        ],
      },
    ]);
    const r = await client.text({ prompt: 'score', logprobs: 2 });
    expect(server!.requests[0]!.body).toMatchObject({ logprobs: true, top_logprobs: 2 });
    expect(r.logprobs?.[0]).toEqual({
      token: '4',
      logprob: -0.2,
      top: [
        { token: '4', logprob: -0.2 },
        { token: '3', logprob: -1.8 },
      ],
    });
  });
});
