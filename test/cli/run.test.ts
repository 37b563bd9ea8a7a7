import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../support/llm-server.js';
import { cli } from '../support/cli-io.js';

const ROOT = join(import.meta.dirname, '../..');
const LINEAR = join(ROOT, 'test/fixtures/workflows/valid/linear.json');
const dir = mkdtempSync(join(tmpdir(), 'flowscout-cli-run-'));
writeFileSync(
  join(dir, 'tools.mjs'),
  `export const current = { name: 'get_current_weather', description: 'Current weather for a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
     execute: async ({ city }) => { globalThis.__flowscoutRunCalls = (globalThis.__flowscoutRunCalls ?? 0) + 1; return { city, tempC: 7, sky: 'rain' }; } };`,
);
const CONFIG = join(dir, 'tools.config.json');
writeFileSync(CONFIG, JSON.stringify({ version: 1, sources: [{ type: 'functions', module: 'tools.mjs' }] }));

let llm: TestLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

describe('flowscout run', () => {
  it('answers with the offline policy, names it, lists the calls and writes the trace', async () => {
    const traceFile = join(dir, 'trace.json');
    const res = await cli([
      'run',
      LINEAR,
      '--tools',
      CONFIG,
      '--query',
      'What is the weather in Oslo right now?',
      '--model',
      'offline',
      '--trace',
      traceFile,
    ]);
    expect(res.status).toBe(0);
    expect(res.out).toMatch(/^policy: offline policy \(no LLM\)\n/);
    expect(res.out).toContain(
      '1. get_current_weather {"city":"Oslo"} → ok (live): {"city":"Oslo","tempC":7,"sky":"rain"}',
    );
    expect(res.out).toMatch(/current {12}tool ok \d+ ms/);
    const trace = JSON.parse(readFileSync(traceFile, 'utf8'));
    expect(trace).toMatchObject({
      policy: 'offline policy (no LLM)',
      status: 'ok',
      calls: [{ tool: 'get_current_weather', args: { city: 'Oslo' } }],
    });

    const before = (globalThis as Record<string, unknown>).__flowscoutRunCalls;
    const again = await cli(['run', LINEAR, '--tools', CONFIG, '--query', 'Oslo?', '--trace', traceFile]);
    expect(again.status).toBe(2);
    expect(again.err).toContain('already exists; not overwriting it');
    expect((globalThis as Record<string, unknown>).__flowscoutRunCalls).toBe(before);
  });

  it('runs the LLM policy against an OpenAI-compatible server and prints its label and usage', async () => {
    llm = await startTestLlmServer({
      script: [
        { text: '1. look up Oslo' },
        { json: { calls: [{ tool: 'get_current_weather', args: { city: 'Oslo' } }] } },
        { text: 'It is 7 °C and raining in Oslo.' },
      ],
    });
    const res = await cli([
      'run',
      LINEAR,
      '--tools',
      CONFIG,
      '--query',
      'Weather in Oslo?',
      '--model',
      llm.spec(),
      '--json',
    ]);
    expect(res.status).toBe(0);
    const trace = JSON.parse(res.out);
    expect(trace.policy).toBe(`LLM policy (${llm.spec()})`);
    expect(trace.answer).toBe('It is 7 °C and raining in Oslo.');
    expect(trace.totals).toMatchObject({ llmCalls: 3, inputTokens: 30, outputTokens: 15 });
    expect(trace.toolStats).toMatchObject({ calls: 1, errors: 0 });
  });

  it('exits 1 with the reason when the run ends in error', async () => {
    llm = await startTestLlmServer({
      script: [
        { text: 'plan' },
        { json: { calls: [{ tool: 'get_current_weather', args: { city: 'Oslo' } }] } },
        { status: 400, body: { error: { message: 'context length exceeded' } } },
      ],
    });
    const res = await cli(['run', LINEAR, '--tools', CONFIG, '--query', 'Weather in Oslo?', '--model', llm.spec()]);
    expect(res.status).toBe(1);
    expect(res.out).toContain("run failed: exit node 'answer' failed:");
    expect(res.out).toContain('answer:\n  (no answer)');
  });

  it('stops when --budget-calls runs out: a clear message, exit 4 (a budget stop, not an error), and nothing run after the refused request', async () => {
    llm = await startTestLlmServer({
      script: [
        { text: '1. look up Oslo' },
        { json: { calls: [{ tool: 'get_current_weather', args: { city: 'Oslo' } }] } },
        { text: 'never sent' },
      ],
    });
    const before = (globalThis as Record<string, unknown>).__flowscoutRunCalls;
    const res = await cli([
      'run',
      LINEAR,
      '--tools',
      CONFIG,
      '--query',
      'Weather in Oslo?',
      '--model',
      llm.spec(),
      '--budget-calls',
      '1',
    ]);
    expect(res.status).toBe(4);
    expect(res.err).toContain('run stopped: budget exhausted: 1 of 1 model calls used; the run has no answer.');
    expect(res.err).toContain('raise the budget (--budget-calls');
    expect(res.out).toBe('');
    expect(llm.requests).toHaveLength(1);
    expect((globalThis as Record<string, unknown>).__flowscoutRunCalls).toBe(before);
  });

  it('refuses a model URL with credentials before anything runs, without printing them', async () => {
    llm = await startTestLlmServer({ script: [{ text: 'never sent' }] });
    const withCredentials = llm.spec().replace('http://', 'http://someone:s3cret-pw@');
    const before = (globalThis as Record<string, unknown>).__flowscoutRunCalls;
    const res = await cli([
      'run',
      LINEAR,
      '--tools',
      CONFIG,
      '--query',
      'Weather in Oslo?',
      '--model',
      withCredentials,
    ]);
    expect(res.status).toBe(2);
    expect(res.err).toContain('error [MODEL_CONFIG]: the model server URL in the model string carries credentials');
    expect(res.err).toContain('Remove "user:password@" from the URL');
    expect(res.err).not.toContain('s3cret-pw');
    expect(res.out).toBe('');
    expect(llm.requests).toHaveLength(0);
    expect((globalThis as Record<string, unknown>).__flowscoutRunCalls).toBe(before);
  });

  it("a server that accepts and never answers: each attempt ends at --model-timeout, every retry is announced on stderr, and the run stops after one call's attempts", async () => {
    llm = await startTestLlmServer({ script: () => ({ fault: 'hang' }) });
    const res = await cli([
      'run',
      LINEAR,
      '--tools',
      CONFIG,
      '--query',
      'Weather in Oslo?',
      '--model',
      llm.spec(),
      '--model-timeout',
      '0.2',
    ]);
    expect(res.status).toBe(3);
    const retries = res.err.split('\n').filter((l) => l.startsWith('retrying '));
    expect(retries).toHaveLength(3);
    expect(retries[0]).toMatch(
      /^retrying openai-compatible:.*#test-model in \d+ ms \(no answer within 200 ms; retry 1 of 3\)$/,
    );
    expect(res.err).toMatch(
      /error \[MODEL_UNAVAILABLE\]: stopped: model '.*' failed after 4 attempts: no answer within 200 ms/,
    );
    expect(res.err).toContain('--model-timeout');
    // One call's four attempts, then nothing more: the later nodes never asked the silent server.
    expect(llm.requests).toHaveLength(4);
  });

  it('refuses a malformed key (the documentation placeholder) before any request, naming the variable, not the key', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-…');
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    const res = await cli(['run', LINEAR, '--tools', CONFIG, '--query', 'q', '--model', 'openai:gpt-4o-mini']).finally(
      () => vi.unstubAllEnvs(),
    );
    expect(res.status).toBe(2);
    expect(res.err).toContain(
      "error [MODEL_CONFIG]: OPENAI_API_KEY cannot be a key for model 'openai:gpt-4o-mini': character 4 of it is '…' (an ellipsis)",
    );
    expect(res.err).toContain('placeholder from the documentation');
  });

  it('refuses a workflow whose tool hints are not in the tool config, and a descriptor file as --tools', async () => {
    const res = await cli([
      'run',
      join(ROOT, 'test/fixtures/workflows/valid/conditional-branch.json'),
      '--tools',
      CONFIG,
      '--query',
      'q',
    ]);
    expect(res.status).toBe(2);
    expect(res.err).toMatch(
      /error \[INVALID_WORKFLOW\].*conditional-branch\.json: the workflow is not valid[\s\S]*tool 'get_forecast' used by node 'forecast' is not available/,
    );
    const res2 = await cli([
      'run',
      LINEAR,
      '--tools',
      join(ROOT, 'test/fixtures/workflows/tools.json'),
      '--query',
      'q',
    ]);
    expect(res2.status).toBe(2);
    expect(res2.err).toContain('the tool config is not valid: this file is a list of tool descriptors');
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('refuses an empty --query before running anything (serve refuses one the same way)', async () => {
    delete (globalThis as { __flowscoutRunCalls?: number }).__flowscoutRunCalls;
    const res = await cli(['run', LINEAR, '--tools', CONFIG, '--query', '   ']);
    expect(res.status).toBe(2);
    expect(res.err).toContain('error [INVALID_INPUT]: --query is empty');
    expect((globalThis as { __flowscoutRunCalls?: number }).__flowscoutRunCalls).toBeUndefined();
  });
});
