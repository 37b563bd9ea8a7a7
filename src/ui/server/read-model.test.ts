import { describe, expect, it } from 'vitest';
import type { Workflow } from '../../graph/schema.js';
import { openStore } from '../../store/open-store.js';
import { alignCalls, candidateView, runView } from './read-model.js';
import { diffWorkflows } from './workflow-diff.js';

const wf = (nodes: Workflow['nodes'], edges: Workflow['edges']): Workflow => ({ version: 1, name: 'w', nodes, edges });
const plan = {
  id: 'plan',
  kind: 'llm' as const,
  role: 'plan' as const,
  prompt: 'Plan {{query}}',
  output: { type: 'text' as const },
};
const look = { id: 'look', kind: 'tool' as const, task: 'Look it up' };
const answer = {
  id: 'answer',
  kind: 'llm' as const,
  role: 'synthesize' as const,
  prompt: 'Answer',
  output: { type: 'text' as const },
};

describe('the UI read model', () => {
  it('aligns calls in reference order with extra calls after the produced call they followed', () => {
    const ref = [
      { tool: 'a', args: {} },
      { tool: 'b', args: { x: 1 } },
      { tool: 'c', args: {} },
    ];
    const produced = [
      { tool: 'a', args: {} },
      { tool: 'z', args: {} },
      { tool: 'b', args: { x: 2 } },
    ];
    const lines = alignCalls(ref, produced, {
      matched: [[0, 0]],
      missing: [1, 2],
      extra: [1, 2],
      wrongArgs: [{ reference: 1, predicted: 2, keys: ['x'] }],
      reordered: [],
    });
    expect(lines.map((l) => [l.kind, l.reference?.index, l.produced?.index])).toEqual([
      ['match', 0, 0],
      ['extra', undefined, 1],
      ['wrong-args', 1, 2],
      ['missing', 2, undefined],
    ]);
    expect(lines[2]!.keys).toEqual(['x']);
  });

  it('diffs a workflow against its parent by node id and edge ends', () => {
    const before = wf(
      [plan, look, answer],
      [
        { from: 'plan', to: 'look', kind: 'data' },
        { from: 'look', to: 'answer', kind: 'data' },
      ],
    );
    const after = wf(
      [plan, { ...look, calls: 'many' }, { id: 'more', kind: 'tool', task: 'More' }, answer],
      [
        { from: 'plan', to: 'look', kind: 'control' },
        { from: 'look', to: 'more', kind: 'data' },
        { from: 'more', to: 'answer', kind: 'data' },
      ],
    );
    expect(diffWorkflows(before, after)).toEqual({
      addedNodes: ['more'],
      removedNodes: [],
      changedNodes: [{ id: 'look', fields: ['calls'] }],
      addedEdges: ['look→more', 'more→answer'],
      removedEdges: ['look→answer'],
      changedEdges: ['plan→look'],
    });
  });

  it('names failed, invalid and duplicate candidates, and scores a duplicate by its original', () => {
    const store = openStore(':memory:');
    store.createRun({
      id: 'r',
      status: 'done',
      seed: 0,
      strategy: 'mcts',
      config: {},
      policyLabel: 'LLM policy (openai:gpt-4o-mini)',
      judgeLabel: 'offline lexical judge',
      optimizerLabel: 'rule-based optimizer (offline)',
      iterationsDone: 3,
      sinceImprovement: 0,
      bestCandidate: 'c0',
    });
    const w = wf([plan, answer], [{ from: 'plan', to: 'answer', kind: 'data' }]);
    store.commitIteration('r', {
      candidates: [
        { id: 'c0', seq: 0, parent: null, iteration: 0, workflow: w, valScore: 0.5, visits: 4, w: 2, q: 0.5 },
        {
          id: 'c1',
          seq: 1,
          parent: 'c0',
          iteration: 1,
          error: 'no valid plan after one repair round',
          summary: 'expansion failed',
          visits: 1,
          w: 0,
          q: 0,
        },
        {
          id: 'c2',
          seq: 2,
          parent: 'c0',
          iteration: 2,
          workflow: w,
          error: 'tool nodes are forbidden',
          visits: 1,
          w: 0,
          q: 0,
        },
        {
          id: 'c3',
          seq: 3,
          parent: 'c0',
          iteration: 3,
          workflow: w,
          duplicateOf: 'c0',
          valScore: 0.5,
          visits: 1,
          w: 0.5,
          q: 0.5,
        },
      ],
      evaluations: [
        {
          candidateId: 'c0',
          split: 'val',
          recordId: 'q1',
          tc: 0.25,
          es: 0.75,
          dims: { correctness: 0.5 },
          answer: 'x',
          calls: [],
        },
      ],
      run: {},
    });
    const v = runView(store, 'r', undefined);
    expect(v.tree.map((n) => [n.id, n.kind, n.best])).toEqual([
      ['c0', 'ok', true],
      ['c1', 'failed', false],
      ['c2', 'invalid', false],
      ['c3', 'duplicate', false],
    ]);
    expect(v.tree[1]!.error).toContain('no valid plan');
    expect(v.run.offline).toBe(false);
    const dup = candidateView(store, 'r', 'c3');
    expect(dup.scoredBy).toBe('c0');
    expect(dup.scores.val).toMatchObject({ records: 1, tc: 0.25, es: 0.75, score: 0.5 });
    expect(dup.diff).toEqual({
      addedNodes: [],
      removedNodes: [],
      changedNodes: [],
      addedEdges: [],
      removedEdges: [],
      changedEdges: [],
    });
    store.close();
  });

  it('averages ES over the records with a reference answer only, as the CLI does (a hand-off run has none)', () => {
    const store = openStore(':memory:');
    store.createRun({
      id: 'r',
      status: 'done',
      seed: 0,
      strategy: 'mcts',
      config: {},
      policyLabel: 'offline policy (no LLM)',
      judgeLabel: 'offline lexical judge',
      optimizerLabel: 'rule-based optimizer (offline)',
      iterationsDone: 0,
      sinceImprovement: 0,
      bestCandidate: 'c0',
    });
    const w = wf([plan, answer], [{ from: 'plan', to: 'answer', kind: 'data' }]);
    const row = (recordId: string, tc: number, es: number) => ({
      candidateId: 'c0',
      split: 'val' as const,
      recordId,
      tc,
      es,
      dims: { correctness: es },
      answer: 'x',
      calls: [],
    });
    const record = (id: string, reference: string) => ({
      recordId: id,
      split: 'val' as const,
      record: { id, query: `q ${id}`, reference, calls: [] },
    });
    store.commitIteration('r', {
      candidates: [
        { id: 'c0', seq: 0, parent: null, iteration: 0, workflow: w, valScore: 0.5, visits: 1, w: 0.5, q: 0.5 },
      ],
      evaluations: [row('answered', 0.2, 0.6), row('handed-off', 0.4, 0), row('handed-off-too', 0.6, 0)],
      records: [record('answered', 'It ships Monday.'), record('handed-off', ''), record('handed-off-too', '  ')],
      run: {},
    });
    const v = candidateView(store, 'r', 'c0');
    expect(v.scores.val.tc).toBeCloseTo(0.4, 10);
    expect(v.scores.val.es).toBeCloseTo(0.6, 10);
    expect(v.scores.val.dims.correctness).toBeCloseTo(0.6, 10);
    expect(v.scores.val).toMatchObject({ records: 3, esRecords: 1 });
    expect(v.scores.val.score).toBeCloseTo(0.5, 10);
    store.close();
  });
});
