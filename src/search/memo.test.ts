import { describe, expect, it } from 'vitest';
import { applyEditPlanOrThrow } from '../graph/edits/apply-edit-plan.js';
import type { Workflow } from '../graph/schema.js';
import { createLexicalJudge } from '../metrics/lexical-judge.js';
import type { ExecutionPolicy } from '../policies/types.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { defineTool } from '../tools/define-tool.js';
import { createToolRegistry } from '../tools/registry.js';
import { evaluateWorkflow } from '../evaluate/evaluate.js';
import { createSearchMemo } from './memo.js';

const w1: Workflow = {
  version: 1,
  name: 'w',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan {{query}}', output: { type: 'text' } },
    { id: 't1', kind: 'tool', task: 'look up' },
    { id: 'synthesize', kind: 'llm', role: 'synthesize', prompt: 'Answer {{query}} from {{inputs}}', output: { type: 'text' } },
  ],
  edges: [
    { from: 'plan', to: 't1', kind: 'data' },
    { from: 't1', to: 'synthesize', kind: 'data' },
  ],
};
const w2 = applyEditPlanOrThrow(w1, { edits: [{ op: 'add_node', node: { kind: 'tool', id: 't2', task: 'look up more' }, from: ['t1'], to: ['synthesize'] }] });
const records = [{ id: 'r1', query: 'q', reference: 'r', calls: [{ tool: 'lookup', args: { q: '2' } }] }];

/**
 * Like the offline policy, the decision at a tool node depends on how many tool positions the whole
 * workflow has; with `declare` the policy says so through `memoScope`.
 */
function setup(declare = true) {
  let runs = 0;
  const tools = createToolRegistry([defineTool({ name: 'lookup', description: 'look up', inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, execute: ({ q }) => `v${String(q)}` })]);
  const layout = (w: Workflow) => String(w.nodes.filter((n) => n.kind === 'tool').length);
  const scripted = createScriptedPolicy({
    tool: (req) => {
      runs++;
      return [{ tool: 'lookup', args: { q: layout(req.workflow) } }];
    },
  });
  const policy: ExecutionPolicy = declare ? { ...scripted, memoScope: (w, node) => (node.kind === 'tool' ? `tools ${layout(w)}` : '') } : scripted;
  return { tools, policy, judge: createLexicalJudge(), runs: () => runs };
}

describe('search memo', () => {
  it("keeps the decisions of a policy that declares what else it reads (memoScope) exact, and still reuses what that leaves unchanged", async () => {
    const s = setup();
    const memo = createSearchMemo();
    await evaluateWorkflow(w1, records, { ...s, memo });
    const runsAfterW1 = s.runs();
    const second = await evaluateWorkflow(w2, records, { ...s, memo });
    // t1 sees two tool positions in w2: it must be re-run, not answered from w1's entry.
    expect(second.perRecord[0]!.trace.calls.map((c) => c.args.q)).toEqual(['2', '2']);
    expect(s.runs() - runsAfterW1).toBe(2);
    // The plan node reads nothing of the layout: it came from the memo.
    expect(second.perRecord[0]!.trace.observations.find((o) => o.nodeId === 'plan')!.cached).toBe(true);

    const undeclared = setup(false);
    const unscoped = createSearchMemo();
    await evaluateWorkflow(w1, records, { ...undeclared, memo: unscoped });
    const wrong = await evaluateWorkflow(w2, records, { ...undeclared, memo: unscoped });
    expect(wrong.perRecord[0]!.trace.calls.map((c) => c.args.q)).toEqual(['1', '2']);
  });

  it('counts node runs, tool calls and LLM calls saved, and hands out new entries once', async () => {
    const s = setup();
    const memo = createSearchMemo();
    await evaluateWorkflow(w1, records, { ...s, memo });
    expect(memo.drain()).toHaveLength(3);
    expect(memo.drain()).toHaveLength(0);
    const again = await evaluateWorkflow(w1, records, { ...s, memo });
    expect(again.totals).toMatchObject({ cachedNodes: 3, toolCalls: 0 });
    expect(memo.savings()).toEqual({ nodeRunsSaved: 3, toolCallsSaved: 1, llmCallsSaved: 0 });
  });
});
