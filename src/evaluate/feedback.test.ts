import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { toolCallCorrectness } from '../metrics/tool-call-lcs.js';
import type { TaskRecord } from '../records/schema.js';
import type { NodeObservation, Trace } from '../runtime/trace.js';
import { alignCalls } from './align-calls.js';
import type { RecordEvaluation } from './types.js';
import { buildFeedback } from './feedback.js';

const workflow: Workflow = {
  version: 1,
  name: 'w',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'p {{query}}', output: { type: 'text' } },
    { id: 't1', kind: 'tool', task: 'first lookup' },
    { id: 't2', kind: 'tool', task: 'second lookup', calls: 'many' },
    { id: 'synthesize', kind: 'llm', role: 'synthesize', prompt: 's {{inputs}}', output: { type: 'text' } },
  ],
  edges: [
    { from: 'plan', to: 't1', kind: 'data' },
    { from: 't1', to: 't2', kind: 'data' },
    { from: 't2', to: 'synthesize', kind: 'data' },
  ],
};

type C = { tool: string; args: Record<string, unknown>; status?: 'ok' | 'error'; error?: string };

function trace(id: string, byNode: Record<string, C[]>, answer = 'an answer'): Trace {
  const observations: NodeObservation[] = workflow.nodes.map((n) => ({
    nodeId: n.id,
    kind: n.kind,
    status: 'ok',
    input: '',
    attempts: 1,
    startedAtMs: 0,
    durationMs: 0,
    ...(n.kind === 'tool'
      ? {
          calls: (byNode[n.id] ?? []).map((c) => ({
            tool: c.tool,
            args: c.args,
            status: c.status ?? 'ok',
            ...(c.error ? { error: c.error } : {}),
            durationMs: 0,
            attempt: 1,
          })),
        }
      : {}),
  }));
  const calls = ['t1', 't2'].flatMap((n) =>
    (byNode[n] ?? []).map((c) => ({ tool: c.tool, args: c.args, status: c.status ?? 'ok' })),
  );
  return {
    recordId: id,
    query: 'q',
    workflow: 'w',
    policy: 'test',
    observations,
    calls,
    answer,
    status: 'ok',
    totals: {
      nodes: 4,
      skipped: 0,
      llmCalls: 0,
      toolCalls: calls.length,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      durationMs: 0,
      cachedNodes: 0,
    },
  };
}

const records: TaskRecord[] = [
  {
    id: 'r1',
    query: 'Get A then the quote for AAPL then C',
    reference: 'A is 1, AAPL trades at 190',
    calls: [
      { tool: 'A', args: { x: 1 } },
      { tool: 'B', args: { symbol: 'AAPL' } },
      { tool: 'C', args: {} },
    ],
  },
  {
    id: 'r2',
    query: 'Get A then C',
    reference: 'done',
    calls: [
      { tool: 'A', args: { x: 2 } },
      { tool: 'C', args: {} },
    ],
  },
  { id: 'r3', query: 'Get A', reference: 'A is 3', calls: [{ tool: 'A', args: { x: 3 } }] },
];
const traces = [
  trace('r1', { t1: [{ tool: 'A', args: { x: 1 } }], t2: [{ tool: 'B', args: { symbol: 'Apple' } }] }),
  trace('r2', {
    t1: [{ tool: 'D', args: { x: 2 }, status: 'error', error: 'no recorded response for D' }],
    t2: [{ tool: 'C', args: {} }],
  }),
  trace('r3', { t1: [{ tool: 'A', args: { x: 3 } }], t2: [{ tool: 'E', args: {} }] }, ''),
];

function evaluations(): RecordEvaluation[] {
  return records.map((r, i) => {
    const detail = toolCallCorrectness(r.calls, traces[i]!.calls);
    const es = [0.6, 0.5, 0][i]!;
    return {
      id: r.id,
      tc: detail.tc,
      es,
      dims: { correctness: es, completeness: es, relevance: es, clarity: es },
      detail,
      trace: traces[i]!,
    };
  });
}

describe('alignCalls', () => {
  it('explains each mismatch by the node that made the call and the slot of each missing call', () => {
    const [e1, e2, e3] = evaluations();
    const a1 = alignCalls(records[0]!.calls, e1!.trace, e1!.detail);
    expect(a1.predNodes).toEqual(['t1', 't2']);
    expect(a1.wrongArgs).toEqual([
      {
        refIndex: 1,
        predIndex: 1,
        node: 't2',
        tool: 'B',
        keys: ['symbol'],
        expected: { symbol: 'AAPL' },
        got: { symbol: 'Apple' },
      },
    ]);
    expect(a1.missing).toEqual([{ refIndex: 2, tool: 'C', args: {}, after: 't2' }]);
    const a2 = alignCalls(records[1]!.calls, e2!.trace, e2!.detail);
    expect(a2.wrongTool).toEqual([{ refIndex: 0, predIndex: 0, node: 't1', expected: 'A', got: 'D' }]);
    expect(a2.missing).toEqual([]);
    const a3 = alignCalls(records[2]!.calls, e3!.trace, e3!.detail);
    expect(a3.extra).toEqual([{ predIndex: 1, node: 't2', tool: 'E', args: {} }]);
  });
});

describe('buildFeedback', () => {
  it('aggregates the mismatches into patterns ranked by evidence, with the texts the optimizer reads', () => {
    const fb = buildFeedback(workflow, records, evaluations());
    const texts = fb.patterns.map((p) => p.text);
    expect(texts).toContain('argument `symbol` wrong in 1 calls of B (node t2): got "Apple", expected "AAPL"');
    expect(texts).toContain('node t1 picks D (1) where the reference has A (1) (1/3 records)');
    expect(texts).toContain('reference tool C never called in 1/3 records (it is in 2 references)');
    expect(texts).toContain('1 reference calls after node t2 were never made (1/3 records); tools: C (1)');
    expect(texts).toContain(
      'node t2 made 1 of its 3 calls where the reference has none (1/3 records; useful in 2); tools: E (1)',
    );
    expect(texts).toContain('1 calls of D by node t1 failed (1/3 records): no recorded response for D');
    expect(fb.patterns.find((p) => p.kind === 'failed-calls')).toMatchObject({ rightTool: 0, otherTool: 1 });
    // Two tool positions: r1's reference takes three steps, r3's one.
    expect(texts).toContain(
      "the references take more steps than the workflow's 2 tool positions in 1/3 records (mean 2.0 calls per record)",
    );
    expect(fb.patterns.find((p) => p.kind === 'step-count' && p.direction === 'more')).toMatchObject({
      positions: 2,
      more: 1,
      fewer: 1,
      last: 't2',
      lastCalls: 'many',
    });
    expect(texts).toContain(
      "the references take fewer steps than the workflow's 2 tool positions in 1/3 records (mean 2.0 calls per record)",
    );
    const evidence = fb.patterns.map((p) => p.evidence);
    expect(evidence).toEqual([...evidence].sort((a, b) => b - a));
    expect(fb.worst[0]).toMatchObject({ id: 'r3', es: 0, answer: '' });
    expect(fb.nodes.find((s) => s.node === 't1')).toMatchObject({
      runs: 3,
      calls: 3,
      matched: 2,
      matchedTools: [{ name: 'A', count: 2 }],
    });
    expect(fb.tc).toBeCloseTo(evaluations().reduce((s, r) => s + r.tc, 0) / 3);
    expect(fb.text).toContain('Problems found (most records first):');
    expect(fb.text).toContain('Lowest-scoring answers:');
  });

  it('condenses the text to the character budget and says how much was left out', () => {
    const fb = buildFeedback(workflow, records, evaluations(), { maxChars: 400 });
    expect(fb.text.length).toBeLessThanOrEqual(400);
    expect(fb.text).toMatch(/… \d+ more/);
    expect(fb.patterns.length).toBeGreaterThan(3);
  });
});

describe('unseen values', () => {
  it('names the earlier node whose results held a wrong argument value the calling node does not receive', () => {
    const w: Workflow = {
      ...workflow,
      nodes: [...workflow.nodes.slice(0, 3), { id: 't3', kind: 'tool', task: 'third lookup' }, workflow.nodes[3]!],
      edges: [
        { from: 'plan', to: 't1', kind: 'data' },
        { from: 't1', to: 't2', kind: 'data' },
        { from: 't2', to: 't3', kind: 'data' },
        { from: 't3', to: 'synthesize', kind: 'data' },
      ],
    };
    const made = [
      { node: 't1', tool: 'A', args: { x: 1 }, output: "[{'ticker': 'AAPL', 'name': 'Apple'}]" },
      { node: 't2', tool: 'C', args: {}, output: 'ok' },
      { node: 't3', tool: 'B', args: { symbol: 'Apple' }, output: 'quote' },
    ];
    const observations: NodeObservation[] = w.nodes.map((n) => ({
      nodeId: n.id,
      kind: n.kind,
      status: 'ok',
      input: '',
      attempts: 1,
      startedAtMs: 0,
      durationMs: 0,
      ...(n.kind === 'tool'
        ? {
            calls: made
              .filter((m) => m.node === n.id)
              .map((m) => ({
                tool: m.tool,
                args: m.args,
                status: 'ok' as const,
                output: m.output,
                durationMs: 0,
                attempt: 1,
              })),
          }
        : {}),
    }));
    const calls = made.map((m) => ({ tool: m.tool, args: m.args, status: 'ok' as const, output: m.output }));
    const record: TaskRecord = {
      id: 'u1',
      query: 'Find Apple, then C, then the quote',
      reference: 'r',
      calls: [
        { tool: 'A', args: { x: 1 } },
        { tool: 'C', args: {} },
        { tool: 'B', args: { symbol: 'AAPL' } },
      ],
    };
    const t: Trace = {
      recordId: 'u1',
      query: record.query,
      workflow: 'w',
      policy: 'test',
      observations,
      calls,
      answer: 'a',
      status: 'ok',
      totals: {
        nodes: 5,
        skipped: 0,
        llmCalls: 0,
        toolCalls: 3,
        inputTokens: 0,
        outputTokens: 0,
        costUsd: 0,
        durationMs: 0,
        cachedNodes: 0,
      },
    };
    const detail = toolCallCorrectness(record.calls, calls);
    const fb = buildFeedback(
      w,
      [record],
      [
        {
          id: 'u1',
          tc: detail.tc,
          es: 0.5,
          dims: { correctness: 0.5, completeness: 0.5, relevance: 0.5, clarity: 0.5 },
          detail,
          trace: t,
        },
      ],
    );
    expect(fb.patterns.find((p) => p.kind === 'unseen-values')).toMatchObject({
      node: 't3',
      sources: [{ name: 't1', count: 1 }],
      values: 1,
      evidence: 1,
    });
  });
});
