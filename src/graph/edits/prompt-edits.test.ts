import { describe, expect, it } from 'vitest';
import { applyEditPlan } from './apply-edit-plan.js';
import { fixture, apply, ok, refusal } from '../../testing/edit-fixtures.js';

describe('prompt edits', () => {
  it('set_prompt replaces an LLM prompt', () => {
    const w = ok(
      apply(fixture('linear'), {
        op: 'set_prompt',
        id: 'answer',
        prompt: 'Answer {{query}} in one sentence, citing:\n{{inputs}}',
      }),
    );
    expect(w.nodes[2]).toMatchObject({ prompt: 'Answer {{query}} in one sentence, citing:\n{{inputs}}' });
  });
  it('set_prompt is refused for a tool node and for a placeholder nothing fills', () => {
    expect(refusal(apply(fixture('linear'), { op: 'set_prompt', id: 'current', prompt: 'x' }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_prompt 'current'): node 'current' is a tool node; this edit needs an llm node"`,
    );
    expect(
      refusal(apply(fixture('linear'), { op: 'set_prompt', id: 'answer', prompt: 'Answer {{question}}' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_prompt 'answer'): the result is not a valid workflow: prompt of node 'answer' uses {{question}}, which is only filled when a node is built from a template; a stored prompt may only use {{query}} and {{inputs}}, so write the text in its place"`,
    );
  });
  it('set_task replaces a tool task', () => {
    const w = ok(
      apply(fixture('linear'), { op: 'set_task', id: 'current', task: 'Get the current temperature in Celsius' }),
    );
    expect(w.nodes[1]).toMatchObject({ task: 'Get the current temperature in Celsius' });
    expect(refusal(apply(fixture('linear'), { op: 'set_task', id: 'answer', task: 'x' }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_task 'answer'): node 'answer' is an llm node; this edit needs a tool node"`,
    );
  });
  it('set_tool_hint sets (deduplicated) and clears a hint', () => {
    const w = ok(
      apply(fixture('linear'), {
        op: 'set_tool_hint',
        id: 'current',
        tools: ['get_forecast', 'get_current_weather', 'get_forecast'],
      }),
    );
    expect(w.nodes[1]).toMatchObject({ tools: ['get_forecast', 'get_current_weather'] });
    expect(
      ok(apply(fixture('linear'), { op: 'set_tool_hint', id: 'current', tools: null })).nodes[1],
    ).not.toHaveProperty('tools');
    expect(ok(apply(fixture('linear'), { op: 'set_tool_hint', id: 'current', tools: [] })).nodes[1]).not.toHaveProperty(
      'tools',
    );
  });
  it('set_tool_hint is refused when T lacks the tool', () => {
    const r = applyEditPlan(
      fixture('linear'),
      { edits: [{ op: 'set_tool_hint', id: 'current', tools: ['get_weather'] }] },
      { tools: ['get_current_weather', 'get_forecast'] },
    );
    expect(r.ok ? null : r.error.message).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_tool_hint 'current'): the result is not a valid workflow: tool 'get_weather' used by node 'current' is not available; available: get_current_weather, get_forecast"`,
    );
  });
});
