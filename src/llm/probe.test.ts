import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../test/support/llm-server.js';
import { probeModels } from './probe.js';

let llm: TestLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

/** A loopback port that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const KEY = 'sk-test-SECRET0123456789abcdef';

describe('probeModels', () => {
  it('passes a model that answers, sends one tiny request per distinct model, and skips offline', async () => {
    llm = await startTestLlmServer({ script: () => ({ text: 'OK' }) });
    const lines: string[] = [];
    await probeModels(
      [
        { role: 'policy', spec: llm.spec() },
        { role: 'judge', spec: llm.spec() },
        { role: 'optimizer', spec: 'offline' },
      ],
      { env: {}, log: (l) => lines.push(l) },
    );
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]!.body.max_tokens).toBeLessThanOrEqual(16);
    expect(lines.join('\n')).toMatch(/checked model openai-compatible:.*\(policy, judge\): it answered/);
  });

  it('stops at once on a 401, with the provider message, the role, and the key redacted', async () => {
    llm = await startTestLlmServer({
      script: () => ({
        status: 401,
        body: { error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error' } },
      }),
    });
    const err = await probeModels([{ role: 'policy', spec: llm.spec() }], {
      env: { OPENAI_COMPATIBLE_API_KEY: KEY },
    }).then(
      () => undefined,
      (e: unknown) => e as Error & { code: string; hint: string },
    );
    if (!err) throw new Error('the probe passed a 401');
    expect(err).toMatchObject({ code: 'MODEL_UNAVAILABLE' });
    expect(err.message).toMatch(
      /the policy model 'openai-compatible:.*' cannot be used: HTTP 401: Incorrect API key provided/,
    );
    expect(err.message).not.toContain(KEY);
    expect(err.hint).toContain('rejected the credentials');
    // Not retried: a 401 does not get better.
    expect(llm.requests).toHaveLength(1);
  });

  it('names an unknown model (404) and an unreachable host', async () => {
    llm = await startTestLlmServer({
      script: () => ({
        status: 404,
        body: { error: { message: 'The model `gpt-9` does not exist', code: 'model_not_found' } },
      }),
    });
    await expect(probeModels([{ role: 'judge', spec: llm.spec('gpt-9') }], { env: {} })).rejects.toThrow(
      /the judge model .*#gpt-9' cannot be used: HTTP 404: The model `gpt-9` does not exist/,
    );
    const port = await closedPort();
    const retries: string[] = [];
    const err = await probeModels([{ role: 'policy', spec: `openai-compatible:http://127.0.0.1:${port}/v1#m` }], {
      env: {},
      baseDelayMs: 10,
      log: (l) => retries.push(l),
    }).then(
      () => undefined,
      (e: unknown) => e as Error & { code: string },
    );
    if (!err) throw new Error('the probe passed a closed port');
    expect(err.code).toBe('MODEL_UNAVAILABLE');
    expect(err.message).toMatch(/cannot be used: network error \(.*ECONNREFUSED/);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatch(/^retrying openai-compatible:.* in \d+ ms \(network error/);
  });

  it('gives up on a host that accepts and never answers after its timeout', async () => {
    llm = await startTestLlmServer({ script: () => ({ fault: 'hang' }) });
    await expect(
      probeModels([{ role: 'policy', spec: llm.spec() }], { env: {}, timeoutMs: 150, baseDelayMs: 10 }),
    ).rejects.toThrow(/cannot be used: no answer within 150 ms/);
    expect(llm.requests).toHaveLength(2);
  });
});
