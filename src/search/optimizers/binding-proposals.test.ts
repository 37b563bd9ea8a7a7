import { describe, expect, it } from 'vitest';
import { mockModel, userText } from '../../../test/support/mock-model.js';
import { planToolAnswer } from '../../../test/support/workflows.js';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { evaluateWorkflow } from '../../evaluate/evaluate.js';
import type { Feedback, FeedbackPattern } from '../../evaluate/feedback-types.js';
import type { Workflow } from '../../graph/schema.js';
import { createLlmClient } from '../../llm/client.js';
import { createLexicalJudge } from '../../metrics/lexical-judge.js';
import type { TaskRecord } from '../../records/schema.js';
import { createScriptedPolicy } from '../../testing/scripted-policy.js';
import { createToolRegistry } from '../../tools/registry.js';
import { createRandom } from '../../util/random.js';
import { runSearch } from '../run-search.js';
import { DEFAULT_SETTINGS } from '../search-context.js';
import { createLlmOptimizer } from './llm-optimizer.js';
import { createRuleBasedOptimizer } from './rule-based.js';
import { ruleEdits } from './rule-edits.js';

/**
 * Bindings come from execution feedback (docs/DESIGN.md, "Search"): when a source reproduces a
 * parameter's reference values in most records where the node made that call, the feedback says so
 * with the edit that would bind it, and both optimizers can turn that into a `set_binding` edit that
 * makes the calls right with no model.
 */

const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });
const TOOLS: ToolDescriptor[] = [
  {
    name: 'forecast',
    description: 'Forecast for a city.',
    inputSchema: obj({ city: { type: 'string' }, units: { type: 'string' } }, ['city']),
  },
];
const tools = () =>
  createToolRegistry([{ ...TOOLS[0]!, execute: async (args: Record<string, unknown>) => ({ city: args.city, t: 3 }) }]);

const workflow: Workflow = planToolAnswer({
  name: 'forecast',
  tool: { id: 'cast', task: 'Get the forecast', tools: ['forecast'] },
});

// Every reference asks in metric units; the requests never say so. Six requests: a constant must
// recur in five groups (here records) before a workflow may carry it.
const records: TaskRecord[] = ['Oslo', 'Lima', 'Kyiv', 'Pune', 'Cork', 'Graz'].map((city, i) => ({
  id: `r${i}`,
  query: `What is the forecast for ${city}?`,
  reference: `${city}: 3 degrees.`,
  calls: [{ tool: 'forecast', args: { city, units: 'metric' } }],
}));

// A policy that gets the city from the request and leaves the units out, as a model would that is not told.
const policy = createScriptedPolicy({
  tool: (req) => [{ tool: 'forecast', args: { city: /for (\w+)/.exec(req.query)?.[1] ?? '' } }],
});

async function feedbackOf(w: Workflow): Promise<{ feedback: Feedback; tc: number }> {
  const ev = await evaluateWorkflow(w, records, {
    policy,
    tools: tools(),
    judge: createLexicalJudge(),
    feedback: { tools: TOOLS },
  });
  return { feedback: ev.feedback!, tc: ev.tc ?? 0 };
}

const input = (feedback: Feedback) => ({ workflow, feedback, siblings: [], tools: TOOLS, random: createRandom(1) });

describe('binding edits from execution feedback', () => {
  it('the feedback names the source that reproduces the reference values, with the edit', async () => {
    const { feedback, tc } = await feedbackOf(workflow);
    expect(tc).toBe(0);
    const bindable = feedback.patterns.filter(
      (p): p is Extract<FeedbackPattern, { kind: 'bindable' }> => p.kind === 'bindable',
    );
    expect(bindable).toHaveLength(1);
    expect(bindable[0]).toMatchObject({
      node: 'cast',
      tool: 'forecast',
      param: 'units',
      source: { from: 'const', value: 'metric' },
      reproduced: 6,
      current: 0,
    });
    expect(feedback.text).toContain(
      'argument units of forecast: constant "metric" gives the reference value in 6 of 6',
    );
    expect(feedback.text).toContain('"op":"set_binding"');
  });

  it('the rule-based optimizer binds the parameter in the first child of a search node, before edits of more evidence, and the bound workflow makes the right calls', async () => {
    const { feedback } = await feedbackOf(workflow);
    const opt = createRuleBasedOptimizer();
    const all = ruleEdits({ workflow, feedback, tools: new Map(TOOLS.map((t) => [t.name, t])), allowToolNodes: true });
    const bindScore = Math.max(...all.filter((e) => e.group === 'bind').map((e) => e.score));
    // Other edits have more evidence than the binding (its evidence is a few calls)…
    expect(all.some((e) => e.group !== 'bind' && e.score > bindScore)).toBe(true);
    // …and the binding still comes first.
    const bound = await opt.propose(input(feedback));
    expect(bound.plan.edits).toContainEqual({
      op: 'set_binding',
      id: 'cast',
      tool: 'forecast',
      param: 'units',
      source: { from: 'const', value: 'metric' },
    });
    expect((await feedbackOf(bound.workflow)).tc).toBe(1);
  });

  it('the LLM optimizer is shown the evidence and its set_binding plan is applied', async () => {
    const { feedback } = await feedbackOf(workflow);
    const plan = {
      summary: 'bind units: every reference uses metric',
      edits: [
        { op: 'set_binding', id: 'cast', tool: 'forecast', param: 'units', source: { from: 'const', value: 'metric' } },
      ],
    };
    const model = mockModel([{ json: plan }]);
    const opt = createLlmOptimizer({ client: createLlmClient({ model, spec: 'mock:model', env: {}, maxRetries: 0 }) });
    const p = await opt.propose(input(feedback));
    const call = model.doGenerateCalls[0]!;
    expect(JSON.stringify((call.responseFormat as { schema?: unknown }).schema)).toContain('"set_binding"');
    expect(userText(call)).toContain('constant "metric" gives the reference value in 6 of 6 reference calls');
    expect(p.workflow.nodes.find((n) => n.id === 'cast')).toMatchObject({
      bind: [{ tool: 'forecast', param: 'units', source: { from: 'const', value: 'metric' } }],
    });
    expect((await feedbackOf(p.workflow)).tc).toBe(1);
  });

  it('a search evaluates the bound child and keeps it: a bound workflow is not a copy of its parent', async () => {
    const result = await runSearch({
      settings: { ...DEFAULT_SETTINGS, seed: 0, iterations: 4, patience: 4, racing: false },
      splits: { opt: records, val: records, test: [] },
      g0: workflow,
      startLabel: 'test start',
      policy,
      tools: tools(),
      judge: createLexicalJudge(),
      optimizer: createRuleBasedOptimizer(),
    });
    const bound = [...result.tree.nodes.values()].filter((c) => c.plan?.edits.some((e) => e.op === 'set_binding'));
    expect(bound.length).toBeGreaterThan(0);
    expect(bound.every((c) => c.duplicateOf === undefined && c.optTc === 1)).toBe(true);
    expect(result.best.valTc).toBe(1);
    expect(result.root.valTc).toBe(0);
  });
});
