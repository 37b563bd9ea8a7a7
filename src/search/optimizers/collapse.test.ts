import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../../contracts/tools.js';
import { evaluateWorkflow } from '../../evaluate/evaluate.js';
import type { Workflow } from '../../graph/schema.js';
import { applyEditPlanOrThrow } from '../../graph/edits/apply-edit-plan.js';
import { createLexicalJudge } from '../../metrics/lexical-judge.js';
import type { TaskRecord } from '../../records/schema.js';
import { createOfflinePolicy } from '../../policies/offline/offline-policy.js';
import { createToolRegistry } from '../../tools/registry.js';
import { ruleEdits } from './rule-edits.js';

// The mined start never costs (docs/DESIGN.md, "Search"): where the steps' layout does not fit the
// requests, the rule optimizer offers one repeating step instead, and the search keeps it if D_val rises.

const tool = (name: string, description: string, param: string): ToolDescriptor => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { [param]: { type: 'string' } }, required: [param] },
});
const TOOLS = [
  tool('city_weather', 'Current weather of a city.', 'city'),
  tool('city_hotels', 'Hotels of a city.', 'city'),
];

// Two steps mined in the order weather → hotels, but the requests ask for hotels first.
const mined: Workflow = {
  version: 1,
  name: 'mined',
  nodes: [
    { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
    { id: 'step_1', kind: 'tool', task: 'Get the weather of the city', tools: ['city_weather'] },
    { id: 'step_2', kind: 'tool', task: 'Find hotels in the city', tools: ['city_hotels'] },
    {
      id: 'answer',
      kind: 'llm',
      role: 'synthesize',
      prompt: 'Answer {{query}} from {{inputs}}',
      output: { type: 'text' },
    },
  ],
  edges: [
    { from: 'plan', to: 'step_1', kind: 'data' },
    { from: 'step_1', to: 'step_2', kind: 'data' },
    { from: 'step_2', to: 'answer', kind: 'data' },
  ],
};
const records: TaskRecord[] = ['Oslo', 'Lima', 'Kyiv', 'Pune'].map((city, i) => ({
  id: `r${i}`,
  query: `Find hotels in ${city}, then get the weather in ${city}.`,
  reference: `${city}: hotels and 3 degrees.`,
  calls: [
    { tool: 'city_hotels', args: { city } },
    { tool: 'city_weather', args: { city } },
  ],
}));

describe('collapsing a layout that does not fit', () => {
  it('the feedback says where the steps made calls out of order, the optimizer offers collapse_steps, and the one step makes them in order', async () => {
    const tools = () => createToolRegistry(TOOLS.map((t) => ({ ...t, execute: async () => ({ ok: true }) })));
    const policy = createOfflinePolicy({ tools: TOOLS });
    const opts = { policy, tools: tools(), judge: createLexicalJudge() };
    const before = await evaluateWorkflow(mined, records, opts);
    expect(before.feedback!.patterns.find((p) => p.kind === 'layout')).toMatchObject({ steps: 2, evidence: 4 });
    const edit = ruleEdits({
      workflow: mined,
      feedback: before.feedback!,
      tools: new Map(TOOLS.map((t) => [t.name, t])),
      allowToolNodes: true,
    }).find((e) => e.plan.edits.some((x) => x.op === 'collapse_steps'));
    expect(edit?.plan.edits).toEqual([{ op: 'collapse_steps', id: 'call' }]);
    // Weighed by its whole evidence, one per record the layout failed, so a search with little
    // patience tries it among its first expansions (weighed at 0.3 of it, it came after the hints).
    expect(edit!.score).toBe(4);
    const after = await evaluateWorkflow(applyEditPlanOrThrow(mined, edit!.plan, { tools: TOOLS }), records, opts);
    expect(before.tc).toBeLessThan(1);
    expect(after.tc).toBe(1);
  });

  it('where the tools mined at the steps mislead, the optimizer also offers drop_mined, and the steps then pick the tools the requests ask for', async () => {
    // Two weather tools that read alike; past runs used the one for the days ahead at the first step,
    // these requests ask for the weather now (the tool listed first).
    const tools = [
      tool('weather_now', 'Weather of a city.', 'city'),
      tool('weather_days', 'Weather of a city.', 'city'),
      tool('city_hotels', 'Hotels of a city.', 'city'),
    ];
    const generic = (id: string, mined: string) => ({
      id,
      kind: 'tool' as const,
      task: 'Look up what the request asks',
      mined: [mined],
    });
    const withMined: Workflow = {
      ...mined,
      nodes: [mined.nodes[0]!, generic('step_1', 'weather_days'), generic('step_2', 'city_hotels'), mined.nodes[3]!],
    };
    const asked: TaskRecord[] = ['Oslo', 'Lima', 'Kyiv', 'Pune'].map((city, i) => ({
      id: `w${i}`,
      query: `Get the weather in ${city}, then find hotels in ${city}.`,
      reference: `${city}: 3 degrees and hotels.`,
      calls: [
        { tool: 'weather_now', args: { city } },
        { tool: 'city_hotels', args: { city } },
      ],
    }));
    const registry = () => createToolRegistry(tools.map((t) => ({ ...t, execute: async () => ({ ok: true }) })));
    const opts = { policy: createOfflinePolicy({ tools }), tools: registry(), judge: createLexicalJudge() };
    const ctx = { tools: new Map(tools.map((t) => [t.name, t])), allowToolNodes: true };
    const before = await evaluateWorkflow(withMined, asked, opts);
    const edit = ruleEdits({ workflow: withMined, feedback: before.feedback!, ...ctx }).find((e) =>
      e.plan.edits.some((x) => x.op === 'drop_mined'),
    );
    expect(edit?.plan.edits).toEqual([{ op: 'drop_mined' }]);
    const dropped = applyEditPlanOrThrow(withMined, edit!.plan, { tools });
    expect(dropped.nodes.map((n) => n.id)).toEqual(['plan', 'step_1', 'step_2', 'answer']);
    const after = await evaluateWorkflow(dropped, asked, opts);
    expect(before.tc).toBeLessThan(1);
    expect(after.tc).toBe(1);
    // With no mined tools left there is nothing to drop: the edit is not offered again.
    expect(
      ruleEdits({ workflow: dropped, feedback: before.feedback!, ...ctx }).some((e) =>
        e.plan.edits.some((x) => x.op === 'drop_mined'),
      ),
    ).toBe(false);
  });
});
