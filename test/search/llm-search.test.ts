import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { captureIO as capture } from '../support/cli-io.js';
import { openStore } from '../../src/store/open-store.js';
import {
  startTestLlmServer,
  type RecordedRequest,
  type ScriptedReply,
  type TestLlmServer,
} from '../support/llm-server.js';

/**
 * The LLM paths of the search end to end: the LLM policy runs every node and
 * the LLM optimizer proposes every edit, through the real AI SDK client, against the local test
 * server; one plan is repaired, one is not (a failed expansion the search records and passes); a
 * call budget that runs out mid-search ends with exit 0, a clear message and the best-so-far files;
 * and the API key, echoed back by the "model", never reaches the store.
 */

const KEY = 'sk-test-SEARCHsecret0123456789';

function domain(): { dir: string; records: string; tools: string } {
  const dir = mkdtempSync(join(tmpdir(), 'flowscout-llm-search-'));
  writeFileSync(
    join(dir, 'tools.mjs'),
    "export const lookup = { name: 'lookup', description: 'Looks up the value stored under a key.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, execute: async ({ q }) => `value of ${q} is 42` };\n",
  );
  writeFileSync(
    join(dir, 'tools.config.json'),
    JSON.stringify({ version: 1, sources: [{ type: 'functions', module: './tools.mjs' }] }),
  );
  const lines = Array.from({ length: 8 }, (_, i) =>
    JSON.stringify({
      id: `r${i}`,
      query: `What is the value of key k${i}?`,
      reference: `The value of k${i} is 42.`,
      calls: [{ tool: 'lookup', args: { q: `k${i}` }, output: `value of k${i} is 42` }],
    }),
  );
  writeFileSync(join(dir, 'records.jsonl'), `${lines.join('\n')}\n`);
  return { dir, records: join(dir, 'records.jsonl'), tools: join(dir, 'tools.config.json') };
}

const text = (req: RecordedRequest) =>
  (req.body?.messages ?? []).map((m: { content: unknown }) => String(m.content)).join('\n');
const GOOD = (k: number) => ({
  summary: `stress the value (${k})`,
  edits: [
    { op: 'set_prompt', id: 'synthesize', prompt: `Answer {{query}} from {{inputs}}. State the value first (${k}).` },
  ],
});
const BAD = { summary: 'remove the plan', edits: [{ op: 'remove_node', id: 'plan' }] };

/** Answers like a model would, by what is asked: tool plans, edit plans, JSON nodes, text nodes. */
function script(): (req: RecordedRequest) => ScriptedReply {
  let plans = 0;
  return (req) => {
    const name = req.body?.response_format?.json_schema?.name as string | undefined;
    const prompt = text(req);
    if (name === 'tool_calls')
      return { json: { calls: [{ tool: 'lookup', args: { q: /key (k\d+)/.exec(prompt)?.[1] ?? 'k0' } }] } };
    if (name === 'edit_plan') {
      const k = plans++;
      // 1st expansion: invalid, repaired; 2nd: invalid twice (failed expansion); then valid plans.
      return { json: k === 0 ? BAD : k === 1 ? GOOD(1) : k === 2 || k === 3 ? BAD : GOOD(k) };
    }
    if (name) {
      const props = Object.keys(req.body.response_format.json_schema.schema?.properties ?? {});
      return { json: Object.fromEntries(props.map((p) => [p, true])) };
    }
    if (/tool results/i.test(prompt))
      return {
        text: `The value is 42 (${/key (k\d+)/.exec(prompt)?.[1]}). Auth was ${String(req.headers.authorization)}`,
      };
    return { text: '1. Look up the key.' };
  };
}

let server: TestLlmServer;
beforeEach(async () => {
  process.env.OPENAI_COMPATIBLE_API_KEY = KEY;
  server = await startTestLlmServer({ script: script() });
});
afterEach(async () => {
  delete process.env.OPENAI_COMPATIBLE_API_KEY;
  await server.close();
});

describe('search with the LLM policy and the LLM optimizer (local test server)', () => {
  it('runs a full small search: one plan repaired, one failed expansion passed over; no key in the store', async () => {
    const d = domain();
    const db = join(d.dir, 'llm.db');
    const io = capture();
    const args = [
      'search',
      '--records',
      d.records,
      '--tools',
      d.tools,
      '--model',
      server.spec(),
      '--judge-model',
      'offline',
      '--iterations',
      '3',
      '--patience',
      '3',
      '--seed',
      '2',
      '--db',
      db,
      '--out',
      join(d.dir, 'out'),
    ];
    expect(await runCli(args, io)).toBe(0);
    const out = io.all();
    if (process.env.SHOW_SEARCH_OUTPUT) console.log(out);
    expect(out).toContain(
      `policy: LLM policy (${server.spec()}) · judge: offline lexical judge · optimizer: LLM optimizer (${server.spec()})`,
    );
    expect(out).not.toContain('OFFLINE results');
    expect(out).toMatch(/ ok +.*stress the value \(1\) \[plan repaired after one round\]/);
    expect(out).toMatch(
      / failed +.*expansion failed: the optimizer's edit plan was invalid after one repair round: edit 1 of 1 \(remove_node 'plan'\)/,
    );
    expect(out).toMatch(/ ok +.*stress the value \(4\)/);
    expect(server.requests.some((r) => r.body?.response_format?.json_schema?.name === 'tool_calls')).toBe(true);
    const doc = JSON.parse(readFileSync(join(d.dir, 'out', 'search.json'), 'utf8'));
    expect(doc.candidates.map((c: { error?: string }) => Boolean(c.error))).toEqual([false, false, true, false]);
    expect(doc.labels.policy).toBe(`LLM policy (${server.spec()})`);

    const store = openStore(db);
    const answers = store.loadEvaluations(doc.run, 'c0').map((e) => e.answer);
    store.close();
    expect(answers[0]).toContain('The value is 42');
    expect(answers[0]).toContain('[redacted]');
    for (const f of [db, `${db}-wal`, `${db}-shm`])
      if (existsSync(f)) expect(readFileSync(f).includes(KEY), f).toBe(false);
  });

  it('stops cleanly when the call budget runs out mid-search: exit 0, a clear message, best-so-far files', async () => {
    const d = domain();
    const db = join(d.dir, 'budget.db');
    const io = capture();
    const out = join(d.dir, 'out');
    // G0 costs 3 requests per record (plan, tool plan, answer) on 4 D_opt + 2 D_val records = 18; iteration 1 costs the
    // optimizer's 2 requests and 6 re-run answers (the memo keeps plan and tool nodes) = 26; iteration 2 is a failed
    // expansion (2 requests) = 28; iteration 3 runs out while its child is evaluated, and that child is discarded.
    const args = [
      'search',
      '--records',
      d.records,
      '--tools',
      d.tools,
      '--model',
      server.spec(),
      '--judge-model',
      'offline',
      '--iterations',
      '10',
      '--seed',
      '2',
      '--db',
      db,
      '--out',
      out,
      '--budget-calls',
      '30',
    ];
    expect(await runCli(args, io)).toBe(0);
    const text = io.all();
    if (process.env.SHOW_SEARCH_OUTPUT) console.log(text);
    expect(text).toMatch(
      /Budget exhausted: budget exhausted: 30 of 30 model calls used\. The search stopped cleanly; the best candidate so far was saved\./,
    );
    expect(text).toContain('test set: not run (the budget ran out; the test set was not run)');
    for (const f of ['best.workflow.json', 'best.workflow.ts', 'best.workflow.mmd', 'search.json'])
      expect(existsSync(join(out, f))).toBe(true);
    const doc = JSON.parse(readFileSync(join(out, 'search.json'), 'utf8'));
    const store = openStore(db);
    expect(store.getRun(doc.run)).toMatchObject({
      status: 'stopped',
      stopReason: 'budget exhausted: 30 of 30 model calls used',
      iterationsDone: 2,
    });
    store.close();
    expect(doc.candidates).toHaveLength(3);
    expect(text).toMatch(/^ +2 +c0 → c2 +failed/m);
    // The 30 budgeted requests, and the start-up check of the model before the search (not charged).
    expect(server.requests.length).toBe(31);
  });

  it("stops with the model's error when its calls keep failing (circuit breaker), stores the run as failed, and resumes once the model works again", async () => {
    const d = domain();
    const db = join(d.dir, 'breaker.db');
    const out = join(d.dir, 'out');
    const inner = script();
    let broken = false;
    let armed = true;
    let editPlans = 0;
    let brokeAt = -1;
    // The start-up check, G0 and iteration 1's edit plan (2 requests, one repaired) succeed; then, at the first
    // request of iteration 1's child (the first request after the repaired plan), the key is revoked: every
    // request from then on is a 401.
    await server.close();
    server = await startTestLlmServer({
      script: (req, i) => {
        const isPlan = req.body?.response_format?.json_schema?.name === 'edit_plan';
        if (armed && !broken && !isPlan && editPlans >= 2) {
          broken = true;
          brokeAt = i;
        }
        if (isPlan && !broken) editPlans++;
        return broken
          ? { status: 401, body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } } }
          : inner(req);
      },
    });
    const args = [
      'search',
      '--records',
      d.records,
      '--tools',
      d.tools,
      '--model',
      server.spec(),
      '--judge-model',
      'offline',
      '--iterations',
      '3',
      '--patience',
      '3',
      '--seed',
      '2',
      '--db',
      db,
      '--out',
      out,
      '--breaker',
      '4',
    ];
    const io = capture();
    expect(await runCli(args, io), io.all()).toBe(3);
    const err = io.errors();
    expect(err).toMatch(
      /error \[MODEL_UNAVAILABLE\]: stopped: the last 4 model calls all failed the same way — model '.*' failed after 1 attempt: HTTP 401: Incorrect API key provided\./,
    );
    expect(err).toContain('The provider rejected the credentials');
    expect(err).toContain(`the run is stored as failed and resumes with: flowscout search --resume`);
    const sent = server.requests.length;
    // It stopped within the breaker's window, not after scoring every record of the iteration with zeros.
    expect(brokeAt).toBeGreaterThan(0);
    expect(sent - brokeAt).toBeLessThanOrEqual(4 + 3);
    const runId = /Starting search (run-[\w-]+)/.exec(io.text())![1]!;
    const store = openStore(db);
    const run = store.getRun(runId);
    expect(run.status).toBe('failed');
    expect(run.stopReason).toMatch(/HTTP 401/);
    // The iteration the breaker cut short was discarded: only G0 is stored.
    expect(store.loadCandidates(runId).map((c) => c.id)).toEqual(['c0']);
    store.close();
    // G0 was written as the best so far when it was scored.
    expect(JSON.parse(readFileSync(join(out, 'search.json'), 'utf8')).best).toBe('c0');

    const written = capture();
    expect(await runCli(['runs', 'show', runId, '--db', db, '--write', join(d.dir, 'again')], written)).toBe(0);
    expect(written.text()).toMatch(
      /wrote .*best\.workflow\.json, .*best\.workflow\.ts, .*best\.workflow\.mmd, .*search\.json, .*test\.records\.jsonl \(best c0, validation \d\.\d{3}; run failed\)/,
    );

    // The key works again.
    broken = false;
    armed = false;
    const healed = capture();
    const resumed = await runCli(['search', '--resume', runId, '--db', db], healed);
    expect(resumed, healed.all()).toBe(0);
    expect(healed.text()).toContain(`Resuming search ${runId}`);
    const again = openStore(db);
    expect(again.getRun(runId).status).toBe('done');
    again.close();
  });
});
