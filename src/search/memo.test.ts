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
import { JUDGE_KEY_PREFIX, memoizeJudge } from '../metrics/judge-memo.js';
import type { Judge } from '../metrics/types.js';
import { planToolAnswer } from '../../test/support/workflows.js';

const w1: Workflow = planToolAnswer({
  name: 'w',
  plan: { prompt: 'Plan {{query}}' },
  tool: { id: 't1', task: 'look up' },
  answer: { id: 'synthesize' },
});
const w2 = applyEditPlanOrThrow(w1, {
  edits: [{ op: 'add_node', node: { kind: 'tool', id: 't2', task: 'look up more' }, from: ['t1'], to: ['synthesize'] }],
});
const records = [{ id: 'r1', query: 'q', reference: 'r', calls: [{ tool: 'lookup', args: { q: '2' } }] }];

/**
 * Like the offline policy, the decision at a tool node depends on how many tool positions the whole
 * workflow has; with `declare` the policy says so through `memoScope`.
 */
function setup(declare = true) {
  let runs = 0;
  const tools = createToolRegistry([
    defineTool({
      name: 'lookup',
      description: 'look up',
      effect: 'read',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      execute: ({ q }) => `v${String(q)}`,
    }),
  ]);
  const layout = (w: Workflow) => String(w.nodes.filter((n) => n.kind === 'tool').length);
  const scripted = createScriptedPolicy({
    tool: (req) => {
      runs++;
      return [{ tool: 'lookup', args: { q: layout(req.workflow) } }];
    },
  });
  const policy: ExecutionPolicy = declare
    ? { ...scripted, memoScope: (w, node) => (node.kind === 'tool' ? `tools ${layout(w)}` : '') }
    : scripted;
  return { tools, policy, judge: createLexicalJudge(), runs: () => runs };
}

describe('search memo', () => {
  it('keeps the decisions of a policy that declares what else it reads (memoScope) exact, and still reuses what that leaves unchanged', async () => {
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
    // Each of the three nodes under its two keys (its upstream's definitions, and what it was given).
    expect(memo.drain()).toHaveLength(6);
    expect(memo.drain()).toHaveLength(0);
    const again = await evaluateWorkflow(w1, records, { ...s, memo });
    expect(again.totals).toMatchObject({ cachedNodes: 3, toolCalls: 0 });
    expect(memo.savings()).toMatchObject({ nodeRunsSaved: 3, toolCallsSaved: 1, llmCallsSaved: 0 });
  });

  it('reuses a judge score for the same answer of the same record, across workflows and a reload from the store, and counts what it saved', async () => {
    let asked = 0;
    const usage = { llmCalls: 4, inputTokens: 400, outputTokens: 4, costUsd: 0.001 };
    const counting: Judge = {
      id: 'llm:test',
      kind: 'llm',
      label: 'test judge',
      rubric: 'r1',
      score: async () => (asked++, { correctness: 1, completeness: 0.5, relevance: 1, clarity: 1, es: 0.875, usage }),
    };
    const memo = createSearchMemo();
    const judge = memoizeJudge(counting, memo);
    const req = { query: 'q', reference: 'r', answer: 'a' };
    const first = await judge.score(req);
    expect(first.usage).toEqual(usage);
    expect(first.reused).toBeUndefined();
    // The same answer again (another candidate): no request, the same score, what it saved.
    const again = await judge.score({ ...req });
    expect(asked).toBe(1);
    expect(again).toMatchObject({ es: 0.875, reused: usage });
    expect(again.usage).toBeUndefined();
    expect(memo.savings()).toMatchObject({ judgeScoresReused: 1, judgeCallsSaved: 4, judgeTokensSaved: 404 });
    // Another answer, reference or rubric is another question.
    await judge.score({ ...req, answer: 'b' });
    await judge.score({ ...req, reference: 'r2' });
    await memoizeJudge({ ...counting, rubric: 'r2' }, memo).score(req);
    expect(asked).toBe(4);
    // A resumed run: the stored entries (judge: keys beside the node entries) answer without asking.
    const stored = memo.drain();
    expect(stored.every((e) => e.key.startsWith(JUDGE_KEY_PREFIX))).toBe(true);
    const resumed = createSearchMemo(stored);
    await memoizeJudge(counting, resumed).score(req);
    expect(asked).toBe(4);
    expect(resumed.savings().judgeScoresReused).toBe(1);
  });

  it('memoizes the offline lexical judge too: the saving is counted in scores reused', async () => {
    const s = setup();
    const memo = createSearchMemo();
    const judge = memoizeJudge(s.judge, memo);
    const first = await evaluateWorkflow(w1, records, { ...s, judge, memo });
    const second = await evaluateWorkflow(w1, records, { ...s, judge, memo });
    expect(second.es).toBe(first.es);
    expect(memo.savings()).toMatchObject({ judgeScoresReused: 1, judgeCallsSaved: 0 });
  });
});
