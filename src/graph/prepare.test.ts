import { describe, expect, it } from 'vitest';
import { workflowHash } from './hash.js';
import { indexWorkflow, isPreparedWorkflow, prepareWorkflow } from './prepare.js';
import type { Workflow } from './schema.js';

const workflow: Workflow = {
  version: 1,
  name: 'fan-out',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan {{query}}', output: { type: 'text' } },
    { id: 'b', kind: 'tool', task: 'look up b' },
    { id: 'a', kind: 'tool', task: 'look up a' },
    {
      id: 'answer',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from {{inputs}}',
      output: { type: 'text' },
    },
  ],
  edges: [
    { from: 'plan', to: 'b', kind: 'data' },
    { from: 'plan', to: 'a', kind: 'data' },
    { from: 'a', to: 'answer', kind: 'data' },
    { from: 'b', to: 'answer', kind: 'data' },
  ],
};

describe('prepareWorkflow', () => {
  it('validates once and gives the order (ties by id), positions, exit, hash and ancestors', () => {
    const p = prepareWorkflow(workflow);
    expect(isPreparedWorkflow(p)).toBe(true);
    expect(p.order).toEqual(['plan', 'a', 'b', 'answer']);
    expect(p.position.get('b')).toBe(2);
    expect(p.exitId).toBe('answer');
    expect(p.hash).toBe(workflowHash(workflow));
    expect([...p.ancestors('a')].sort()).toEqual(['a', 'plan']);
    expect([...p.ancestors('answer')].sort()).toEqual(['a', 'answer', 'b', 'plan']);
    expect(p.adjacency.in.get('answer')!.map((e) => e.from)).toEqual(['a', 'b']);
    // A prepared workflow passes through as it is: nothing is validated or built again.
    expect(prepareWorkflow(p)).toBe(p);
  });

  it('refuses an invalid workflow with INVALID_WORKFLOW naming the source; indexWorkflow tolerates it', () => {
    const cyclic: Workflow = {
      ...workflow,
      edges: [...workflow.edges, { from: 'answer', to: 'plan', kind: 'control' }],
    };
    expect(() => prepareWorkflow(cyclic, undefined, 'w.json')).toThrow(/w\.json/);
    expect(() => prepareWorkflow(cyclic)).toThrow(expect.objectContaining({ code: 'INVALID_WORKFLOW' }));
    expect(indexWorkflow(cyclic).order).toEqual(['plan', 'b', 'a', 'answer']);
  });
});
