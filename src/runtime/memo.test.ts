import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { createToolRegistry } from '../tools/registry.js';
import { executeWorkflow } from './execute.js';
import { copyObservation, createMemoryMemo, nodeMemoKey } from './memo.js';
import type { NodeObservation } from './trace.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';

const workflow: Workflow = {
  version: 1,
  name: 'memo',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'plan it', output: { type: 'text' } },
    { id: 'fetch', kind: 'tool', task: 'fetch', tools: ['fetch'] },
    { id: 'other', kind: 'tool', task: 'other', tools: ['other'] },
    { id: 'synth', kind: 'llm', role: 'synthesize', prompt: 'answer it', output: { type: 'text' } },
  ],
  edges: [
    { from: 'plan', to: 'fetch', kind: 'data' },
    { from: 'plan', to: 'other', kind: 'data' },
    { from: 'fetch', to: 'synth', kind: 'data' },
    { from: 'other', to: 'synth', kind: 'data' },
  ],
};

describe('node memoization', () => {
  it('keys a node by itself and its upstream only', () => {
    const base = { policyId: 'p', query: 'q', contextChars: 8000 };
    const k = (w: Workflow, id: string, extra = {}) => nodeMemoKey(w, id, { ...base, ...extra });
    const changedSynth: Workflow = {
      ...workflow,
      nodes: workflow.nodes.map((n) => (n.id === 'synth' ? { ...n, prompt: 'answer better' } : n)),
    };
    const changedOther: Workflow = {
      ...workflow,
      nodes: workflow.nodes.map((n) => (n.id === 'other' ? { ...n, task: 'other task' } : n)),
    };
    expect(k(changedSynth, 'fetch')).toBe(k(workflow, 'fetch'));
    expect(k(changedSynth, 'synth')).not.toBe(k(workflow, 'synth'));
    expect(k(changedOther, 'fetch')).toBe(k(workflow, 'fetch'));
    expect(k(changedOther, 'synth')).not.toBe(k(workflow, 'synth'));
    expect(k(workflow, 'fetch', { recordId: 'r1' })).not.toBe(k(workflow, 'fetch', { recordId: 'r2' }));
    expect(k(workflow, 'fetch', { policyId: 'other' })).not.toBe(k(workflow, 'fetch'));
    expect(k(workflow, 'fetch', { contextChars: 10 })).not.toBe(k(workflow, 'fetch'));
    const scopes = (m: Record<string, string>) => ({ scopeOf: (id: string) => m[id] });
    expect(k(workflow, 'fetch', scopes({ fetch: 'tool position 0' }))).not.toBe(
      k(workflow, 'fetch', scopes({ fetch: 'tool position 1' })),
    );
    expect(k(workflow, 'fetch', scopes({ fetch: '' }))).toBe(k(workflow, 'fetch'));
    // An ancestor's scope is part of the key (its output feeds the node); another branch's is not.
    expect(k(workflow, 'synth', scopes({ other: 'a' }))).not.toBe(k(workflow, 'synth', scopes({ other: 'b' })));
    expect(k(workflow, 'fetch', scopes({ other: 'a' }))).toBe(k(workflow, 'fetch', scopes({ other: 'b' })));
  });

  it("folds the policy's memo scope into the key: a node whose scope changed runs again, the rest is reused", async () => {
    const ran: string[] = [];
    let scopeOfOther = 'a';
    const scripted = createScriptedPolicy({
      tool: (req) => (ran.push(req.node.id), [{ tool: req.candidates[0]!.name, args: {} }]),
    });
    const policy = {
      ...scripted,
      memoScope: (_w: Workflow, node: { id: string }) => (node.id === 'other' ? scopeOfOther : ''),
    };
    const tool = (name: string) => ({
      name,
      description: name,
      inputSchema: { type: 'object', properties: {} },
      execute: async () => `${name} data`,
    });
    const tools = createToolRegistry([tool('fetch'), tool('other')]);
    const memo = createMemoryMemo();
    await executeWorkflow(workflow, { query: 'q', recordId: 'r1' }, { policy, tools, memo });
    expect(ran.sort()).toEqual(['fetch', 'other']);
    ran.length = 0;
    await executeWorkflow(workflow, { query: 'q', recordId: 'r1' }, { policy, tools, memo });
    expect(ran).toEqual([]);
    scopeOfOther = 'b';
    const third = await executeWorkflow(workflow, { query: 'q', recordId: 'r1' }, { policy, tools, memo });
    expect(ran).toEqual(['other']);
    // synth is downstream of 'other', so its definition key changed; but 'other' gave the same output,
    // so synth is given what it was given before and comes from the memo by its inputs.
    expect(third.observations.filter((o) => o.cached).map((o) => o.nodeId)).toEqual(['plan', 'fetch', 'synth']);
    // Once 'other' gives something else, synth runs again.
    const changed = createToolRegistry([
      tool('fetch'),
      { ...tool('other'), execute: async () => 'other data, changed' },
    ]);
    scopeOfOther = 'c';
    const fourth = await executeWorkflow(workflow, { query: 'q', recordId: 'r1' }, { policy, tools: changed, memo });
    expect(fourth.observations.filter((o) => o.cached).map((o) => o.nodeId)).toEqual(['plan', 'fetch']);
  });

  it('changing only the synthesizer prompt re-runs only the synthesizer', async () => {
    const ran: string[] = [];
    const toolCalls: string[] = [];
    const policy = createScriptedPolicy({
      llm: (req) => {
        ran.push(req.node.id);
        return `${req.node.id}:${req.node.prompt}`;
      },
    });
    const tool = (name: string) => ({
      name,
      description: name,
      inputSchema: { type: 'object', properties: {} },
      execute: async () => (toolCalls.push(name), `${name} data`),
    });
    const tools = createToolRegistry([tool('fetch'), tool('other')]);
    const memo = createMemoryMemo();
    const first = await executeWorkflow(workflow, { query: 'q', recordId: 'r1' }, { policy, tools, memo });
    expect(first.totals.cachedNodes).toBe(0);
    // Each node under its two keys: its definition with its upstream's, and what it was given.
    expect(memo.size()).toBe(8);
    ran.length = 0;
    toolCalls.length = 0;
    const edited: Workflow = {
      ...workflow,
      nodes: workflow.nodes.map((n) => (n.id === 'synth' ? { ...n, prompt: 'answer it better' } : n)),
    };
    const second = await executeWorkflow(edited, { query: 'q', recordId: 'r1' }, { policy, tools, memo });
    expect(ran).toEqual(['synth']);
    expect(toolCalls).toEqual([]);
    expect(second.totals).toMatchObject({ cachedNodes: 3, toolCalls: 0 });
    expect(second.observations.map((o) => [o.nodeId, o.cached ?? false])).toEqual([
      ['plan', true],
      ['fetch', true],
      ['other', true],
      ['synth', false],
    ]);
    expect(second.calls).toEqual(first.calls);
    expect(second.answer).toBe('synth:answer it better');
  });

  it('does not store failed nodes, so a transient failure is retried next run', async () => {
    let n = 0;
    const tools = createToolRegistry([
      {
        name: 'fetch',
        description: 'f',
        inputSchema: { type: 'object', properties: {} },
        execute: async () => {
          if (++n === 1) throw new Error('429');
          return 'ok';
        },
      },
      { name: 'other', description: 'o', inputSchema: { type: 'object', properties: {} }, execute: async () => 'x' },
    ]);
    const memo = createMemoryMemo();
    const policy = createScriptedPolicy();
    const a = await executeWorkflow(workflow, { query: 'q' }, { policy, tools, memo });
    expect(a.observations[1]?.status).toBe('error');
    const b = await executeWorkflow(workflow, { query: 'q' }, { policy, tools, memo });
    expect(b.observations[1]).toMatchObject({ status: 'ok' });
    expect(b.observations[1]?.cached).toBeUndefined();
  });

  it('a memo entry and a run answered from it share no object: changing one leaves the other as it was', async () => {
    const response = { rows: [{ city: 'Oslo', temp: 4 }], note: 'x'.repeat(1000) };
    const tools = createToolRegistry([
      {
        name: 'fetch',
        description: 'f',
        inputSchema: { type: 'object', properties: {} },
        execute: async () => response,
      },
      { name: 'other', description: 'o', inputSchema: { type: 'object', properties: {} }, execute: async () => 'x' },
    ]);
    const memo = createMemoryMemo();
    const policy = createScriptedPolicy();
    const first = await executeWorkflow(workflow, { query: 'q', recordId: 'r1' }, { policy, tools, memo });
    // The tool's own object, the first run's observation and the memo entry are three objects.
    response.rows[0]!.temp = 99;
    (first.observations[1]!.calls![0]!.output as typeof response).rows.push({ city: 'Bergen', temp: 7 });
    const second = await executeWorkflow(workflow, { query: 'q', recordId: 'r1' }, { policy, tools, memo });
    expect(second.observations[1]!.cached).toBe(true);
    expect(second.observations[1]!.calls![0]!.output).toEqual({
      rows: [{ city: 'Oslo', temp: 4 }],
      note: 'x'.repeat(1000),
    });
    (second.observations[1]!.calls![0]!.output as typeof response).rows.length = 0;
    const third = await executeWorkflow(workflow, { query: 'q', recordId: 'r1' }, { policy, tools, memo });
    expect((third.observations[1]!.calls![0]!.output as typeof response).rows).toEqual([{ city: 'Oslo', temp: 4 }]);
  });

  it('copies an observation as structuredClone does: equal data, no shared object, one copy of an object referenced twice', () => {
    const payload = { items: [1, 2, { deep: 'text' }], when: new Date(0) };
    const observation: NodeObservation = {
      nodeId: 'fetch',
      kind: 'tool',
      status: 'ok',
      input: 'the request',
      output: [{ tool: 'fetch', args: { q: 'a' }, status: 'ok', output: payload }],
      attempts: 1,
      startedAtMs: 0,
      durationMs: 1,
      calls: [{ tool: 'fetch', args: { q: 'a' }, status: 'ok', output: payload, durationMs: 1, attempt: 1 }],
    };
    const copy = copyObservation(observation);
    expect(copy).toEqual(structuredClone(observation));
    expect(copy.calls![0]!.output).not.toBe(payload);
    expect((copy.calls![0]!.output as typeof payload).when).toBeInstanceOf(Date);
    expect((copy.calls![0]!.output as typeof payload).when).not.toBe(payload.when);
    // The node's output and its call's output were one object; in the copy they still are.
    expect((copy.output as Array<{ output: unknown }>)[0]!.output).toBe(copy.calls![0]!.output);
    expect(() => copyObservation({ ...observation, output: { f: () => 1 } })).toThrow();
  });
});
