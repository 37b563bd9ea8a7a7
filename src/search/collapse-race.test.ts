import { describe, expect, it } from 'vitest';
import { planToolAnswer } from '../../test/support/workflows.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import type { EditPlan } from '../graph/edits/edit-schema.js';
import { applyEditPlanOrThrow } from '../graph/edits/apply-edit-plan.js';
import { createLexicalJudge } from '../metrics/lexical-judge.js';
import type { TaskRecord } from '../records/schema.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { createToolRegistry } from '../tools/registry.js';
import type { Optimizer } from './optimizers/types.js';
import { runSearch } from './run-search.js';
import { DEFAULT_SETTINGS } from './search-context.js';

/**
 * Racing stops a candidate that cannot beat the best on D_opt (docs/DESIGN.md, "Search"). D_opt is
 * what the mined steps were mined from, so it favours them by construction: a candidate that
 * collapses them into one repeating step is judged on D_val instead, where the search selects.
 */

const TOOLS: ToolDescriptor[] = [
  {
    name: 'forecast',
    description: 'Forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
];
const tools = () =>
  createToolRegistry([{ ...TOOLS[0]!, execute: async (args: Record<string, unknown>) => ({ city: args.city, t: 3 }) }]);

const cities = ['Oslo', 'Lima', 'Kyiv', 'Pune', 'Cork', 'Graz', 'Bern', 'Riga'];
const records: TaskRecord[] = [...cities, ...cities].map((city, i) => ({
  id: `r${i}`,
  query: `What is the forecast for ${city}?`,
  reference: `${city}: 3 degrees.`,
  calls: [{ tool: 'forecast', args: { city } }],
}));

const g0 = planToolAnswer({ name: 'forecast', tool: { id: 'cast', task: 'Get the forecast', tools: ['forecast'] } });

// Only the mined step with its own task reads the city right: every other candidate does worse on every record.
const policy = createScriptedPolicy({
  tool: (req) => [
    {
      tool: 'forecast',
      args: {
        city:
          req.node.id === 'cast' && req.node.task === 'Get the forecast'
            ? (/for (\w+)/.exec(req.query)?.[1] ?? '')
            : 'Nowhere',
      },
    },
  ],
});

/** Proposes these plans in turn, each applied to the workflow it is given. */
function scripted(plans: EditPlan[]): Optimizer {
  let next = 0;
  return {
    id: 'scripted',
    kind: 'offline',
    label: 'scripted optimizer (test)',
    async propose(input) {
      const plan = plans[next++ % plans.length]!;
      return {
        plan,
        summary: plan.summary ?? '',
        workflow: applyEditPlanOrThrow(input.workflow, plan, { tools: TOOLS }),
      };
    },
  };
}

describe('racing and collapsed steps', () => {
  it('scores a candidate that collapses the mined steps on D_val though it is worse on D_opt, and races out another that is', async () => {
    const result = await runSearch({
      settings: { ...DEFAULT_SETTINGS, seed: 0, iterations: 2, patience: 2, racing: true },
      splits: { opt: records, val: records, test: [] },
      g0,
      startLabel: 'test start',
      policy,
      tools: tools(),
      judge: createLexicalJudge(),
      optimizer: scripted([
        { summary: 'guess the city', edits: [{ op: 'set_task', id: 'cast', task: 'Guess' }] },
        { summary: 'one repeating step', edits: [{ op: 'collapse_steps', id: 'steps' }] },
      ]),
    });
    const children = [...result.tree.nodes.values()].filter((c) => c.plan);
    const collapsed = children.find((c) => c.plan!.edits.some((e) => e.op === 'collapse_steps'));
    const guessed = children.find((c) => c.plan!.edits.some((e) => e.op === 'set_task'));
    expect(guessed?.summary).toContain('raced out');
    expect(guessed?.valTc).toBeUndefined();
    expect(collapsed?.summary).not.toContain('raced out');
    expect(collapsed?.valTc).toBe(0);
    expect(result.best.id).toBe(result.root.id);
  });
});
