import { describe, expect, it } from 'vitest';
import { applyEditPlan } from '../graph/edits/apply-edit-plan.js';
import type { Workflow } from '../graph/schema.js';
import { createLexicalJudge } from '../metrics/lexical-judge.js';
import type { TaskRecord } from '../records/schema.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { openStore } from '../store/open-store.js';
import { defineTool } from '../tools/define-tool.js';
import { createToolRegistry } from '../tools/registry.js';
import { createBudgetWatch } from './budget-watch.js';
import { OptimizerError } from './optimizers/optimizer-error.js';
import type { Optimizer, ProposeInput } from './optimizers/types.js';
import { runSearch, type RunSearchInput } from './run-search.js';
import { DEFAULT_SETTINGS, type SearchSettings } from './search-context.js';
import { planToolAnswer } from '../../test/support/workflows.js';

/** A tiny domain: the right call is lookup(q: "a"); the scripted policy makes it only when the task says GOOD. */
const g0: Workflow = planToolAnswer({
  name: 'tiny',
  plan: { prompt: 'Plan {{query}}' },
  tool: { id: 't1', task: 'look something up' },
  answer: { id: 'synthesize' },
});
const rec = (id: string): TaskRecord => ({
  id,
  query: `find the value ${id}`,
  reference: 'the value of a',
  calls: [{ tool: 'lookup', args: { q: 'a' } }],
});
const splits = { opt: ['o1', 'o2', 'o3'].map(rec), val: ['v1', 'v2'].map(rec), test: ['t1'].map(rec) };

function setup(
  propose: (input: ProposeInput, call: number) => Workflow | Error,
  settings: Partial<SearchSettings> = {},
) {
  let toolPlans = 0;
  const tools = createToolRegistry([
    defineTool({
      name: 'lookup',
      description: 'look up a value',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      execute: ({ q }) => `the value of ${String(q)}`,
    }),
  ]);
  const policy = createScriptedPolicy({
    tool: (req) => {
      toolPlans++;
      return [{ tool: 'lookup', args: { q: req.node.task.includes('GOOD') ? 'a' : 'b' } }];
    },
    llm: (req) => (req.node.role === 'synthesize' ? req.inputs.map((i) => JSON.stringify(i.output)).join(' ') : 'plan'),
  });
  let calls = 0;
  const optimizer: Optimizer = {
    id: 'fake',
    kind: 'offline',
    label: 'fake optimizer',
    async propose(input) {
      const out = propose(input, calls++);
      if (out instanceof Error) throw out;
      return { plan: { edits: [] }, workflow: out, summary: `task: ${(out.nodes[1] as { task: string }).task}` };
    },
  };
  const input: RunSearchInput = {
    settings: { ...DEFAULT_SETTINGS, seed: 1, iterations: 5, patience: 10, ...settings },
    splits,
    g0,
    startLabel: 'test',
    policy,
    tools,
    judge: createLexicalJudge(),
    optimizer,
    memo: false,
  };
  return { input, toolPlans: () => toolPlans };
}

const withTask = (w: Workflow, task: string): Workflow => {
  const r = applyEditPlan(w, { edits: [{ op: 'set_task', id: 't1', task }] });
  if (!r.ok) throw new Error(r.error.message);
  return r.workflow;
};

describe('MCTS (Algorithm 1)', () => {
  it('fills the root with 3 children, then descends to the best child, and backpropagates every reward to the root', async () => {
    const { input } = setup((inp, k) => withTask(inp.workflow, k === 1 ? 'GOOD lookup' : `variant ${k}`));
    const result = await runSearch(input);
    expect(result.iterations.map((r) => r.parent)).toEqual(['c0', 'c0', 'c0', 'c2', 'c2']);
    expect(result.best.id).toBe('c2');
    const root = result.tree.get('c0');
    expect(root.visits).toBe(6);
    const rewards = [...result.tree.nodes.values()].map((c) => c.optReward!);
    expect(root.w).toBeCloseTo(rewards.reduce((a, b) => a + b, 0));
    const c2 = result.tree.get('c2');
    expect(c2.visits).toBe(3);
    expect(c2.q).toBeCloseTo(c2.w / 3);
    expect(c2.optReward).toBeGreaterThan(root.optReward! + 0.4);
    expect(result.iterations.map((r) => r.lambda)).toEqual(
      [...result.iterations.map((r) => r.lambda)].sort((a, b) => b - a),
    );
    expect(result.test!.best.tc).toBe(1);
    expect(result.test!.g0.tc).toBe(0);
  });

  it('records a failed expansion with reward 0 and a duplicate without evaluating it again', async () => {
    const { input, toolPlans } = setup(
      (inp, k) =>
        k === 0
          ? new OptimizerError('no valid plan')
          : k === 1
            ? withTask(
                inp.workflow,
                inp.workflow.nodes[1]!.kind === 'tool' ? (inp.workflow.nodes[1] as { task: string }).task : '',
              )
            : withTask(inp.workflow, `v${k}`),
      { iterations: 3 },
    );
    const store = openStore(':memory:');
    store.createRun({
      id: 'r',
      status: 'running',
      seed: 1,
      strategy: 'mcts',
      config: {},
      policyLabel: 'p',
      judgeLabel: 'j',
      optimizerLabel: 'o',
      iterationsDone: 0,
      sinceImprovement: 0,
    });
    let plansBefore = 0;
    const result = await runSearch({
      ...input,
      persist: { store, runId: 'r' },
      onIteration: (row) => {
        if (row.iteration === 2) expect(toolPlans()).toBe(plansBefore);
        plansBefore = toolPlans();
      },
    });
    const [c1, c2] = [result.tree.get('c1'), result.tree.get('c2')];
    expect(c1).toMatchObject({
      error: 'no valid plan',
      optReward: 0,
      visits: 1,
      summary: 'expansion failed: no valid plan',
    });
    expect(c2).toMatchObject({ duplicateOf: 'c0', optReward: result.root.optReward, valScore: result.root.valScore });
    expect(result.iterations.map((r) => r.status)).toEqual(['failed', 'duplicate', 'ok']);
    // Neither is ever expanded: the third child went to the root.
    expect(result.iterations[2]!.parent).toBe('c0');
    const stored = store.loadCandidates('r');
    expect(stored.map((c) => [c.id, c.error ?? null, c.duplicateOf ?? null])).toEqual([
      ['c0', null, null],
      ['c1', 'no valid plan', null],
      ['c2', null, 'c0'],
      ['c3', null, null],
    ]);
    expect(store.getRun('r')).toMatchObject({ status: 'done', iterationsDone: 3 });
    store.close();
  });

  it('stops after P iterations without a better validation score', async () => {
    const { input } = setup((inp, k) => withTask(inp.workflow, `still wrong ${k}`), { iterations: 30, patience: 2 });
    const result = await runSearch(input);
    expect(result.stopKind).toBe('patience');
    expect(result.iterations).toHaveLength(2);
    expect(result.best.id).toBe('c0');
  });

  it('makes the same choices for the same seed (randomness from the seed and iteration only)', async () => {
    const pick = (inp: ProposeInput) => withTask(inp.workflow, ['GOOD a', 'GOOD b', 'x', 'y', 'z'][inp.random.int(5)]!);
    const a = await runSearch(setup(pick, { seed: 9 }).input);
    const b = await runSearch(setup(pick, { seed: 9 }).input);
    const shape = (r: typeof a) =>
      [...r.tree.nodes.values()].map((c) => [c.id, c.parent, c.summary, c.duplicateOf ?? null]);
    expect(shape(a)).toEqual(shape(b));
  });

  it('beam search expands the top candidates of each step with the same candidate budget', async () => {
    const { input } = setup(
      (inp, k) => withTask(inp.workflow, k === 1 ? 'GOOD' : `${(inp.workflow.nodes[1] as { task: string }).task}/${k}`),
      { strategy: 'beam', beamWidth: 2, children: 2, iterations: 6 },
    );
    const result = await runSearch(input);
    expect(result.tree.size).toBe(7);
    // Step 1: the root's two children; step 2: two children for each of the two best (c2 is GOOD, best first).
    expect(result.iterations.map((r) => r.parent)).toEqual(['c0', 'c0', 'c2', 'c2', 'c1', 'c1']);
  });
});

describe('budgets', () => {
  it('a wall-time budget stops the search between iterations and keeps the best so far', async () => {
    let clock = 0;
    const { input } = setup((inp, k) => withTask(inp.workflow, k === 0 ? 'GOOD' : `v${k}`), { iterations: 10 });
    // Each judged answer advances the fake clock by 8 ms: G0 (5 records) ends at 40, iteration 1 at 80, iteration 2 at 120 > 100.
    const budget = createBudgetWatch({ maxWallMs: 100 }, { now: () => clock, timer: false });
    const lexical = input.judge;
    const judge = {
      ...lexical,
      score: async (req: Parameters<typeof lexical.score>[0]) => ((clock += 8), lexical.score(req)),
    };
    const result = await runSearch({ ...input, judge, budget });
    expect(result.stopKind).toBe('budget');
    expect(result.stopReason).toBe('budget exhausted: 0 s of 0 s elapsed');
    expect(result.iterations.map((r) => r.child)).toEqual(['c1', 'c2']);
    expect(result.best.id).toBe('c1');
    expect(result.testSkipped).toBe('the budget ran out; the test set was not run');
  });
});
