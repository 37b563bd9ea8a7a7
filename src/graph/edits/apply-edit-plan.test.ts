import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isFlowScoutError } from '../../errors/index.js';
import type { Workflow } from '../schema.js';
import { validateWorkflow } from '../validate.js';
import { applyEditPlan, applyEditPlanOrThrow } from './apply-edit-plan.js';
import { EDIT_OPS, EditPlanSchema } from './edit-schema.js';

const dir = join(import.meta.dirname, '../../../test/fixtures/workflows');
const load = (sub: string, name: string): Workflow => JSON.parse(readFileSync(join(dir, sub, `${name}.json`), 'utf8'));

/** One plan per edit kind, each applied to a fixture; together they exercise every op. */
const sequence = applyEditPlanOrThrow(load('valid', 'parallel'), {
  edits: [{ op: 'sequentialize', first: 'quote', second: 'news' }],
});
const linear = load('valid', 'linear');
const withMined: Workflow = {
  ...linear,
  nodes: linear.nodes.map((n) => (n.kind === 'tool' ? { ...n, mined: ['get_current_weather'] } : n)),
};
const oneOfEach: Array<[string | Workflow, unknown]> = [
  ['linear', { op: 'add_node', node: { kind: 'llm', id: 'check', role: 'verify' }, from: ['current'], to: ['answer'] }],
  ['parallel', { op: 'remove_node', id: 'news' }],
  ['linear', { op: 'replace_node', id: 'current', node: { kind: 'tool', id: 'now', task: 'Get the weather now' } }],
  ['parallel', { op: 'add_edge', from: 'quote', to: 'news', kind: 'control' }],
  ['conditional-branch', { op: 'remove_edge', from: 'current', to: 'answer' }],
  ['parallel', { op: 'reconnect_edge', from: 'plan', to: 'news', newFrom: 'quote' }],
  ['parallel', { op: 'add_branch', judge: 'wants_news', field: 'news', target: 'news' }],
  ['conditional-branch', { op: 'refine_branch', judge: 'needs_forecast', question: 'Is tomorrow mentioned?' }],
  ['linear', { op: 'set_task', id: 'current', task: 'x' }],
  ['parallel', { op: 'sequentialize', first: 'quote', second: 'news' }],
  [sequence, { op: 'parallelize', first: 'quote', second: 'news' }],
  ['retry', { op: 'set_retry', id: 'search', attempts: 2 }],
  ['linear', { op: 'set_calls', id: 'current', calls: 'many' }],
  ['parallel', { op: 'collapse_steps', id: 'call' }],
  [withMined, { op: 'drop_mined' }],
  ['linear', { op: 'set_prompt', id: 'plan', prompt: 'Plan: {{query}}' }],
  ['linear', { op: 'set_directives', id: 'answer', variant: 'brief' }],
  ['linear', { op: 'set_hint', id: 'current', tool: 'get_current_weather', hint: { asks: { weather: 1 } } }],
  ['calls-many', { op: 'set_tool_hint', id: 'weather', tools: null }],
  [
    'linear',
    {
      op: 'set_binding',
      id: 'current',
      tool: 'get_current_weather',
      param: 'city',
      source: { from: 'request', pattern: '\\bin\\s+([A-Z][a-z]+)' },
    },
  ],
  [
    'linear',
    {
      op: 'set_hint',
      id: 'current',
      tool: 'get_current_weather',
      hint: { params: { city: { from: { request: 1 }, before: { in: 0.9 } } } },
    },
  ],
];

describe('applyEditPlan', () => {
  it('applies one edit of every kind to a valid result', () => {
    const ops = new Set(oneOfEach.map(([, e]) => (e as { op: string }).op));
    expect([...EDIT_OPS].filter((op) => !ops.has(op))).toEqual([]);
    for (const [fixture, edit] of oneOfEach) {
      const r = applyEditPlan(typeof fixture === 'string' ? load('valid', fixture) : fixture, { edits: [edit] });
      expect(r.ok ? 'ok' : r.error.message, JSON.stringify(edit)).toBe('ok');
      if (r.ok) expect(validateWorkflow(r.workflow)).toEqual([]);
    }
  });

  it('is pure: the input workflow is never changed, whether the plan applies or not', () => {
    const w = load('valid', 'conditional-branch');
    const before = JSON.stringify(w);
    for (const [, edit] of oneOfEach) applyEditPlan(w, { edits: [edit] });
    applyEditPlan(w, {
      edits: [
        { op: 'remove_node', id: 'forecast' },
        { op: 'remove_node', id: 'plan' },
      ],
    });
    expect(JSON.stringify(w)).toBe(before);
    const r = applyEditPlan(w, { edits: [{ op: 'set_task', id: 'forecast', task: 'changed' }] });
    expect(r.ok && r.workflow.nodes[3]).toMatchObject({ task: 'changed' });
    expect(w.nodes[3]).toMatchObject({ task: 'Get the multi-day forecast for the city' });
  });

  it('applies edits in order: a later edit may use a node an earlier one added', () => {
    const r = applyEditPlan(load('valid', 'linear'), {
      summary: 'Add a forecast lookup beside the current weather.',
      edits: [
        {
          op: 'add_node',
          node: { kind: 'tool', id: 'forecast', task: 'Get the forecast' },
          from: ['plan'],
          to: ['answer'],
        },
        { op: 'set_retry', id: 'forecast', attempts: 2 },
      ],
    });
    expect(r.ok && r.workflow.nodes.map((n) => n.id)).toEqual(['plan', 'current', 'answer', 'forecast']);
  });

  it('blames the edit that introduced the problem, not the last one', () => {
    const r = applyEditPlan(load('valid', 'parallel'), {
      edits: [
        { op: 'add_edge', from: 'news', to: 'quote' },
        { op: 'add_edge', from: 'quote', to: 'plan', kind: 'control' },
        { op: 'set_task', id: 'news', task: 'Get news from the last week' },
      ],
    });
    expect(
      r.ok ? null : { index: r.error.editIndex, op: r.error.op, codes: r.error.problems?.map((p) => p.code) },
    ).toEqual({
      index: 1,
      op: 'add_edge',
      codes: ['cycle', 'no-entry'],
    });
  });

  it('reports a plan that does not match the schema, naming the edit and the path', () => {
    const r = applyEditPlan(load('valid', 'linear'), {
      edits: [
        { op: 'set_task', id: 'current', task: 'x' },
        { op: 'set_retry', id: 'current', attempts: 'three' },
      ],
    });
    expect(r.ok ? null : r.error).toMatchInlineSnapshot(`
      {
        "editIndex": 1,
        "message": "edit 2 of 2 (set_retry) does not match the edit-plan schema: $.edits[1].attempts: expected a number, got the string "three"",
        "op": "set_retry",
        "problems": [
          {
            "code": "schema",
            "message": "expected a number, got the string "three"",
            "path": "$.edits[1].attempts",
          },
        ],
      }
    `);
    const unknownOp = applyEditPlan(load('valid', 'linear'), { edits: [{ op: 'delete_node', id: 'current' }] });
    expect(unknownOp.ok ? null : unknownOp.error.message).toMatchInlineSnapshot(
      `"edit 1 of 1 (delete_node) does not match the edit-plan schema: $.edits[0].op: "op" "delete_node" is not valid; use "add_node", "remove_node", "replace_node", "add_edge", "remove_edge", "reconnect_edge", "add_branch", "refine_branch", "parallelize", "sequentialize", "set_retry", "set_calls", "collapse_steps", "drop_mined", "set_prompt", "set_directives", "set_task", "set_tool_hint", "set_binding" or "set_hint""`,
    );
    expect(applyEditPlan(load('valid', 'linear'), { changes: [] }).ok).toBe(false);
  });

  it('lets a plan repair an invalid input, and says so when it does not', () => {
    const tools = ['get_current_weather', 'get_forecast'];
    const broken = load('invalid', 'unknown-tool');
    const fixed = applyEditPlan(
      broken,
      { edits: [{ op: 'set_tool_hint', id: 'current', tools: ['get_current_weather'] }] },
      { tools },
    );
    expect(fixed.ok).toBe(true);
    const notFixed = applyEditPlan(
      broken,
      { edits: [{ op: 'set_task', id: 'current', task: 'Get the weather' }] },
      { tools },
    );
    expect(notFixed.ok ? null : notFixed.error).toMatchInlineSnapshot(`
      {
        "editIndex": -1,
        "message": "the workflow was already invalid and the plan does not fix it: tool 'get_curent_weather' used by node 'current' is not available; did you mean 'get_current_weather'? available: get_current_weather, get_forecast",
        "op": "input",
        "problems": [
          {
            "code": "unknown-tool",
            "message": "tool 'get_curent_weather' used by node 'current' is not available; did you mean 'get_current_weather'? available: get_current_weather, get_forecast",
            "path": "$.nodes[1].tools[0]",
          },
        ],
      }
    `);
  });

  it('an empty plan returns an equal copy', () => {
    const w = load('valid', 'parallel');
    const r = applyEditPlan(w, { edits: [] });
    expect(r.ok && r.workflow).toEqual(w);
    expect(r.ok && r.workflow).not.toBe(w);
  });

  it("drops an older file's table (learned) from the edited copy and leaves the input unchanged", () => {
    const w: Workflow = { ...load('valid', 'parallel'), learned: { offline: { tools: [] } } };
    const before = JSON.stringify(w);
    const a = applyEditPlanOrThrow(w, { edits: [{ op: 'set_task', id: 'quote', task: 'Get the quote' }] });
    expect(a).not.toHaveProperty('learned');
    expect(JSON.stringify(w)).toBe(before);
  });

  it('set_hint sets, replaces and clears the hint of one tool at one node', () => {
    const w = load('valid', 'parallel');
    const hint = { params: { symbol: { from: { request: 1 }, before: { for: 0.8 } } } };
    const a = applyEditPlanOrThrow(w, { edits: [{ op: 'set_hint', id: 'quote', tool: 'get_quote', hint }] });
    const quote = (x: Workflow) => x.nodes.find((n) => n.id === 'quote') as { hints?: unknown[] };
    expect(quote(a).hints).toEqual([{ tool: 'get_quote', ...hint }]);
    const b = applyEditPlanOrThrow(a, {
      edits: [{ op: 'set_hint', id: 'quote', tool: 'get_quote', hint: { repeat: 'symbol' } }],
    });
    expect(quote(b).hints).toEqual([{ tool: 'get_quote', repeat: 'symbol' }]);
    const c = applyEditPlanOrThrow(b, { edits: [{ op: 'set_hint', id: 'quote', tool: 'get_quote', hint: null }] });
    expect(quote(c)).not.toHaveProperty('hints');
  });

  it('applyEditPlanOrThrow throws INVALID_EDIT with the message', () => {
    let thrown: unknown;
    try {
      applyEditPlanOrThrow(load('valid', 'linear'), { edits: [{ op: 'remove_node', id: 'answer' }] });
    } catch (e) {
      thrown = e;
    }
    expect(isFlowScoutError(thrown) && thrown.code).toBe('INVALID_EDIT');
    expect((thrown as Error).message).toContain("edit 1 of 1 (remove_node 'answer')");
  });
});

describe('EditPlanSchema', () => {
  it('converts to JSON Schema for an optimizer prompt, with every op and descriptions', () => {
    const schema = z.toJSONSchema(EditPlanSchema) as unknown as {
      properties: {
        edits: { items: { oneOf: Array<{ properties: { op: { const: string } }; description?: string }> } };
      };
    };
    const variants = schema.properties.edits.items.oneOf;
    expect(variants.map((v) => v.properties.op.const)).toEqual([...EDIT_OPS]);
    expect(variants.every((v) => typeof v.description === 'string' && v.description.length > 10)).toBe(true);
    expect(EDIT_OPS).toHaveLength(20);
  });
});
