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
});
