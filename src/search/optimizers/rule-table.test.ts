import { describe, expect, it, vi } from 'vitest';
import {
  FEEDBACK_KINDS,
  type Feedback,
  type FeedbackKind,
  type FeedbackPattern,
} from '../../evaluate/feedback-types.js';
import { applyEditPlan } from '../../graph/edits/apply-edit-plan.js';
import { neutralTask } from '../../graph/neutral-tasks.js';
import type { Workflow } from '../../graph/schema.js';
import { parseWorkflow } from '../../graph/validate.js';
import { SearchTree } from '../tree.js';
import { ruleTools, s1Patterns, twoSteps } from '../../../test/support/rule-fixtures.js';
import { EDIT_PLAN_JSON_SCHEMA, compactWorkflowView } from './llm-optimizer-prompt.js';
import type { Gen } from './rule-edit.js';
import { RULES, ruleEdits, type RuleContext, type RuleTable } from './rule-edits.js';

const tools = ruleTools();
const workflow: Workflow = twoSteps('Step 1: quotes');

/** One pattern of several kinds, a node error among them (a kind no rule answers). */
const patterns: FeedbackPattern[] = [
  ...s1Patterns(),
  { kind: 'node-error', node: 's2', count: 3, errors: ['no plan'], evidence: 3, text: '' },
  { kind: 'never-called', tool: 'history', referenceRecords: 4, after: 's2', evidence: 4, text: '' },
  { kind: 'call-count', direction: 'fewer', meanK: 3, meanKHat: 2, evidence: 5, text: '' },
];
const feedback: Feedback = { records: 10, reward: 0.4, tc: 0.4, es: 0.4, patterns, worst: [], nodes: [], text: '' };
const ctx = (w: Workflow = workflow): RuleContext => ({
  workflow: w,
  feedback,
  tools: new Map(tools.map((t) => [t.name, t])),
  allowToolNodes: true,
});

describe('the rule table', () => {
  it('has an entry for every kind of feedback pattern, and for nothing else', () => {
    expect(Object.keys(RULES).sort()).toEqual([...FEEDBACK_KINDS].sort());
    expect(FEEDBACK_KINDS).toHaveLength(new Set(FEEDBACK_KINDS).size);
  });

  it('does not compile without an entry for a kind, or with a rule under a kind it does not read', () => {
    const { 'node-error': _dropped, ...rest } = RULES;
    // @ts-expect-error a table without an entry for 'node-error' is not a rule table
    const partial: RuleTable = rest;
    // @ts-expect-error the rule of wrong tools reads a wrong-tool pattern, not a node error
    const misfiled: RuleTable = { ...RULES, 'node-error': RULES['wrong-tool'] };
    expect([partial, misfiled]).toHaveLength(2);
  });

  it('calls a rule only with patterns of its kind', () => {
    const calls: Array<[FeedbackKind, string]> = [];
    const spied = Object.fromEntries(
      FEEDBACK_KINDS.map((k) => [
        k,
        (RULES[k] as ReadonlyArray<Gen<typeof k>>).map((rule) =>
          vi.fn((p: FeedbackPattern, x: RuleContext) => {
            calls.push([k, p.kind]);
            return rule(p as never, x);
          }),
        ),
      ]),
    ) as unknown as RuleTable;
    const edits = ruleEdits(ctx(), spied);
    expect(edits).toEqual(ruleEdits(ctx()));
    expect(edits.length).toBeGreaterThan(0);
    expect(calls.every(([rule, pattern]) => rule === pattern)).toBe(true);
    // Each pattern went to the rules of its kind (one each here), and a node error to none.
    expect(calls.map(([, p]) => p)).toEqual(['wrong-tool', 'extra-calls', 'never-called', 'call-count']);
    for (const k of FEEDBACK_KINDS.filter((k) => !patterns.some((p) => p.kind === k)))
      for (const rule of (spied as unknown as Record<string, ReturnType<typeof vi.fn>[]>)[k]!)
        expect(rule).not.toHaveBeenCalled();
  });

  it('lists the edits pattern by pattern, in the rules order of each kind', () => {
    const order: string[] = [];
    const table = Object.fromEntries(
      FEEDBACK_KINDS.map((k) => [k, [() => (order.push(`${k}/a`), []), () => (order.push(`${k}/b`), [])]]),
    ) as unknown as RuleTable;
    ruleEdits(ctx(), table);
    expect(order).toEqual(patterns.flatMap((p) => [`${p.kind}/a`, `${p.kind}/b`]));
  });
});

describe('the mark on the neutral tasks the rules write', () => {
  const neutralEdit = (w: Workflow) => ruleEdits(ctx(w)).find((e) => e.summary.startsWith('set_task s1 neutral'));

  it('is written by the edit, survives a JSON save and load, and stops the same edit being proposed again', () => {
    const e = neutralEdit(workflow)!;
    expect(e.plan.edits).toEqual([{ op: 'set_task', id: 's1', task: neutralTask(1), taskPart: 1 }]);
    const applied = applyEditPlan(workflow, e.plan, { tools });
    if (!applied.ok) throw new Error(applied.error.message);
    const saved = JSON.stringify(applied.workflow, null, 2);
    const loaded = parseWorkflow(JSON.parse(saved));
    if (!loaded.ok) throw new Error('not loaded');
    expect(loaded.workflow.nodes[1]).toMatchObject({ task: neutralTask(1), taskPart: 1 });
    expect(neutralEdit(loaded.workflow)).toBeUndefined();
  });

  it('is cleared by a set_task without it (a task the rules did not write as a whole)', () => {
    const marked = applyEditPlan(workflow, neutralEdit(workflow)!.plan, { tools });
    if (!marked.ok) throw new Error(marked.error.message);
    const changed = applyEditPlan(marked.workflow, {
      edits: [
        { op: 'set_task', id: 's1', task: `${neutralTask(1)} Fill \`symbol\` with the value the request gives.` },
      ],
    });
    if (!changed.ok) throw new Error(changed.error.message);
    expect(changed.workflow.nodes[1]).not.toHaveProperty('taskPart');
    expect(neutralEdit(changed.workflow)).toBeDefined();
  });

  it('is set on a run stored before it existed when the run is resumed', () => {
    const old = structuredClone(workflow);
    Object.assign(old.nodes[1]!, { task: neutralTask(1) });
    const tree = SearchTree.fromRows([
      { id: 'c0', seq: 0, parent: null, iteration: 0, workflow: old, visits: 1, w: 0.4, q: 0.4 },
    ]);
    const resumed = tree.get('c0').workflow!;
    expect(resumed.nodes[1]).toMatchObject({ taskPart: 1 });
    expect(neutralEdit(resumed)).toBeUndefined();
  });

  it('is never shown to a model: not in the edit-plan schema, not in the workflow view', () => {
    expect(JSON.stringify(EDIT_PLAN_JSON_SCHEMA)).not.toContain('taskPart');
    const marked = structuredClone(workflow);
    Object.assign(marked.nodes[1]!, { task: neutralTask(1), taskPart: 1 });
    const view = compactWorkflowView(marked, feedback);
    expect(view).toContain(neutralTask(1));
    expect(view).not.toContain('taskPart');
  });
});
