import { describe, expect, it } from 'vitest';
import { planToolAnswer } from '../../test/support/workflows.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { applyEditPlan } from '../graph/edits/apply-edit-plan.js';
import type { Workflow } from '../graph/schema.js';
import { createLexicalJudge } from '../metrics/lexical-judge.js';
import type { TaskRecord } from '../records/schema.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { createToolRegistry } from '../tools/registry.js';
import { evaluateWorkflow } from './evaluate.js';
import type { FeedbackPattern } from './feedback-types.js';

/**
 * Which binding sources the feedback proposes (evaluate/feedback-bindings.ts): sources that carry
 * over to requests the workflow has never seen, and never a value of some records copied into the
 * calls of every other.
 */

const TOOLS: ToolDescriptor[] = [
  {
    name: 'news',
    description: 'Latest news about a listed company.',
    inputSchema: {
      type: 'object',
      properties: { symbol: { type: 'string' }, units: { type: 'string' } },
      required: ['symbol'],
    },
  },
];
const tools = () => createToolRegistry([{ ...TOOLS[0]!, execute: async () => ({ items: [] }) }]);
const workflow: Workflow = planToolAnswer({
  name: 'news',
  tool: { id: 'get', task: 'Get the news', tools: ['news'] },
});

// A policy that takes the company's name, where the references use the ticker.
const byName = createScriptedPolicy({
  tool: (req) => [{ tool: 'news', args: { symbol: /about ([A-Z][a-z]+)/.exec(req.query)?.[1] ?? '' } }],
});

const record = (id: string, query: string, args: Record<string, unknown>): TaskRecord => ({
  id,
  query,
  reference: 'Some news.',
  calls: [{ tool: 'news', args }],
});

async function bindable(records: TaskRecord[], w: Workflow = workflow) {
  const ev = await evaluateWorkflow(w, records, {
    policy: byName,
    tools: tools(),
    judge: createLexicalJudge(),
    feedback: { tools: TOOLS },
  });
  return {
    tc: ev.tc ?? 0,
    patterns: (ev.feedback?.patterns ?? []).filter(
      (p): p is Extract<FeedbackPattern, { kind: 'bindable' }> => p.kind === 'bindable',
    ),
  };
}

describe('binding sources from feedback', () => {
  it('a value between punctuation in the request gives a pattern that finds it in requests never seen', async () => {
    const seen = [
      ['Albemarle', 'ALB'],
      ['Summit', 'SMMT'],
      ['Dwave', 'QBTS'],
      ['Tesla', 'TSLA'],
    ].map(([name, ticker], i) =>
      record(`r${i}`, `Any news about ${name} Inc. (${ticker}) today? I hold ${i + 2} shares of it.`, {
        symbol: ticker,
      }),
    );
    const { patterns } = await bindable(seen);
    const symbol = patterns.find((p) => p.param === 'symbol');
    expect(symbol?.source).toEqual({ from: 'request', pattern: '\\(([A-Z]+)\\)' });
    const applied = applyEditPlan(
      workflow,
      { edits: [{ op: 'set_binding', id: 'get', tool: 'news', param: 'symbol', source: symbol!.source! }] },
      { tools: TOOLS },
    );
    expect(applied.ok).toBe(true);
    if (!applied.ok) return;
    // New companies, worded differently, with another upper-case word before the ticker.
    const unseen = [
      record('u0', 'My CEO asked: what is new about Nvidia (NVDA)?', { symbol: 'NVDA' }),
      record('u1', 'URGENT: headlines about Oracle Corp (ORCL).', { symbol: 'ORCL' }),
    ];
    expect((await bindable(unseen, workflow)).tc).toBe(0);
    expect((await bindable(unseen, applied.workflow)).tc).toBe(1);
  });

  it('never proposes as a constant a value the requests state, however many records share it', async () => {
    // Every record asks about the same company; its ticker is in the request (in lower case), so a
    // constant would copy it into the calls of every other company's requests.
    const records = [0, 1, 2, 3].map((i) =>
      record(`r${i}`, `Any news about Acme (ticker acme) from the last ${i + 1} days?`, { symbol: 'ACME' }),
    );
    const { tc, patterns } = await bindable(records);
    expect(tc).toBe(0);
    expect(patterns.find((p) => p.param === 'symbol')).toBeUndefined();
  });

  it('proposes a constant only when it recurs in at least five groups (tasks, users; records without groups)', async () => {
    const make = (units: string[], group?: (i: number) => string) =>
      units.map((u, i) => ({
        ...record(`r${i}`, `Any news about Acme (ACME) number ${i}?`, { symbol: 'ACME', units: u }),
        ...(group ? { group: group(i) } : {}),
      }));
    const four = await bindable(make(['metric', 'metric', 'metric', 'metric', 'imperial']));
    expect(four.patterns.find((p) => p.param === 'units')).toBeUndefined();
    const five = ['metric', 'metric', 'metric', 'metric', 'metric', 'imperial'];
    expect((await bindable(make(five))).patterns.find((p) => p.param === 'units')?.source).toEqual({
      from: 'const',
      value: 'metric',
    });
    // One customer's task run five times is one group: its value is never a constant of the workflow.
    expect((await bindable(make(five, () => 'task-3'))).patterns.find((p) => p.param === 'units')).toBeUndefined();
  });

  it('never proposes an identifier-shaped constant, however many groups share it', async () => {
    const records = [0, 1, 2, 3, 4, 5].map((i) =>
      record(`r${i}`, `Any news about Acme (ACME) for account holder ${i}?`, { symbol: 'ACME', units: 'ACC-8812734' }),
    );
    expect((await bindable(records)).patterns.find((p) => p.param === 'units')).toBeUndefined();
  });

  it('proposes no binding that cannot make a call right: the call keeps another wrong argument no program gives', async () => {
    const companies = [
      ['Albemarle', 'ALB'],
      ['Summit', 'SMMT'],
      ['Dwave', 'QBTS'],
      ['Tesla', 'TSLA'],
    ];
    // The same requests, with a second argument whose values nothing in the request or a result gives.
    const withUnits = companies.map(([name, ticker], i) =>
      record(`r${i}`, `Any news about ${name} Inc. (${ticker}) today?`, { symbol: ticker, units: `scale-${i}` }),
    );
    expect((await bindable(withUnits)).patterns.find((p) => p.param === 'symbol')).toBeUndefined();
    // Without it, the same program makes every call right and is proposed, one call of evidence each.
    const alone = companies.map(([name, ticker], i) =>
      record(`r${i}`, `Any news about ${name} Inc. (${ticker}) today?`, { symbol: ticker }),
    );
    expect((await bindable(alone)).patterns.find((p) => p.param === 'symbol')).toMatchObject({ evidence: 4 });
  });
});
