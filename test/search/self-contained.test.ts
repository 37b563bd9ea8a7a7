import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { evaluateWorkflow } from '../../src/evaluate/evaluate.js';
import { exportLangGraph } from '../../src/export/to-langgraph.js';
import type { Workflow } from '../../src/graph/schema.js';
import { createLexicalJudge } from '../../src/metrics/lexical-judge.js';
import { createOfflinePolicy } from '../../src/policies/offline/offline-policy.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import type { TaskRecord } from '../../src/records/schema.js';
import { compileWorkflow } from '../../src/runtime/compile.js';
import type { RunContext } from '../../src/runtime/run-state.js';
import type { Trace } from '../../src/runtime/trace.js';
import { loadToolConfig } from '../../src/tools/load-tool-config.js';
import { captureIO } from '../support/cli-io.js';
import { writeSearchFixture, type SearchFixture } from './fixture.js';

/**
 * A searched workflow stands alone and carries no record text: its compiled module and its LangGraph
 * export make the same calls as `eval` on the same records with no other file, and none of them
 * holds a request, an e-mail address or a user id of the records it was searched on.
 */

type Runner = (query: string, context: RunContext) => Promise<Trace>;
const here = (rel: string) => pathToFileURL(fileURLToPath(new URL(rel, import.meta.url))).href;

let fx: SearchFixture;
let out: string;
let records: TaskRecord[];
const emails: string[] = [];
const userIds: string[] = [];

beforeAll(async () => {
  fx = writeSearchFixture({ records: 24 });
  // Every request names its customer, as agent logs do: an e-mail address and a user id of its own.
  records = (await readRecordsFile(fx.records)).records.map((r, i) => {
    const email = `customer.${i}.${(i * 7919) % 1000}@mail.example.org`;
    const user = `usr-${48210 + i * 13}`;
    emails.push(email);
    userIds.push(user);
    return { ...r, query: `${r.query} (Customer ${email}, user id ${user}.)` };
  });
  writeFileSync(fx.records, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  out = join(fx.dir, 'searched');
  const io = captureIO();
  expect(
    await runCli(
      [
        'search',
        '--records',
        fx.records,
        '--tools',
        fx.tools,
        '--seed',
        '3',
        '--iterations',
        '4',
        '--patience',
        '4',
        '--out',
        out,
        '--db',
        join(fx.dir, 's.db'),
      ],
      io,
    ),
    io.errors(),
  ).toBe(0);
}, 300_000);

async function load(code: string, name: string): Promise<Runner> {
  const file = join(fx.dir, name);
  writeFileSync(file, code);
  return ((await import(pathToFileURL(file).href)) as { run: Runner }).run;
}

const callsOf = (t: Trace) => t.calls.map((c) => ({ tool: c.tool, args: c.args, status: c.status }));

describe('a searched workflow, offline', () => {
  it('writes no side file, and its compiled module and LangGraph export make the same calls as eval on the test records', async () => {
    expect(existsSync(join(out, 'learned.records.jsonl'))).toBe(false);
    const best = JSON.parse(readFileSync(join(out, 'best.workflow.json'), 'utf8')) as Workflow;
    expect(best).not.toHaveProperty('learned');
    expect(best.meta?.search ?? {}).not.toHaveProperty('learnedFrom');
    // The module the search wrote is the compiler's output for that workflow.
    expect(readFileSync(join(out, 'best.workflow.ts'), 'utf8')).toBe(compileWorkflow(best));

    const testFile = join(out, 'test.records.jsonl');
    const test = (await readRecordsFile(testFile)).records;
    const tools = await loadToolConfig(fx.tools);
    const policy = createOfflinePolicy({ tools: tools.list() });
    const evaluated = await evaluateWorkflow(best, test, {
      policy,
      tools,
      judge: createLexicalJudge(),
      concurrency: 2,
      feedback: false,
    });
    // `eval` on the command line scores the same (it builds the same policy from the workflow alone).
    const ev = captureIO();
    expect(
      await runCli(['eval', join(out, 'best.workflow.json'), '--records', testFile, '--tools', fx.tools, '--json'], ev),
      ev.errors(),
    ).toBe(0);
    expect(JSON.parse(ev.text()).tc).toBeCloseTo(evaluated.tc, 12);

    const compiled = await load(
      compileWorkflow(best, { runtimeImport: here('../../src/runtime/compiled-support.ts') }),
      'compiled.ts',
    );
    const langgraph = await load(
      exportLangGraph(best, { runtimeImport: here('../../src/export/langgraph-support.ts') }),
      'langgraph.ts',
    );
    let calls = 0;
    for (const r of evaluated.perRecord) {
      const record = test.find((x) => x.id === r.id)!;
      const context: RunContext = { policy: createOfflinePolicy({ tools: tools.list() }), tools, recordId: record.id };
      const expected = callsOf(r.trace);
      calls += expected.length;
      expect(callsOf(await compiled(record.query, context)), `compiled, ${record.id}`).toEqual(expected);
      expect(callsOf(await langgraph(record.query, context)), `langgraph, ${record.id}`).toEqual(expected);
    }
    expect(calls).toBeGreaterThan(test.length);
    await tools.close();
  }, 300_000);

  it('holds no request, e-mail address or user id of the records in the workflow, its compiled module or its export', () => {
    const best = JSON.parse(readFileSync(join(out, 'best.workflow.json'), 'utf8')) as Workflow;
    const texts = {
      workflow: readFileSync(join(out, 'best.workflow.json'), 'utf8'),
      compiled: readFileSync(join(out, 'best.workflow.ts'), 'utf8'),
      langgraph: exportLangGraph(best),
    };
    for (const [what, text] of Object.entries(texts)) {
      const lower = text.toLowerCase();
      for (const r of records) {
        expect(text.includes(r.query), `${what} holds the request of ${r.id}`).toBe(false);
        // Not even a long stretch of one: the request up to its customer note.
        const stretch = r.query.slice(0, 60);
        expect(
          text.includes(stretch) || text.includes(JSON.stringify(stretch).slice(1, -1)),
          `${what} holds the start of the request of ${r.id}`,
        ).toBe(false);
      }
      for (const e of emails) expect(lower.includes(e), `${what} holds ${e}`).toBe(false);
      for (const u of userIds) expect(lower.includes(u), `${what} holds ${u}`).toBe(false);
      expect(/@mail\.example\.org/.test(text), `${what} holds an e-mail domain of the records`).toBe(false);
    }
  });
});
