import type { ToolNode, Workflow } from '../../src/graph/schema.js';

/**
 * The workflows tests use again and again, built rather than retyped. `planToolAnswer` is the
 * most common one: plan → one step → synthesize, joined by data edges (as
 * test/fixtures/workflows/valid/linear.json, with the names and texts a test needs).
 */
export interface PlanToolAnswerOptions {
  name: string;
  description?: string;
  /** The plan node (default id `plan`, prompt `Plan: {{query}}`). */
  plan?: { id?: string; prompt?: string };
  /** The tool node. */
  tool: Omit<ToolNode, 'kind'>;
  /** The synthesize node (default id `answer`, prompt `Answer {{query}} from {{inputs}}`). */
  answer?: { id?: string; prompt?: string };
}

export function planToolAnswer(o: PlanToolAnswerOptions): Workflow {
  const plan = o.plan?.id ?? 'plan';
  const answer = o.answer?.id ?? 'answer';
  return {
    version: 1,
    name: o.name,
    ...(o.description !== undefined ? { description: o.description } : {}),
    nodes: [
      { id: plan, kind: 'llm', role: 'plan', prompt: o.plan?.prompt ?? 'Plan: {{query}}', output: { type: 'text' } },
      { ...o.tool, kind: 'tool' },
      {
        id: answer,
        kind: 'llm',
        role: 'synthesize',
        prompt: o.answer?.prompt ?? 'Answer {{query}} from {{inputs}}',
        output: { type: 'text' },
      },
    ],
    edges: [
      { from: plan, to: o.tool.id, kind: 'data' },
      { from: o.tool.id, to: answer, kind: 'data' },
    ],
  };
}
