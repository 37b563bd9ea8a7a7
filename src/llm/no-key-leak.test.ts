import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type ScriptedReply, type TestLlmServer } from '../../test/support/llm-server.js';
import { isFlowScoutError } from '../errors/index.js';
import type { ToolNode, Workflow } from '../graph/schema.js';
import { createLlmPolicy } from '../policies/llm-policy.js';
import { executeWorkflow } from '../runtime/execute.js';
import { createToolRegistry } from '../tools/registry.js';
import { createLlmClient } from './client.js';
import { resolveModel } from './resolve-model.js';
import { scrubHeaders, scrubSecrets } from './secrets.js';
import { planToolAnswer } from '../../test/support/workflows.js';

const KEY = 'sk-proj-SECRETabcdefghij0123456789';
const UNKNOWN_KEY = 'sk-live-OTHERsecret99887766';

let server: TestLlmServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('API keys never leave the process', () => {
  it('scrubs known secrets, key-shaped strings and credential headers', () => {
    expect(
      scrubSecrets(`key ${KEY} and Bearer abcdefgh12345678 and api_key=zq8Rk2Lm9Xv4Tw7 and ${UNKNOWN_KEY}`, [KEY]),
    ).toBe('key [redacted] and Bearer [redacted] and api_key=[redacted] and [redacted]');
    // An assigned value that reads as data (a public demo key in a tool's output) is not the user's key.
    expect(scrubSecrets('try it with api_key=public-demo-key-123', [KEY])).toBe(
      'try it with api_key=public-demo-key-123',
    );
    expect(scrubHeaders({ Authorization: `Bearer ${KEY}`, 'x-api-key': 'abc', 'x-request-id': 'r1' })).toEqual({
      Authorization: '[redacted]',
      'x-api-key': '[redacted]',
      'x-request-id': 'r1',
    });
  });

  it('keeps the key out of errors, logs, plan results and request bodies when the server echoes it', async () => {
    server = await startTestLlmServer({
      script: (req): ScriptedReply => {
        const auth = String(req.headers.authorization ?? '');
        if (req.body?.messages?.some((m: { content: string }) => m.content.includes('plan-me'))) {
          return {
            status: 500,
            body: { error: { message: `upstream failed for ${auth}` } },
            headers: { 'x-echo': auth },
          };
        }
        return {
          status: 401,
          body: {
            error: { message: `Incorrect API key provided: ${auth.replace('Bearer ', '')}. Also ${UNKNOWN_KEY}` },
          },
          headers: { 'x-echo-auth': auth },
        };
      },
    });
    const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.baseURL };
    const model = await resolveModel('openai:gpt-4o-mini', { env });
    const logs: string[] = [];
    const client = createLlmClient({ model, env, maxRetries: 1, sleep: async () => {}, log: (l) => logs.push(l) });

    let err: unknown;
    try {
      await client.text({ prompt: 'hello' });
    } catch (e) {
      err = e;
    }
    expect(isFlowScoutError(err) && err.code).toBe('MODEL_ERROR');
    const e = err as Error & { describe(): string; details: unknown };
    const everything = [
      e.message,
      e.describe(),
      JSON.stringify(e.details),
      String(e.stack),
      JSON.stringify(e),
      ...logs,
    ].join('\n');
    expect(everything).toContain('Incorrect API key provided');
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(UNKNOWN_KEY);
    expect((e as { cause?: unknown }).cause).toBeUndefined();

    const policy = createLlmPolicy({ client });
    const node: ToolNode = { id: 'lookup', kind: 'tool', task: 'plan-me' };
    const workflow: Workflow = { version: 1, name: 'w', nodes: [node], edges: [] };
    const result = await policy.planToolCalls({
      query: 'q',
      workflow,
      inputs: [],
      context: 'q',
      scratch: new Map(),
      node,
      candidates: [
        {
          name: 'search',
          description: 'search',
          inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        },
      ],
      attempt: 1,
    });
    expect(result.error).toMatch(/failed after 2 attempts: server error \(HTTP 500\)/);
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect(logs.join('\n')).not.toContain(KEY);

    // The key travels only in the Authorization header, never in a body.
    expect(server.requests.length).toBeGreaterThan(0);
    for (const r of server.requests) {
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.raw).not.toContain(KEY);
    }
  });

  it('keeps the key out of a workflow trace when a node fails with an echoed key', async () => {
    server = await startTestLlmServer({
      script: (req, i): ScriptedReply => {
        if (i === 0) return { text: '1. look up the weather in Paris' };
        if (i === 1) return { json: { calls: [{ tool: 'get_current_weather', args: { city: 'Paris' } }] } };
        return {
          status: 401,
          body: { error: { message: `Incorrect API key provided: ${String(req.headers.authorization)}` } },
        };
      },
    });
    const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.baseURL };
    const client = createLlmClient({ model: await resolveModel('openai:gpt-4o-mini', { env }), env, maxRetries: 0 });
    const tools = createToolRegistry([
      {
        name: 'get_current_weather',
        description: 'Current weather for a city',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        execute: async (args) => `{'city': '${String(args.city)}', 'temp_c': 21}`,
      },
    ]);
    const workflow: Workflow = planToolAnswer({
      name: 'weather',
      tool: { id: 'current', task: 'Get the current weather', tools: ['get_current_weather'] },
    });
    const trace = await executeWorkflow(
      workflow,
      { query: 'Weather in Paris?' },
      { policy: createLlmPolicy({ client }), tools },
    );
    const answer = trace.observations.find((o) => o.nodeId === 'answer')!;
    expect(answer.status).toBe('error');
    expect(answer.error).toContain('Incorrect API key provided: Bearer [redacted]');
    expect(trace.calls).toEqual([
      expect.objectContaining({ tool: 'get_current_weather', args: { city: 'Paris' }, status: 'ok' }),
    ]);
    expect(JSON.stringify(trace)).not.toContain(KEY);
  });
});
