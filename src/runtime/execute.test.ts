import { describe, expect, it } from 'vitest';
import type { Edge, LlmNode, ToolNode, Workflow } from '../graph/schema.js';
import { createToolRegistry } from '../tools/registry.js';
import type { ToolSpec } from '../contracts/tools.js';
import { executeWorkflow } from './execute.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import type { Trace } from './trace.js';

const plan: LlmNode = { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } };
const synth: LlmNode = {
  id: 'synth',
  kind: 'llm',
  role: 'synthesize',
  prompt: 'Answer {{query}} from {{inputs}}',
  output: { type: 'text' },
};
const judge: LlmNode = {
  id: 'judge',
  kind: 'llm',
  role: 'judge',
  prompt: 'Go?',
  output: { type: 'json', schema: { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] } },
};
const tool = (id: string, extra: Partial<ToolNode> = {}): ToolNode => ({
  id,
  kind: 'tool',
  task: `do ${id}`,
  tools: [id],
  ...extra,
});
const data = (from: string, to: string, when?: Edge['when']): Edge => ({
  from,
  to,
  kind: 'data',
  ...(when ? { when } : {}),
});
const wf = (nodes: Workflow['nodes'], edges: Edge[]): Workflow => ({ version: 1, name: 'test', nodes, edges });

/** A tool named `name` that records its calls and answers `answer(args, n)` (n = 1-based call count). */
function spy(
  name: string,
  answer: (args: Record<string, unknown>, n: number) => unknown = (args) => ({ from: name, args }),
  delayMs = 0,
) {
  const calls: Array<Record<string, unknown>> = [];
  const spec: ToolSpec = {
    name,
    description: name,
    inputSchema: { type: 'object', properties: {} },
    // Reads: these tests are about execution rules; grounded writes have their own tests.
    effect: { effect: 'read', from: 'test' },
    execute: async (args) => {
      calls.push(args);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const out = answer(args, calls.length);
      if (out instanceof Error) throw out;
      return out;
    },
  };
  return { spec, calls };
}

const status = (t: Trace) => Object.fromEntries(t.observations.map((o) => [o.nodeId, o.status]));
const goPolicy = (go: boolean) =>
  createScriptedPolicy({
    llm: (req) =>
      req.node.id === 'judge' ? { go } : `${req.node.id} saw [${req.inputs.map((i) => i.nodeId).join(',')}]`,
  });

describe('executeWorkflow: execution rules', () => {
  it('runs a sequence and passes live data predecessors as context', async () => {
    const a = spy('a');
    const seen: string[] = [];
    const policy = createScriptedPolicy({
      llm: (req) => {
        seen.push(req.context);
        return req.node.id === 'plan' ? 'PLAN-TEXT' : 'final answer';
      },
      tool: (req) => [{ tool: 'a', args: { q: req.query, fromPlan: req.inputs[0]?.output } }],
    });
    const t = await executeWorkflow(
      wf([plan, tool('a'), synth], [data('plan', 'a'), data('a', 'synth')]),
      { query: 'weather in Oslo?' },
      { policy, tools: createToolRegistry([a.spec]) },
    );
    expect(t.status).toBe('ok');
    expect(t.answer).toBe('final answer');
    expect(a.calls).toEqual([{ q: 'weather in Oslo?', fromPlan: 'PLAN-TEXT' }]);
    expect(t.calls).toEqual([
      {
        tool: 'a',
        args: { q: 'weather in Oslo?', fromPlan: 'PLAN-TEXT' },
        status: 'ok',
        output: { from: 'a', args: { q: 'weather in Oslo?', fromPlan: 'PLAN-TEXT' } },
      },
    ]);
    expect(seen[1]).toContain('Query: weather in Oslo?');
    expect(seen[1]).toContain('[a] (tool, ok)\na {"fromPlan":"PLAN-TEXT","q":"weather in Oslo?"} → {"from":"a"');
    expect(seen[1]).not.toContain('PLAN-TEXT\n'); // plan is not a data predecessor of synth
    expect(t.policy).toBe('scripted policy (tests)');
  });

  it('takes a conditional branch both ways and skips the dead one, transitively', async () => {
    const w = wf(
      [plan, judge, tool('yes'), tool('yes2'), tool('no'), synth],
      [
        data('plan', 'judge'),
        data('judge', 'yes', { kind: 'field', field: 'go', op: 'eq', value: true }),
        data('yes', 'yes2'),
        data('yes2', 'synth'),
        data('judge', 'no', { kind: 'field', field: 'go', op: 'eq', value: false }),
        data('no', 'synth'),
      ],
    );
    for (const go of [true, false]) {
      const tools = [spy('yes'), spy('yes2'), spy('no')];
      const t = await executeWorkflow(
        w,
        { query: 'q' },
        { policy: goPolicy(go), tools: createToolRegistry(tools.map((x) => x.spec)) },
      );
      expect(status(t)).toEqual({
        plan: 'ok',
        judge: 'ok',
        yes: go ? 'ok' : 'skipped',
        yes2: go ? 'ok' : 'skipped',
        no: go ? 'skipped' : 'ok',
        synth: 'ok',
      });
      expect(t.calls.map((c) => c.tool)).toEqual(go ? ['yes', 'yes2'] : ['no']);
      expect(t.answer).toBe(go ? 'synth saw [yes2]' : 'synth saw [no]');
      expect(tools.map((x) => x.calls.length)).toEqual(go ? [1, 1, 0] : [0, 0, 1]);
    }
  });

  it('skips the exit when no in-edge is live, and reports it', async () => {
    const w = wf(
      [plan, judge, tool('yes'), synth],
      [
        data('plan', 'judge'),
        data('judge', 'yes', { kind: 'field', field: 'go', op: 'eq', value: true }),
        data('yes', 'synth'),
      ],
    );
    const t = await executeWorkflow(
      w,
      { query: 'q' },
      { policy: goPolicy(false), tools: createToolRegistry([spy('yes').spec]) },
    );
    expect(status(t)).toMatchObject({ yes: 'skipped', synth: 'skipped' });
    expect(t).toMatchObject({
      status: 'error',
      error: "exit node 'synth' was skipped: none of its in-edges was live",
      answer: '',
    });
  });

  it('routes around a failing tool with status guards', async () => {
    const w = wf(
      [plan, tool('flaky'), tool('fallback'), synth],
      [
        data('plan', 'flaky'),
        data('flaky', 'fallback', { kind: 'status', status: 'error' }),
        data('flaky', 'synth', { kind: 'status', status: 'ok' }),
        data('fallback', 'synth'),
      ],
    );
    const t = await executeWorkflow(
      w,
      { query: 'q' },
      {
        policy: goPolicy(true),
        tools: createToolRegistry([spy('flaky', () => new Error('503')).spec, spy('fallback').spec]),
      },
    );
    expect(status(t)).toEqual({ plan: 'ok', flaky: 'error', fallback: 'ok', synth: 'ok' });
    expect(t.observations.find((o) => o.nodeId === 'flaky')?.error).toBe("flaky: 'flaky' failed: 503");
    expect(t.answer).toBe('synth saw [fallback]');
    expect(t.calls.map((c) => [c.tool, c.status])).toEqual([
      ['flaky', 'error'],
      ['fallback', 'ok'],
    ]);
  });

  it('runs unguarded fan-out concurrently under the bound and the join once', async () => {
    const names = ['f1', 'f2', 'f3', 'f4'];
    let running = 0;
    let peak = 0;
    const specs = names.map((n) => ({
      ...spy(n).spec,
      execute: async () => {
        peak = Math.max(peak, ++running);
        await new Promise((r) => setTimeout(r, 25));
        running--;
        return n;
      },
    }));
    let synthRuns = 0;
    const policy = createScriptedPolicy({
      llm: (req) =>
        req.node.id === 'synth' ? `joined ${++synthRuns} ${req.inputs.map((i) => i.nodeId).join(',')}` : 'p',
    });
    const w = wf(
      [plan, ...names.map((n) => tool(n)), synth],
      [...names.map((n) => data('plan', n)), ...names.map((n) => data(n, 'synth'))],
    );
    for (const [concurrency, expected] of [
      [4, 4],
      [2, 2],
      [1, 1],
    ] as const) {
      peak = 0;
      synthRuns = 0;
      const t = await executeWorkflow(w, { query: 'q' }, { policy, tools: createToolRegistry(specs), concurrency });
      expect(peak).toBe(expected);
      expect(synthRuns).toBe(1);
      expect(t.answer).toBe('joined 1 f1,f2,f3,f4');
      expect(t.calls.map((c) => c.tool)).toEqual(names);
    }
  });

  it('a wide fan-out waiting for slots prints no "possible memory leak" warning', async () => {
    const names = Array.from({ length: 32 }, (_, i) => `w${String(i).padStart(2, '0')}`);
    const specs = names.map((n) => spy(n, () => n, 2).spec);
    const policy = createScriptedPolicy({ llm: () => 'ok' });
    const w = wf(
      [plan, ...names.map((n) => tool(n)), synth],
      [...names.map((n) => data('plan', n)), ...names.map((n) => data(n, 'synth'))],
    );
    const warnings: string[] = [];
    const onWarning = (e: Error) => warnings.push(`${e.name}: ${e.message}`);
    process.on('warning', onWarning);
    try {
      const t = await executeWorkflow(
        w,
        { query: 'q' },
        { policy, tools: createToolRegistry(specs), concurrency: 2, signal: new AbortController().signal },
      );
      expect(t.calls).toHaveLength(32);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((m) => m.includes('MaxListeners'))).toEqual([]);
  });

  it("retries until success, passing the previous error, and keeps every attempt's calls in π̂ (failed ones too)", async () => {
    const flaky = spy('flaky', (_a, n) => (n < 3 ? new Error(`fail ${n}`) : 'ok at 3'));
    const errorsSeen: Array<string | undefined> = [];
    const policy = createScriptedPolicy({
      tool: (req) => {
        errorsSeen.push(req.previousError);
        return [{ tool: 'flaky', args: { attempt: req.attempt } }];
      },
    });
    const w = wf(
      [plan, tool('flaky', { retry: { attempts: 4, on: 'error' } }), synth],
      [data('plan', 'flaky'), data('flaky', 'synth')],
    );
    const t = await executeWorkflow(w, { query: 'q' }, { policy, tools: createToolRegistry([flaky.spec]) });
    const obs = t.observations.find((o) => o.nodeId === 'flaky')!;
    expect(obs).toMatchObject({ status: 'ok', attempts: 3 });
    expect(obs.calls?.map((c) => [c.attempt, c.status])).toEqual([
      [1, 'error'],
      [2, 'error'],
      [3, 'ok'],
    ]);
    expect(errorsSeen).toEqual([undefined, "flaky: 'flaky' failed: fail 1", "flaky: 'flaky' failed: fail 2"]);
    expect(t.calls.map((c) => [c.args.attempt, c.status])).toEqual([
      [1, 'error'],
      [2, 'error'],
      [3, 'ok'],
    ]);
    expect(t.calls[2]).toEqual({ tool: 'flaky', args: { attempt: 3 }, status: 'ok', output: 'ok at 3' });
  });

  it('stops retrying when attempts are exhausted, and retries empty results with error-or-empty', async () => {
    const broken = spy('broken', () => new Error('down'));
    const w = wf(
      [plan, tool('broken', { retry: { attempts: 2, on: 'error' } }), synth],
      [data('plan', 'broken'), data('broken', 'synth')],
    );
    const t = await executeWorkflow(
      w,
      { query: 'q' },
      { policy: goPolicy(true), tools: createToolRegistry([broken.spec]) },
    );
    expect(t.observations.find((o) => o.nodeId === 'broken')).toMatchObject({
      status: 'error',
      attempts: 2,
      error: "broken: 'broken' failed: down",
    });
    expect(broken.calls).toHaveLength(2);
    expect(t.status).toBe('ok');

    const empty = spy('empty', (_a, n) => (n === 1 ? [] : ['filled']));
    const w2 = wf(
      [plan, tool('empty', { retry: { attempts: 3, on: 'error-or-empty' } }), synth],
      [data('plan', 'empty'), data('empty', 'synth')],
    );
    const t2 = await executeWorkflow(
      w2,
      { query: 'q' },
      { policy: goPolicy(true), tools: createToolRegistry([empty.spec]) },
    );
    expect(t2.observations.find((o) => o.nodeId === 'empty')).toMatchObject({
      status: 'ok',
      attempts: 2,
      output: [{ tool: 'empty', status: 'ok', output: ['filled'] }],
    });
    const w3 = wf(
      [plan, tool('empty', { retry: { attempts: 3, on: 'error' } }), synth],
      [data('plan', 'empty'), data('empty', 'synth')],
    );
    const t3 = await executeWorkflow(
      w3,
      { query: 'q' },
      { policy: goPolicy(true), tools: createToolRegistry([spy('empty', () => []).spec]) },
    );
    expect(t3.observations.find((o) => o.nodeId === 'empty')).toMatchObject({ status: 'ok', attempts: 1 });
  });

  it("issues every planned call for calls: 'many' and only the first for 'one'", async () => {
    const a = spy('a');
    const policy = createScriptedPolicy({ tool: () => [1, 2, 3].map((i) => ({ tool: 'a', args: { i } })) });
    for (const calls of ['many', 'one'] as const) {
      a.calls.length = 0;
      const t = await executeWorkflow(
        wf([plan, tool('a', { calls }), synth], [data('plan', 'a'), data('a', 'synth')]),
        { query: 'q' },
        { policy, tools: createToolRegistry([a.spec]) },
      );
      expect(t.calls.map((c) => c.args)).toEqual(calls === 'many' ? [{ i: 1 }, { i: 2 }, { i: 3 }] : [{ i: 1 }]);
      expect(a.calls).toHaveLength(calls === 'many' ? 3 : 1);
    }
  });

  it("asks for the rest of a 'many' plan after its calls ran, with their outputs, and bounds how often", async () => {
    // A lookup whose id the first call returns: the second call is planned once that result is known.
    const a = spy('a', (args) => ({ id: `id-${String(args.i)}` }));
    const seen: unknown[][] = [];
    const chained = createScriptedPolicy({
      tool: () => ({
        calls: [{ tool: 'a', args: { i: 1 } }],
        rest: async (made) => {
          seen.push(made.map((c) => c.output));
          const last = made.at(-1)!.output as { id: string };
          return { calls: [{ tool: 'a', args: { i: last.id } }] };
        },
      }),
    });
    const w = wf([plan, tool('a', { calls: 'many' }), synth], [data('plan', 'a'), data('a', 'synth')]);
    const t = await executeWorkflow(w, { query: 'q' }, { policy: chained, tools: createToolRegistry([a.spec]) });
    expect(t.calls.map((c) => c.args)).toEqual([{ i: 1 }, { i: 'id-1' }]);
    expect(seen).toEqual([[{ id: 'id-1' }]]);
    // A policy whose plan never ends is stopped: the first calls and 32 more, and the node stands.
    const endless = createScriptedPolicy({
      tool: () => {
        const more = async (made: readonly unknown[]) => ({
          calls: [{ tool: 'a', args: { i: made.length + 1 } }],
          rest: more,
        });
        return { calls: [{ tool: 'a', args: { i: 0 } }], rest: more };
      },
    });
    const long = await executeWorkflow(
      w,
      { query: 'q' },
      { policy: endless, tools: createToolRegistry([spy('a').spec]) },
    );
    expect(long.calls).toHaveLength(33);
    expect(long.observations.find((o) => o.nodeId === 'a')).toMatchObject({ status: 'ok' });
    // A rest that throws ends the plan; the calls made stand.
    const failing = createScriptedPolicy({
      tool: () => ({
        calls: [{ tool: 'a', args: { i: 1 } }],
        rest: async () => {
          throw new Error('model unreachable');
        },
      }),
    });
    const cut = await executeWorkflow(
      w,
      { query: 'q' },
      { policy: failing, tools: createToolRegistry([spy('a').spec]) },
    );
    expect(cut.calls.map((c) => c.args)).toEqual([{ i: 1 }]);
    expect(cut.observations.find((o) => o.nodeId === 'a')).toMatchObject({ status: 'ok' });
  });

  it('limits candidates to the hint and refuses a call outside them', async () => {
    let candidates: string[] = [];
    const policy = createScriptedPolicy({
      tool: (req) => {
        candidates = req.candidates.map((c) => c.name);
        return [{ tool: 'b', args: {} }];
      },
    });
    const b = spy('b');
    const t = await executeWorkflow(
      wf([plan, tool('a'), synth], [data('plan', 'a'), data('a', 'synth')]),
      { query: 'q' },
      { policy, tools: createToolRegistry([spy('a').spec, b.spec]) },
    );
    expect(candidates).toEqual(['a']);
    expect(b.calls).toHaveLength(0);
    expect(t.observations[1]).toMatchObject({
      status: 'error',
      error: "b: tool 'b' is not a candidate of node 'a' (candidates: a)",
    });
    const noHint = await executeWorkflow(
      wf([plan, tool('a', { tools: ['missing'] }), synth], [data('plan', 'a'), data('a', 'synth')]),
      { query: 'q' },
      { policy, tools: createToolRegistry([spy('a').spec, b.spec]) },
    );
    expect(candidates).toEqual(['a', 'b']);
    expect(noHint.observations[1]?.status).toBe('ok');
  });

  it('records a throwing LLM node as an error and continues; a failing exit fails the trace', async () => {
    const w = wf([plan, tool('a'), synth], [data('plan', 'a'), data('a', 'synth')]);
    const planFails = createScriptedPolicy({
      llm: (req) => {
        if (req.node.id === 'plan') throw new Error('429 Too Many Requests');
        return 'done';
      },
    });
    const t = await executeWorkflow(
      w,
      { query: 'q' },
      { policy: planFails, tools: createToolRegistry([spy('a').spec]) },
    );
    expect(t.observations[0]).toMatchObject({
      status: 'error',
      error: "scripted policy (tests) failed at llm node 'plan': 429 Too Many Requests",
    });
    expect(status(t)).toEqual({ plan: 'error', a: 'ok', synth: 'ok' });
    expect(t).toMatchObject({ status: 'ok', answer: 'done' });
    const synthFails = createScriptedPolicy({
      llm: (req) => {
        if (req.node.id === 'synth') throw new Error('model down');
        return 'x';
      },
    });
    const t2 = await executeWorkflow(
      w,
      { query: 'q' },
      { policy: synthFails, tools: createToolRegistry([spy('a').spec]) },
    );
    expect(t2).toMatchObject({
      status: 'error',
      error: "exit node 'synth' failed: scripted policy (tests) failed at llm node 'synth': model down",
      answer: '',
    });
  });

  it('cancels promptly even when a tool ignores the signal', async () => {
    const hang: ToolSpec = { ...spy('hang').spec, execute: () => new Promise(() => {}) };
    const ac = new AbortController();
    const w = wf([plan, tool('hang'), synth], [data('plan', 'hang'), data('hang', 'synth')]);
    setTimeout(() => ac.abort(), 30);
    const started = Date.now();
    const t = await executeWorkflow(
      w,
      { query: 'q' },
      { policy: goPolicy(true), tools: createToolRegistry([hang]), signal: ac.signal },
    );
    expect(Date.now() - started).toBeLessThan(2000);
    expect(t).toMatchObject({ status: 'error', error: 'cancelled' });
    expect(t.observations.map((o) => [o.nodeId, o.status, o.error])).toEqual([
      ['plan', 'ok', undefined],
      ['hang', 'error', 'cancelled'],
      ['synth', 'skipped', 'cancelled'],
    ]);
  });

  it('truncates a node context to contextChars', async () => {
    const contexts: string[] = [];
    const big = spy('big', () => 'x'.repeat(5000));
    const policy = createScriptedPolicy({
      llm: (req) => {
        contexts.push(req.context);
        return 'ok';
      },
    });
    await executeWorkflow(
      wf([plan, tool('big'), synth], [data('plan', 'big'), data('big', 'synth')]),
      { query: 'the query' },
      { policy, tools: createToolRegistry([big.spec]), contextChars: 500 },
    );
    expect(contexts[1]!.length).toBeLessThanOrEqual(500);
    expect(contexts[1]).toMatch(/^Query: the query\n\n\[big\] \(tool, ok\)\nbig \{\} → x+ … \[truncated \d+ chars\]$/);
  });

  it('is deterministic for a deterministic policy (timings aside)', async () => {
    const w = wf(
      [plan, tool('f1'), tool('f2'), synth],
      [data('plan', 'f1'), data('plan', 'f2'), data('f1', 'synth'), data('f2', 'synth')],
    );
    const runOnce = () =>
      executeWorkflow(
        w,
        { query: 'q' },
        {
          policy: goPolicy(true),
          tools: createToolRegistry([spy('f1', undefined, 7).spec, spy('f2', undefined, 1).spec]),
        },
      );
    const strip = (t: Trace) =>
      JSON.parse(JSON.stringify(t, (k, v) => (k === 'durationMs' || k === 'startedAtMs' ? 0 : v)));
    expect(strip(await runOnce())).toEqual(strip(await runOnce()));
  });
});

describe('a workflow object run again', () => {
  it('is validated once per content: changed in place, it is validated (and refused, or run as it now is) again', async () => {
    const a = spy('a');
    const tools = createToolRegistry([a.spec]);
    const policy = createScriptedPolicy({ llm: () => 'done', tool: () => [{ tool: 'a', args: {} }] });
    const w = wf([plan, tool('a'), synth], [data('plan', 'a'), data('a', 'synth')]);
    const first = await executeWorkflow(w, { query: 'q' }, { policy, tools });
    expect(first.status).toBe('ok');
    expect((await executeWorkflow(w, { query: 'q' }, { policy, tools })).workflowHash).toBe(first.workflowHash);
    // An edge to a node that does not exist: the same object now fails validation.
    w.edges.push(data('a', 'nowhere'));
    await expect(executeWorkflow(w, { query: 'q' }, { policy, tools })).rejects.toThrow(/nowhere/);
    w.edges.pop();
    // A changed task: the run's hash is the new workflow's.
    (w.nodes[1] as ToolNode).task = 'do a differently';
    const changed = await executeWorkflow(w, { query: 'q' }, { policy, tools });
    expect(changed.workflowHash).not.toBe(first.workflowHash);
    expect(a.calls).toHaveLength(3);
  });
});
