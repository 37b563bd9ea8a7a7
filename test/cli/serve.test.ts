import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';
import { startTestLlmServer, type ScriptedReply } from '../support/llm-server.js';
import { planToolAnswer } from '../support/workflows.js';
import type { Workflow } from '../../src/graph/schema.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import type { TaskRecord } from '../../src/records/schema.js';
import { executeWorkflow } from '../../src/runtime/execute.js';
import { indexFit } from '../../src/retrieval/hand-off.js';
import { createToolIndex } from '../../src/retrieval/tool-index.js';
import { customerAnswer } from '../../src/serve/customer-answer.js';
import { DEFAULT_MAX_OUTPUT_CHARS, OUTPUT_CUT_MARKER } from '../../src/runtime/output-bound.js';
import type { RunContext } from '../../src/runtime/run-state.js';
import type { Trace } from '../../src/runtime/trace.js';
import { openStore } from '../../src/store/open-store.js';
import { loadToolConfig } from '../../src/tools/load-tool-config.js';

/**
 * `flowscout serve` and `flowscout export` as a user runs them: the searched Travel workflow
 * (test/fixtures/workflows/searched/) over replay of the bundled Travel records, served by a child
 * process and called by the MCP SDK's own client over stdio and over Streamable HTTP.
 */

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/flowscout.js');
const WORKFLOW = join(ROOT, 'test/fixtures/workflows/searched/travel-best.workflow.json');
const dir = mkdtempSync(join(tmpdir(), 'flowscout-cli-serve-'));
const TOOLS = join(dir, 'travel/tools.config.json');
let records: TaskRecord[] = [];

beforeAll(async () => {
  const imported = await cli(['import', 'traject', '--domain', 'Travel', '--out', join(dir, 'travel')]);
  expect(imported.status).toBe(0);
  records = (await readRecordsFile(join(dir, 'travel/records.jsonl'))).records;
});

/**
 * What the interpreter answers in-process for `query`, and what serve says of that run to the
 * customer (`served`: its answer without the sentences that name a node, and the parts it could not
 * serve in the request's words): the served answer must be that.
 */
async function expected(query: string): Promise<Trace & { served: string }> {
  const registry = await loadToolConfig(TOOLS);
  try {
    const workflow = JSON.parse(readFileSync(WORKFLOW, 'utf8')) as Workflow;
    const trace = await executeWorkflow(
      workflow,
      { query },
      { policy: createOfflinePolicy({ tools: registry.list() }), tools: registry },
    );
    const tools = registry.list();
    const fit = indexFit(
      createToolIndex(tools),
      tools.map((t) => t.name),
    );
    const served = customerAnswer(trace, workflow, fit).text;
    for (const id of workflow.nodes.map((n) => n.id).filter((x) => /[_\d]/.test(x))) expect(served).not.toContain(id);
    return { ...trace, served };
  } finally {
    await registry.close();
  }
}

type Structured = {
  answer: string;
  policy: string;
  calls: Array<{ tool: string; args: Record<string, unknown>; status: string }>;
  nodes: Array<{ id: string; status: string; durationMs: number }>;
};

describe('flowscout serve --mcp stdio', () => {
  it('an MCP client lists the tool, calls it, gets the answer and the calls; two calls at once both succeed; each run is in the store', async () => {
    const db = join(dir, 'served.db');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', WORKFLOW, '--tools', TOOLS, '--mcp', 'stdio', '--db', db],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'serve-cli-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['travel_g0_search_c8']);
      expect(tools[0]!.description).toMatch(/^Initial workflow mined from 56 past runs of the Travel domain/);

      const [q1, q2, q3] = [records[2]!.query, records[4]!.query, records[9]!.query];
      const one = await client.callTool({ name: 'travel_g0_search_c8', arguments: { query: q1 } });
      const want = await expected(q1);
      expect(one.isError).toBeFalsy();
      expect(one.content).toEqual([{ type: 'text', text: want.served }]);
      const s = one.structuredContent as Structured;
      expect(s.policy).toBe('offline policy (no LLM)');
      expect(s.calls).toEqual(want.calls.map((c) => ({ tool: c.tool, args: c.args, status: c.status })));
      expect(s.calls.length).toBeGreaterThan(0);
      expect(s.nodes.map((n) => n.id)).toEqual(want.observations.map((o) => o.nodeId));

      const [two, three] = await Promise.all(
        [q2, q3].map((query) => client.callTool({ name: 'travel_g0_search_c8', arguments: { query } })),
      );
      expect(two!.isError).toBeFalsy();
      expect(three!.isError).toBeFalsy();
      expect((two!.structuredContent as Structured).answer).toBe((await expected(q2)).served);
      expect((three!.structuredContent as Structured).answer).toBe((await expected(q3)).served);
    } finally {
      await client.close();
    }
    expect(stderr).toContain('policy: offline policy (no LLM) — OFFLINE (no LLM)');
    const store = openStore(db, { mustExist: true });
    const served = store.listServedRuns();
    store.close();
    expect(served.map((r) => r.transport)).toEqual(['mcp-stdio', 'mcp-stdio', 'mcp-stdio']);
    expect(served.map((r) => r.query).sort()).toEqual([records[2]!.query, records[4]!.query, records[9]!.query].sort());
    expect((served.find((r) => r.query === records[2]!.query)!.trace as Trace).observations.length).toBe(10);
  });
});

describe('flowscout serve --mcp http --http', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('serves MCP at /mcp and POST /run on one port it prints, and stops on SIGTERM', async () => {
    child = spawn(
      process.execPath,
      [BIN, 'serve', WORKFLOW, '--tools', TOOLS, '--mcp', 'http', '--http', '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child!.stderr!.on('data', (c: Buffer) => {
        stderr += c.toString();
        const m = /HTTP: POST (http:\/\/127\.0\.0\.1:\d+)\/run/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    expect(stderr).toContain(`MCP over Streamable HTTP: ${url}/mcp (tool 'travel_g0_search_c8')`);
    const query = records[2]!.query;
    const want = await expected(query);

    const client = new Client({ name: 'serve-cli-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    const [viaMcp, viaMcp2] = await Promise.all([
      client.callTool({ name: 'travel_g0_search_c8', arguments: { query } }),
      client.callTool({ name: 'travel_g0_search_c8', arguments: { query: records[4]!.query } }),
    ]);
    await client.close();
    expect(viaMcp.content).toEqual([{ type: 'text', text: want.served }]);
    expect((viaMcp.structuredContent as Structured).calls.map((c) => c.tool)).toEqual(want.calls.map((c) => c.tool));
    expect(viaMcp2.isError).toBeFalsy();

    const res = await fetch(`${url}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { answer: string; calls: unknown[]; observations: unknown[] };
    expect(body.answer).toBe(want.served);
    expect(body.calls).toEqual(want.calls);
    expect(body.observations).toHaveLength(10);
    // A query on which every call of the run fails (replay has no answer for them) is no ok answer.
    const failed = await fetch(`${url}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: records[5]!.query }),
    });
    expect(failed.status).toBe(502);
    expect(((await failed.json()) as { status: string }).status).toBe('error');

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    child = undefined;
  });

  it('refuses a bad --mcp value and stdio together with --http, before serving anything', async () => {
    const bad = await cli(['serve', WORKFLOW, '--tools', TOOLS, '--mcp', 'sse']);
    expect(bad.status).toBe(2);
    expect(bad.err).toContain('--mcp must be "stdio" or "http" (got \'sse\')');
    const both = await cli(['serve', WORKFLOW, '--tools', TOOLS, '--mcp', 'stdio', '--http']);
    expect(both.status).toBe(2);
    expect(both.err).toContain('--mcp stdio and --http cannot be served by one process');
    const name = await cli(['serve', WORKFLOW, '--tools', TOOLS, '--http', '--name', 'has spaces']);
    expect(name.err).toContain("'has spaces' cannot name an MCP tool");
  });
});

describe('flowscout serve --model (an OpenAI-compatible server)', () => {
  it('serves concurrent requests through one model client: never more model requests in flight than its limit', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const held: Array<() => void> = [];
    const release = () => held.splice(0).forEach((go) => go());
    const llm = await startTestLlmServer({
      script: async (req): Promise<ScriptedReply> => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        // Hold replies until five requests are waiting (or a moment passes): past a limit of 4, the fifth would be seen here.
        await new Promise<void>((resolve) => {
          held.push(resolve);
          if (held.length >= 5) release();
          else setTimeout(release, 100);
        });
        inFlight--;
        const text = JSON.stringify(req.body).includes('Answer') ? 'The answer.' : '1. Think.';
        return { text };
      },
    });
    const wf = join(dir, 'llm-only.json');
    writeFileSync(
      wf,
      JSON.stringify({
        version: 1,
        name: 'llm only',
        nodes: [
          { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
          {
            id: 'answer',
            kind: 'llm',
            role: 'synthesize',
            prompt: 'Answer {{query}} from {{inputs}}',
            output: { type: 'text' },
          },
        ],
        edges: [{ from: 'plan', to: 'answer', kind: 'data' }],
      }),
    );
    const child = spawn(
      process.execPath,
      [BIN, 'serve', wf, '--tools', TOOLS, '--http', '--port', '0', '--model', llm.spec('test-model')],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FLOWSCOUT_MODEL: '' } },
    );
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr!.on('data', (c: Buffer) => {
          stderr += c.toString();
          const m = /HTTP: POST (http:\/\/127\.0\.0\.1:\d+)\/run/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
      });
      expect(stderr).not.toContain('OFFLINE');
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          fetch(`${url}/run`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: `Question ${i}?` }),
          }).then((r) => r.json() as Promise<{ answer: string; usage: { llmCalls: number } }>),
        ),
      );
      expect(answers.map((a) => a.answer)).toEqual(Array(8).fill('The answer.'));
      expect(answers.every((a) => a.usage.llmCalls === 2)).toBe(true);
      expect(llm.requests).toHaveLength(16);
      // The shared client's limiter (4 requests at once by default) holds across the 8 served runs.
      expect(maxInFlight).toBeLessThanOrEqual(4);
    } finally {
      child.kill('SIGTERM');
      await llm.close();
    }
  });
});

describe('flowscout export --to langgraph', () => {
  it('writes a LangGraph module that runs on @langchain/langgraph and answers as the interpreter does; keeps an existing file', async () => {
    const out = join(dir, 'graph.ts');
    const runtime = pathToFileURL(join(ROOT, 'src/export/langgraph-support.ts')).href;
    const res = await cli(['export', WORKFLOW, '--to', 'langgraph', '-o', out, '--runtime-import', runtime]);
    expect(res.status).toBe(0);
    expect(res.out).toContain(
      `wrote ${out}: Travel G0 → search c8, a LangGraph StateGraph of 12 nodes (10 workflow nodes + begin/end)`,
    );
    const code = readFileSync(out, 'utf8');
    expect(code).toContain('import { Annotation, END, START, StateGraph } from "@langchain/langgraph";');
    expect(code).toContain('results: Annotation<Record<string, NodeObservation>>({ reducer: mergeNodeResults');
    const mod = (await import(pathToFileURL(out).href)) as { run: (q: string, c: RunContext) => Promise<Trace> };
    const registry = await loadToolConfig(TOOLS);
    try {
      const query = records[2]!.query;
      const trace = await mod.run(query, { policy: createOfflinePolicy({ tools: registry.list() }), tools: registry });
      const want = await expected(query);
      expect(trace.answer).toBe(want.answer);
      expect(trace.calls).toEqual(want.calls);
    } finally {
      await registry.close();
    }
    writeFileSync(out, '// mine');
    const again = await cli(['export', WORKFLOW, '--to', 'langgraph', '-o', out]);
    expect(again.status).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('// mine');
    const other = await cli(['export', WORKFLOW, '--to', 'crewai']);
    expect(other.status).toBe(2);
    expect(other.err).toContain("cannot export to 'crewai'");
    expect(existsSync(join(dir, 'crewai'))).toBe(false);
  });
});

describe('flowscout serve --db with a tool that answers 10 MB', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('answers over HTTP and stores the run with the output cut once, each saying where and how much was cut', async () => {
    const big = join(dir, 'big');
    mkdirSync(big, { recursive: true });
    writeFileSync(
      join(big, 'tools.mjs'),
      `export const dump = { name: 'dump_table', description: 'Dumps the whole table.', inputSchema: { type: 'object', properties: {} },
         execute: async () => 'row;'.repeat(${(10 * 1024 * 1024) / 4}) };`,
    );
    writeFileSync(
      join(big, 'tools.config.json'),
      JSON.stringify({ version: 1, sources: [{ type: 'functions', module: 'tools.mjs' }] }),
    );
    const workflow: Workflow = planToolAnswer({
      name: 'dump',
      plan: { prompt: 'plan {{query}}' },
      tool: { id: 'dump', task: 'dump the table', tools: ['dump_table'] },
      answer: { prompt: 'answer {{query}} from {{inputs}}' },
    });
    writeFileSync(join(big, 'dump.workflow.json'), JSON.stringify(workflow));
    const db = join(big, 'served.db');
    child = spawn(
      process.execPath,
      [BIN, 'serve', join(big, 'dump.workflow.json'), '--tools', join(big, 'tools.config.json')].concat([
        '--http',
        '--port',
        '0',
        '--db',
        db,
        '--model',
        'offline',
      ]),
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child!.stderr!.on('data', (c: Buffer) => {
        stderr += c.toString();
        const m = /HTTP: POST (http:\/\/127\.0\.0\.1:\d+)\/run/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
    });
    const res = await fetch(`${url}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'dump the whole table' }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    // One copy of the cut output (200 000 characters and its marker), not three copies of 10 MB.
    expect(text.length).toBeLessThan(DEFAULT_MAX_OUTPUT_CHARS + 20_000);
    const body = JSON.parse(text) as { calls: Array<{ output: string }>; observations: Array<{ calls?: unknown[] }> };
    expect(body.calls[0]!.output).toMatch(
      new RegExp(`^(row;)+row;?.*characters of text; characters ${DEFAULT_MAX_OUTPUT_CHARS + 1}–${10 * 1024 * 1024} `),
    );
    expect(body.calls[0]!.output).toContain(OUTPUT_CUT_MARKER);
    expect(body.observations.find((o) => o.calls)!.calls).toEqual([
      expect.objectContaining({ tool: 'dump_table', output: { sameAs: 'calls[0].output' } }),
    ]);

    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    child = undefined;
    const store = openStore(db, { mustExist: true });
    const [row] = store.listServedRuns();
    store.close();
    const stored = JSON.stringify(row!.trace);
    expect(stored.length).toBeLessThan(DEFAULT_MAX_OUTPUT_CHARS + 20_000);
    expect((row!.trace as Trace).calls[0]!.output).toContain(
      `${OUTPUT_CUT_MARKER}: the output was ${10 * 1024 * 1024}`,
    );
  });
});
