import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  generateWorkflow,
  HOSTILE,
  pick,
  scriptedPolicy,
  scriptedTools,
} from '../../test/support/generated-workflows.js';
import type { Workflow } from '../graph/schema.js';
import { validateWorkflow } from '../graph/validate.js';
import { eventLogFromRecords } from '../mining/event-log/from-records.js';
import { discoverProcessTree } from '../mining/inductive/discover.js';
import { processTreeToWorkflow } from '../mining/to-workflow.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import type { ExecutionPolicy } from '../policies/types.js';
import { BUNDLED_DOMAINS, bundledTrajectPaths } from '../records/bundled.js';
import { importTraject } from '../records/import/traject.js';
import type { TaskRecord } from '../records/schema.js';
import { splitRecords } from '../records/split.js';
import { FlowScoutError } from '../errors/index.js';
import { compileWorkflow } from '../runtime/compile.js';
import { createMemoryMemo } from '../runtime/memo.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { executeWorkflow } from '../runtime/execute.js';
import type { RunContext } from '../runtime/run-state.js';
import type { Trace } from '../runtime/trace.js';
import { createToolRegistry } from '../tools/registry.js';
import { createReplayTools } from '../tools/replay-tools.js';
import type { ToolDescriptor, ToolSpec } from '../contracts/tools.js';
import { createRandom } from '../util/random.js';
import { exportLangGraph } from './to-langgraph.js';

/**
 * The three ways to run a workflow — the interpreter, the compiled TypeScript module, and the
 * LangGraph.js module from `flowscout export --to langgraph` running on the real
 * `@langchain/langgraph` — must make the same calls in the same order and give the same answer.
 * Checked on generated workflows (conditional branches, parallel fan-out, retries, `calls: 'many'`,
 * hostile strings) under a scripted policy, and with the offline policy over replay of the recorded
 * TRAJECT-Bench responses on the mined G0 of every bundled domain, on a searched Travel workflow and
 * on generated workflows over the Travel tools.
 */

type Runner = (query: string, context: RunContext) => Promise<Trace>;
const here = (rel: string) => pathToFileURL(fileURLToPath(new URL(rel, import.meta.url))).href;
const compiledRuntime = here('../runtime/compiled-support.ts');
const langgraphRuntime = here('./langgraph-support.ts');
const dir = mkdtempSync(join(tmpdir(), 'flowscout-langgraph-'));
let files = 0;

async function load(code: string): Promise<Runner> {
  const file = join(dir, `module-${files++}.ts`);
  writeFileSync(file, code);
  return ((await import(pathToFileURL(file).href)) as { run: Runner }).run;
}

async function threeWays(workflow: Workflow) {
  return {
    compiled: await load(compileWorkflow(workflow, { runtimeImport: compiledRuntime })),
    langgraph: await load(exportLangGraph(workflow, { runtimeImport: langgraphRuntime })),
  };
}

/** A trace without what legitimately differs between runs (timings). */
function comparable(t: Trace): unknown {
  return JSON.parse(JSON.stringify(t, (k, v: unknown) => (k === 'durationMs' || k === 'startedAtMs' ? undefined : v)));
}

const callsOf = (t: Trace) => t.calls.map((c) => ({ tool: c.tool, args: c.args, status: c.status }));

/** Runs the three and asserts the same calls in the same order, the same answer, and in fact the same trace. */
async function expectSame(
  workflow: Workflow,
  runners: { compiled: Runner; langgraph: Runner },
  query: string,
  context: RunContext,
): Promise<Trace> {
  const interpreted = await executeWorkflow(
    workflow,
    { query, ...(context.recordId !== undefined ? { recordId: context.recordId } : {}) },
    context,
  );
  const compiled = await runners.compiled(query, context);
  const langgraph = await runners.langgraph(query, context);
  expect(callsOf(compiled)).toEqual(callsOf(interpreted));
  expect(callsOf(langgraph)).toEqual(callsOf(interpreted));
  expect(compiled.answer).toBe(interpreted.answer);
  expect(langgraph.answer).toBe(interpreted.answer);
  expect(comparable(compiled)).toEqual(comparable(interpreted));
  expect(comparable(langgraph)).toEqual(comparable(interpreted));
  return interpreted;
}

interface Seen {
  runs: number;
  skipped: number;
  errors: number;
  retries: number;
  many: number;
  calls: number;
  parallel: number;
  answered: number;
}
const seen = (): Seen => ({ runs: 0, skipped: 0, errors: 0, retries: 0, many: 0, calls: 0, parallel: 0, answered: 0 });

function count(s: Seen, workflow: Workflow, t: Trace): void {
  s.runs++;
  s.skipped += t.totals.skipped;
  s.errors += t.observations.filter((o) => o.status === 'error').length;
  s.retries += t.observations.filter((o) => o.attempts > 1).length;
  s.many += t.observations.filter((o) => (o.calls?.filter((c) => c.attempt === o.attempts).length ?? 0) > 1).length;
  s.calls += t.calls.length;
  if (t.answer.trim() !== '') s.answered++;
  // A node with two or more out-edges whose targets both ran: branches that ran side by side.
  const ran = new Set(t.observations.filter((o) => o.status !== 'skipped').map((o) => o.nodeId));
  for (const n of workflow.nodes)
    if (workflow.edges.filter((e) => e.from === n.id && ran.has(e.to)).length >= 2) s.parallel++;
}

const RETRY = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../test/fixtures/workflows/valid/retry.json', import.meta.url)), 'utf8'),
) as Workflow;

describe('the LangGraph export, the compiled module and the interpreter', () => {
  it('stop alike: a cancelled run ends `cancelled` with what ran so far, an exhausted budget rejects with BUDGET_EXHAUSTED', async () => {
    const runners = await threeWays(RETRY);
    const tool: ToolSpec = {
      name: 'search_flights',
      description: 'Flights.',
      inputSchema: { type: 'object', properties: {} },
      execute: async () => [],
    };
    // Cancelled from inside the retried tool's second attempt.
    const cancelling = () => {
      const controller = new AbortController();
      let attempts = 0;
      const policy = createScriptedPolicy({
        tool: (req) => {
          if (++attempts === 2) controller.abort();
          return [{ tool: req.candidates[0]!.name, args: {} }];
        },
      });
      return { policy, tools: createToolRegistry([tool]), signal: controller.signal };
    };
    const interpreted = await executeWorkflow(RETRY, { query: 'Flights to Oslo?' }, cancelling());
    const viaGraph = await runners.langgraph('Flights to Oslo?', cancelling());
    expect(interpreted).toMatchObject({ status: 'error', error: 'cancelled' });
    expect(viaGraph).toMatchObject({ status: 'error', error: 'cancelled' });
    expect(callsOf(viaGraph)).toEqual(callsOf(interpreted));
    expect(comparable(viaGraph)).toEqual(comparable(interpreted));

    const broke = () => ({
      policy: createScriptedPolicy({
        tool: () =>
          Promise.reject(new FlowScoutError({ code: 'BUDGET_EXHAUSTED', message: 'the run used its 1 LLM call' })),
      }),
      tools: createToolRegistry([tool]),
    });
    await expect(executeWorkflow(RETRY, { query: 'Flights?' }, broke())).rejects.toMatchObject({
      code: 'BUDGET_EXHAUSTED',
    });
    await expect(runners.compiled('Flights?', broke())).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    await expect(runners.langgraph('Flights?', broke())).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
  });

  it('reuse the node memo alike: a second run with a warm memo gives the same trace from cached nodes', async () => {
    const r = createRandom('langgraph-memo-v1');
    const workflow = generateWorkflow(r, 0);
    const runners = await threeWays(workflow);
    const interpreterMemo = createMemoryMemo();
    const graphMemo = createMemoryMemo();
    for (const round of [1, 2]) {
      const a = await executeWorkflow(
        workflow,
        { query: 'memo query' },
        { policy: scriptedPolicy, tools: createToolRegistry(scriptedTools), memo: interpreterMemo },
      );
      const b = await runners.langgraph('memo query', {
        policy: scriptedPolicy,
        tools: createToolRegistry(scriptedTools),
        memo: graphMemo,
      });
      expect(comparable(b)).toEqual(comparable(a));
      if (round === 2) expect(b.totals.cachedNodes).toBeGreaterThan(0);
    }
  });

  it('make the same calls in the same order and give the same answer on 30 generated workflows (scripted policy)', async () => {
    const r = createRandom('langgraph-differential-v1');
    const s = seen();
    for (let n = 0; n < 30; n++) {
      const workflow = generateWorkflow(r, n);
      expect(validateWorkflow(workflow)).toEqual([]);
      const runners = await threeWays(workflow);
      for (const query of [`query ${n}`, pick(r, HOSTILE)]) {
        const context: RunContext = {
          policy: scriptedPolicy,
          tools: createToolRegistry(scriptedTools),
          concurrency: 1 + r.int(4),
          recordId: `r${n}`,
        };
        count(s, workflow, await expectSame(workflow, runners, query, context));
      }
    }
    // The generator must exercise every rule, or the agreement proves little.
    expect(s.skipped).toBeGreaterThan(10);
    expect(s.errors).toBeGreaterThan(5);
    expect(s.retries).toBeGreaterThan(3);
    expect(s.many).toBeGreaterThan(3);
    expect(s.parallel).toBeGreaterThan(10);
    expect(s.calls).toBeGreaterThan(50);
  });

  describe('with the offline policy over replay of the recorded TRAJECT-Bench responses', () => {
    const domains = BUNDLED_DOMAINS.map((domain) => {
      const paths = bundledTrajectPaths(domain);
      const imported = importTraject(paths.trajQuery, paths.tools);
      const split = splitRecords(imported.records, { ratio: [5, 2, 3], seed: 0, by: 'record' });
      return { domain, records: imported.records, tools: imported.tools, split };
    });
    const env = (d: (typeof domains)[number]) => {
      const specs: ToolSpec[] = createReplayTools(d.records, d.tools);
      const policy: ExecutionPolicy = createOfflinePolicy({ tools: d.tools });
      return { specs, policy };
    };
    const check = async (workflow: Workflow, d: (typeof domains)[number], records: readonly TaskRecord[], s: Seen) => {
      const { specs, policy } = env(d);
      const runners = await threeWays(workflow);
      for (const rec of records) {
        const context: RunContext = { policy, tools: createToolRegistry(specs), recordId: rec.id };
        count(s, workflow, await expectSame(workflow, runners, rec.query, context));
      }
    };

    it('on the mined G0 of every bundled domain (Finance, Travel, Weather)', async () => {
      const s = seen();
      for (const d of domains) {
        const tree = discoverProcessTree(eventLogFromRecords(d.split.opt), { noiseThreshold: 0 });
        const g0 = processTreeToWorkflow(tree, {
          tools: d.tools,
          name: `${d.domain} G0`,
          domain: d.domain,
          log: eventLogFromRecords(d.split.opt),
        });
        await check(g0, d, d.split.test.slice(0, 8), s);
      }
      expect(s.runs).toBe(24);
      expect(s.answered).toBe(24);
      expect(s.calls).toBeGreaterThan(40);
    });

    it('on a searched Travel workflow (test/fixtures/workflows/searched/travel-best.workflow.json)', async () => {
      const file = fileURLToPath(
        new URL('../../test/fixtures/workflows/searched/travel-best.workflow.json', import.meta.url),
      );
      const workflow = JSON.parse(readFileSync(file, 'utf8')) as Workflow;
      const travel = domains.find((d) => d.domain === 'Travel')!;
      expect(validateWorkflow(workflow, travel.tools as ToolDescriptor[])).toEqual([]);
      const s = seen();
      await check(workflow, travel, travel.split.test.slice(0, 12), s);
      expect(s.answered).toBe(12);
      expect(s.calls).toBeGreaterThan(12);
    });

    it('on generated workflows over the Travel tools (conditional, parallel, retry, many calls)', async () => {
      const travel = domains.find((d) => d.domain === 'Travel')!;
      const r = createRandom('langgraph-offline-v1');
      const s = seen();
      for (let n = 0; n < 12; n++) {
        const workflow = generateWorkflow(r, n);
        await check(workflow, travel, [travel.split.test[n % travel.split.test.length]!], s);
      }
      expect(s.runs).toBe(12);
      expect(s.calls).toBeGreaterThan(12);
      expect(s.parallel).toBeGreaterThan(3);
      expect(s.skipped).toBeGreaterThan(3);
      expect(s.retries).toBeGreaterThan(0);
    });
  });
});
