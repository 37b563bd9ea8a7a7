import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { openStore } from '../../src/store/open-store.js';
import { spawnCli, type ChildCli } from '../support/child-cli.js';
import { captureIO } from '../support/cli-io.js';
import { startTestLlmServer, type RecordedRequest, type TestLlmServer } from '../support/llm-server.js';
import { testRedisUrl } from '../support/redis.js';

/**
 * The circuit breaker of `search --redis` sees the workers' model calls: a worker whose environment
 * holds a key the provider rejects makes every call of every job fail; the coordinator (whose own
 * key passed the start-up check) stops as one process does — exit 3, MODEL_UNAVAILABLE naming the
 * model and the provider's message without the key, the run stored as failed — instead of scoring
 * zeros. Once a worker with a working key is on the queue, `--resume` finishes the run, and the
 * failed jobs of the first attempt are run again rather than reused.
 */

const GOOD = 'sk-test-coordinatorGOOD0123456789';
const REVOKED = 'sk-test-workerREVOKED0123456789';

let url: string;
let server: TestLlmServer;
let dir: string;
let records: string;
let tools: string;
const workers: ChildCli[] = [];
const queue = `t-breaker-${randomBytes(3).toString('hex')}`;

const text = (req: RecordedRequest) =>
  (req.body?.messages ?? []).map((m: { content: unknown }) => String(m.content)).join('\n');
const revoked = (req: RecordedRequest) => String(req.headers.authorization).includes(REVOKED);

beforeAll(async () => {
  url = testRedisUrl();
  process.env.OPENAI_COMPATIBLE_API_KEY = GOOD;
  // A provider that rejects the revoked key (echoing it, as some do) and answers like a model otherwise.
  server = await startTestLlmServer({
    script: (req) => {
      if (revoked(req))
        return {
          status: 401,
          body: { error: { message: `Incorrect API key provided: ${REVOKED}.`, type: 'invalid_request_error' } },
        };
      const name = req.body?.response_format?.json_schema?.name as string | undefined;
      const prompt = text(req);
      const key = /key (k\d+)/.exec(prompt)?.[1] ?? 'k0';
      if (name === 'tool_calls') return { json: { calls: [{ tool: 'lookup', args: { q: key } }] } };
      if (name === 'edit_plan')
        return {
          json: {
            summary: 'state the value first',
            edits: [
              {
                op: 'set_prompt',
                id: 'synthesize',
                prompt: 'Answer {{query}} from {{inputs}}. State the value first.',
              },
            ],
          },
        };
      if (name)
        return {
          json: Object.fromEntries(
            Object.keys(req.body.response_format.json_schema.schema?.properties ?? {}).map((p) => [p, true]),
          ),
        };
      if (/tool results/i.test(prompt)) return { text: `The value of ${key} is 42.` };
      return { text: '1. Look up the key.' };
    },
  });
  dir = mkdtempSync(join(tmpdir(), 'flowscout-breaker-'));
  writeFileSync(
    join(dir, 'tools.mjs'),
    "export const lookup = { name: 'lookup', description: 'Looks up the value stored under a key.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, execute: async ({ q }) => `value of ${q} is 42` };\n",
  );
  tools = join(dir, 'tools.config.json');
  writeFileSync(tools, JSON.stringify({ version: 1, sources: [{ type: 'functions', module: './tools.mjs' }] }));
  const lines = Array.from({ length: 8 }, (_, i) =>
    JSON.stringify({
      id: `r${i}`,
      query: `What is the value of key k${i}?`,
      reference: `The value of k${i} is 42.`,
      calls: [{ tool: 'lookup', args: { q: `k${i}` }, output: `value of k${i} is 42` }],
    }),
  );
  records = join(dir, 'records.jsonl');
  writeFileSync(records, `${lines.join('\n')}\n`);
});

afterAll(async () => {
  delete process.env.OPENAI_COMPATIBLE_API_KEY;
  await Promise.all(workers.map((w) => w.stop()));
  await server?.close();
});

async function startWorker(key: string): Promise<ChildCli> {
  const w = spawnCli(
    ['worker', '--redis', url, '--queue', queue, '--tools', tools, '--model', server.spec(), '--concurrency', '1'],
    { OPENAI_COMPATIBLE_API_KEY: key },
  );
  workers.push(w);
  await w.waitFor(/connected to redis:\/\//);
  return w;
}

describe("search --redis: the circuit breaker sees the workers' model calls", () => {
  it("stops with the workers' model error (exit 3), stores the run as failed, and resumes once a worker has a working key", async () => {
    const bad = await startWorker(REVOKED);
    const db = join(dir, 'breaker.db');
    const out = join(dir, 'out');
    const args = [
      'search',
      '--records',
      records,
      '--tools',
      tools,
      '--model',
      server.spec(),
      '--judge-model',
      'offline',
      '--iterations',
      '2',
      '--patience',
      '2',
      '--seed',
      '2',
      '--db',
      db,
      '--out',
      out,
      '--breaker',
      '2',
      '--redis',
      url,
      '--queue',
      queue,
    ];
    const io = captureIO();
    expect(await runCli(args, io), io.all()).toBe(3);
    const err = io.errors();
    expect(err).toMatch(
      /error \[MODEL_UNAVAILABLE\]: stopped: the last 2 model calls all failed the same way — model '[^']+' failed after 1 attempt: HTTP 401: Incorrect API key provided/,
    );
    expect(err).toContain('The provider rejected the credentials');
    expect(err).toContain('continue where it stopped (a search: --resume <run>)');
    // The key the worker sent (and the provider echoed) is in no message.
    expect(io.all()).not.toContain(REVOKED);
    expect(bad.output()).not.toContain(REVOKED);
    // Only the coordinator's start-up check got an answer; every request a worker sent was rejected.
    const rejected = server.requests.filter(revoked).length;
    expect(rejected).toBeGreaterThanOrEqual(2);
    expect(server.requests.length - rejected).toBe(1);
    // It stopped at G0's D_opt evaluation instead of scoring D_opt and D_val (6 records) with zeros.
    expect(rejected).toBeLessThan(6);
    const runId = /Starting search (run-[\w-]+)/.exec(io.text())![1]!;
    const store = openStore(db);
    try {
      const run = store.getRun(runId);
      expect(run.status).toBe('failed');
      expect(run.stopReason).toMatch(/HTTP 401/);
      expect(run.stopReason).not.toContain(REVOKED);
      // The evaluation the breaker cut short was discarded: nothing scored zero was stored.
      expect(store.loadCandidates(runId)).toEqual([]);
    } finally {
      store.close();
    }

    // The revoked worker goes; one with a working key comes. The run continues where it stopped.
    await bad.stop();
    await startWorker(GOOD);
    const healed = captureIO();
    expect(
      await runCli(['search', '--resume', runId, '--db', db, '--redis', url, '--queue', queue], healed),
      healed.all(),
    ).toBe(0);
    expect(healed.text()).toContain(`Resuming search ${runId}`);
    const again = openStore(db);
    try {
      expect(again.getRun(runId).status).toBe('done');
      // G0 was scored from fresh runs on the working worker, not from the first attempt's failed jobs
      // (whose records made no tool call: TC 0): every D_opt and D_val record made its call.
      const g0 = again.loadCandidates(runId).find((c) => c.id === 'c0')!;
      expect(g0.optTc).toBe(1);
      expect(g0.valTc).toBe(1);
    } finally {
      again.close();
    }
    expect(JSON.parse(readFileSync(join(out, 'search.json'), 'utf8')).best).toBeDefined();
  });
});
