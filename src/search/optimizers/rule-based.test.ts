import { describe, expect, it } from 'vitest';
import { workflowHash } from '../../graph/hash.js';
import { neutralTask } from '../../graph/neutral-tasks.js';
import type { TaskPart, Workflow } from '../../graph/schema.js';
import { parseWorkflow } from '../../graph/validate.js';
import { createRandom } from '../../util/random.js';
import type { Feedback, FeedbackPattern } from '../../evaluate/feedback-types.js';
import { createRuleBasedOptimizer } from './rule-based.js';
import { ruleEdits } from './rule-edits.js';
import { c, ruleTools, s1Patterns, twoSteps } from '../../../test/support/rule-fixtures.js';

const tools = ruleTools(' More text.');
const workflow: Workflow = twoSteps('Step 1: typical use: quotes', true);

const patterns: FeedbackPattern[] = [
  ...s1Patterns(),
  {
    kind: 'missing-call',
    after: 's2',
    tools: [c('history', 5)],
    calls: 5,
    argKeys: [c('symbol', 5)],
    evidence: 5,
    text: '',
  },
  {
    kind: 'failed-calls',
    node: 's2',
    tool: 'news',
    count: 4,
    errors: ['no recorded response'],
    rightTool: 1,
    otherTool: 3,
    evidence: 4,
    text: '',
  },
  {
    kind: 'wrong-args',
    tool: 'news',
    key: 'symbol',
    nodes: ['s2'],
    calls: 3,
    examples: [{ got: 'Apple', expected: 'AAPL' }],
    evidence: 3,
    text: '',
  },
];
const feedback: Feedback = {
  records: 10,
  reward: 0.3,
  tc: 0.2,
  es: 0.4,
  patterns,
  worst: [],
  nodes: [{ node: 's1', runs: 10, errors: 0, skipped: 0, calls: 20, matched: 8, matchedTools: [c('quote', 8)] }],
  text: '',
};

const propose = (extra: Partial<Parameters<ReturnType<typeof createRuleBasedOptimizer>['propose']>[0]> = {}) =>
  createRuleBasedOptimizer().propose({ workflow, feedback, siblings: [], tools, random: createRandom(1), ...extra });

describe('the neutral task of a position that picks one tool where the references use many', () => {
  const neutralOf = (task: string, taskPart?: TaskPart, w0: Workflow = workflow) => {
    const w = structuredClone(w0);
    const s1 = w.nodes.find((n) => n.id === 's1') as { task: string; taskPart?: TaskPart };
    s1.task = task;
    if (taskPart !== undefined) s1.taskPart = taskPart;
    return ruleEdits({ workflow: w, feedback, tools: new Map(tools.map((t) => [t.name, t])), allowToolNodes: true })
      .filter((e) => e.summary.startsWith('set_task s1 neutral'))
      .map((e) => e.plan.edits[0]);
  };
  const neutral =
    'Look up what part 1 of the request asks for, with the tool that fits that part and the values the request gives for it.';
  const setNeutral = { op: 'set_task', id: 's1', task: neutral, taskPart: 1 };

  it('is proposed, marked with its part, unless the node is marked as having the neutral task of its place', () => {
    expect(neutralOf('Step 1: typical use: quotes')).toEqual([setNeutral]);
    expect(neutralOf(neutral, 1)).toEqual([]);
    expect(neutralOf(neutralTask('next'), 'next')).toEqual([]);
    // The mark, not the text, says whose task it is: the same words unmarked (a model or a user wrote
    // them in memory) are not the rules' own task; a task that only opens like it is not neutral.
    expect(neutralOf(neutral)).toEqual([setNeutral]);
    expect(neutralOf('Look up what the quote of the symbol is.')).toEqual([setNeutral]);
  });

  it('is proposed again, with the new part, when a position added before it changed its place', () => {
    const w = structuredClone(workflow);
    w.nodes.splice(1, 0, { id: 's0', kind: 'tool', task: 'Step 0' });
    w.edges = [
      { from: 'plan', to: 's0', kind: 'data' },
      { from: 's0', to: 's1', kind: 'data' },
      ...w.edges.filter((e) => e.from !== 'plan'),
    ];
    expect(neutralOf(neutral, 1, w)).toEqual([{ ...setNeutral, task: neutralTask(2), taskPart: 2 }]);
    expect(neutralOf(neutralTask(2), 2, w)).toEqual([]);
  });

  it('keeps its mark through JSON, and a file written before the mark existed is read as marked', () => {
    const w = structuredClone(workflow);
    Object.assign(w.nodes[1]!, { task: neutral, taskPart: 1 });
    const read = (x: unknown) => {
      const parsed = parseWorkflow(JSON.parse(JSON.stringify(x)));
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
      return parsed.workflow;
    };
    expect(read(w).nodes[1]).toMatchObject({ task: neutral, taskPart: 1 });
    // An older file: the text alone, at either kind of neutral task.
    const old = structuredClone(workflow);
    Object.assign(old.nodes[1]!, { task: neutral });
    Object.assign(old.nodes[2]!, { task: neutralTask('next') });
    const upgraded = read(old);
    expect(upgraded.nodes[1]).toMatchObject({ task: neutral, taskPart: 1 });
    expect(upgraded.nodes[2]).toMatchObject({ taskPart: 'next' });
    expect(neutralOf(neutral, (upgraded.nodes[1] as { taskPart?: TaskPart }).taskPart)).toEqual([]);
    // A task that is not word for word a neutral one gets no mark.
    Object.assign(old.nodes[1]!, { task: `${neutral} Fill \`symbol\` with the value the request gives.` });
    expect(read(old).nodes[1]).not.toHaveProperty('taskPart');
  });
});

describe('rule-based optimizer', () => {
  it('maps each feedback pattern to its edit', () => {
    const edits = ruleEdits({
      workflow,
      feedback,
      tools: new Map(tools.map((t) => [t.name, t])),
      allowToolNodes: true,
    });
    const ops = (summaryStart: string) => edits.find((e) => e.summary.startsWith(summaryStart))?.plan.edits;
    expect(ops('set_tool_hint s1')).toEqual([
      { op: 'set_tool_hint', id: 's1', tools: ['fx', 'news', 'history', 'quote'] },
    ]);
    expect(ops('set_task s1 neutral')?.[0]).toMatchObject({
      op: 'set_task',
      id: 's1',
      task: expect.stringMatching(/^Look up what part 1 of the request asks for/),
    });
    expect(ops('set_calls s1 one')).toEqual([{ op: 'set_calls', id: 's1', calls: 'one' }]);
    expect(ops('add_branch need_s1')?.[0]).toMatchObject({ op: 'add_branch', target: 's1', field: 'needed' });
    // s2 feeds only the exit: the new position goes between them, and s2 keeps its own edge to the exit.
    // The entry feeds it too, so it still runs when s2 is skipped.
    expect(ops('add_node add_history after s2')).toEqual([
      {
        op: 'add_node',
        node: { kind: 'tool', id: 'add_history', task: 'Look up Returns the history of a symbol.', tools: ['history'] },
        from: ['s2'],
        to: ['synthesize'],
        keepDirectEdges: true,
      },
      { op: 'add_edge', from: 'plan', to: 'add_history' },
    ]);
    expect(ops('set_retry s2 2 on error')).toEqual([{ op: 'set_retry', id: 's2', attempts: 2, on: 'error' }]);
    // Failures of the reference's own tool (only its arguments differ) are not fixed by trying another tool.
    const sameTool = patterns.map((p) => (p.kind === 'failed-calls' ? { ...p, rightTool: 4, otherTool: 0 } : p));
    expect(
      ruleEdits({
        workflow,
        feedback: { ...feedback, patterns: sameTool },
        tools: new Map(tools.map((t) => [t.name, t])),
        allowToolNodes: true,
      }).some((e) => e.summary.startsWith('set_retry')),
    ).toBe(false);
    expect(ops('set_task s2: argument symbol')).toEqual([
      {
        op: 'set_task',
        id: 's2',
        task: 'Step 2 Fill `symbol` with the value the request or the earlier results give for it.',
      },
    ]);
  });

  it('proposes the best-supported valid edit first and a different one for each sibling', async () => {
    const first = await propose();
    expect(first.summary).toMatch(/^set_tool_hint s1|^set_task s1 neutral/);
    const second = await propose({ siblings: [first.summary] });
    const third = await propose({ siblings: [first.summary, second.summary] });
    expect(new Set([first.summary, second.summary, third.summary]).size).toBe(3);
    for (const p of [first, second, third]) expect(workflowHash(p.workflow)).not.toBe(workflowHash(workflow));
  });

  it('skips edits whose workflow the run already has, and says so when nothing is left', async () => {
    const first = await propose();
    const known = new Set([workflowHash(first.workflow)]);
    const next = await propose({ isKnown: (w) => known.has(workflowHash(w)) });
    expect(next.summary).not.toBe(first.summary);
    await expect(propose({ isKnown: () => true })).rejects.toThrow(/no new edit for this candidate/);
  });

  it('feeds a node the earlier results that held the values it got wrong', () => {
    const unseen: FeedbackPattern = {
      kind: 'unseen-values',
      node: 's2',
      sources: [c('s0', 3)],
      values: 4,
      evidence: 3,
      text: '',
    };
    const withS0: Workflow = {
      ...workflow,
      nodes: [...workflow.nodes, { id: 's0', kind: 'tool', task: 'Step 0' }],
      edges: [...workflow.edges, { from: 'plan', to: 's0', kind: 'data' }, { from: 's0', to: 's1', kind: 'data' }],
    };
    const edits = ruleEdits({
      workflow: withS0,
      feedback: { ...feedback, patterns: [unseen] },
      tools: new Map(tools.map((t) => [t.name, t])),
      allowToolNodes: true,
    });
    expect(edits.map((e) => [e.summary, e.plan.edits, e.score])).toEqual([
      [
        'add_edge s0 → s2: 4 wrong arguments had their values in those results (3 records)',
        [{ op: 'add_edge', from: 's0', to: 's2', kind: 'data' }],
        1.5,
      ],
    ]);
  });

  it('makes the structure follow queries with more steps than positions: the last position repeats, or a generic one is appended', () => {
    const steps: FeedbackPattern = {
      kind: 'step-count',
      direction: 'more',
      positions: 2,
      meanK: 4.5,
      more: 7,
      fewer: 1,
      last: 's2',
      lastCalls: 'one',
      evidence: 7,
      text: '',
    };
    const fb: Feedback = { ...feedback, patterns: [...patterns, steps] };
    const edits = ruleEdits({
      workflow,
      feedback: fb,
      tools: new Map(tools.map((t) => [t.name, t])),
      allowToolNodes: true,
    });
    const many = edits.find((e) => e.summary.startsWith('set_calls s2 many'))!;
    expect(many.plan.edits).toEqual([{ op: 'set_calls', id: 's2', calls: 'many' }]);
    expect(many.score).toBe(7);
    expect(edits.find((e) => e.summary.startsWith('add_node step_more after s2'))!.plan.edits).toEqual([
      {
        op: 'add_node',
        node: {
          kind: 'tool',
          id: 'step_more',
          task: expect.stringMatching(/^Look up what the next part of the request asks for/),
          taskPart: 'next',
        },
        from: ['s2'],
        to: ['synthesize'],
        keepDirectEdges: true,
      },
      { op: 'add_edge', from: 'plan', to: 'step_more' },
    ]);
    // A repeating last position stays out of the bulk "calls one" edit while the references are longer.
    const longerLast: Workflow = {
      ...workflow,
      nodes: workflow.nodes.map((n) => (n.kind === 'tool' ? { ...n, calls: 'many' as const } : n)),
    };
    const extraBoth: FeedbackPattern[] = ['s1', 's2'].map((node) => ({
      kind: 'extra-calls',
      node,
      extra: 5,
      calls: 9,
      usefulIn: 4,
      tools: [c('quote', 5)],
      evidence: 5,
      text: '',
    }));
    const bulk = (ps: FeedbackPattern[]) =>
      ruleEdits({
        workflow: longerLast,
        feedback: { ...feedback, patterns: ps },
        tools: new Map(tools.map((t) => [t.name, t])),
        allowToolNodes: true,
      }).find((e) => e.summary.startsWith('calls one on'));
    expect(bulk(extraBoth)?.summary).toBe('calls one on 2 nodes (s1, s2)');
    expect(bulk([...extraBoth, { ...steps, lastCalls: 'many' }])).toBeUndefined();
  });

  it('adds no tool positions and touches no tool node in the LLM-only variant, but still has edits for its LLM nodes', async () => {
    const llmOnly: Workflow = {
      ...workflow,
      nodes: [
        ...workflow.nodes.filter((n) => n.kind === 'llm'),
        { id: 'reason', kind: 'llm', role: 'reason', prompt: 'Reason about {{query}}', output: { type: 'text' } },
      ],
      edges: [
        { from: 'plan', to: 'reason', kind: 'data' },
        { from: 'reason', to: 'synthesize', kind: 'data' },
      ],
    };
    const low: FeedbackPattern = {
      kind: 'low-answers',
      correctTrace: 0,
      dims: { correctness: 0.2, completeness: 0.1, relevance: 0.5, clarity: 0.6 },
      weakest: ['completeness', 'correctness', 'relevance', 'clarity'],
      evidence: 9,
      text: '',
    };
    const fb: Feedback = { ...feedback, patterns: [...patterns, low] };
    const edits = ruleEdits({ workflow: llmOnly, feedback: fb, tools: new Map(), allowToolNodes: false });
    expect(edits.every((e) => e.plan.edits.every((x) => x.op !== 'add_node' || x.node.kind === 'llm'))).toBe(true);
    expect(edits.map((e) => e.summary.split(':')[0]).sort()).toEqual([
      'add_node extract after plan',
      'set_prompt reason',
      'set_prompt synthesize',
    ]);
    const proposed = await createRuleBasedOptimizer().propose({
      workflow: llmOnly,
      feedback: fb,
      siblings: [],
      tools: [],
      random: createRandom(1),
      toolNodesAllowed: false,
    });
    expect(proposed.workflow.nodes.some((n) => n.kind === 'tool')).toBe(false);
    await expect(
      createRuleBasedOptimizer().propose({
        workflow: llmOnly,
        feedback,
        siblings: [],
        tools: [],
        random: createRandom(1),
        toolNodesAllowed: false,
      }),
    ).rejects.toThrow(/found no edit|no new edit/);
  });
});
