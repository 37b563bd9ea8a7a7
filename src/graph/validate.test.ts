import { describe, expect, it } from 'vitest';
import { validateWorkflow } from './validate.js';

const linear = {
  version: 1,
  name: 'linear',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
    { id: 't1', kind: 'tool', task: 'Look up the weather' },
    { id: 'answer', kind: 'llm', role: 'synthesize', prompt: 'Answer {{query}}', output: { type: 'text' } },
  ],
  edges: [
    { from: 'plan', to: 't1', kind: 'data' },
    { from: 't1', to: 'answer', kind: 'data' },
  ],
};

describe('validateWorkflow (smoke)', () => {
  it('accepts a linear plan → tool → synthesize workflow', () => {
    expect(validateWorkflow(linear)).toEqual([]);
  });
  it('names the cycle', () => {
    const w = structuredClone(linear);
    w.nodes.splice(2, 0, { id: 't2', kind: 'tool', task: 'again' } as never);
    w.edges.push({ from: 't1', to: 't2', kind: 'data' }, { from: 't2', to: 't1', kind: 'control' }, { from: 't2', to: 'answer', kind: 'data' });
    const problems = validateWorkflow(w);
    expect(problems.map((p) => p.code)).toContain('cycle');
    expect(problems.find((p) => p.code === 'cycle')!.message).toContain('t1 → t2 → t1');
  });
});
