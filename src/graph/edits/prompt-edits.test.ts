import { describe, expect, it } from 'vitest';
import { applyEditPlan } from './apply-edit-plan.js';
import { fixture, apply, ok, refusal } from '../../testing/edit-fixtures.js';
import { PROMPT_TEMPLATES } from '../prompt-templates.js';
import { synthesizeVariant } from '../synthesize-variants.js';

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
      refusal(apply(fixture('linear'), { op: 'set_prompt', id: 'answer', prompt: 'Answer {{task}}' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_prompt 'answer'): the result is not a valid workflow: prompt of node 'answer' uses {{task}}, which is only filled when a node is built from a template; a stored prompt may only use {{query}} and {{inputs}} (and {{question}} / {{choices}} with the node's field of that name), so write the text in its place"`,
    );
    expect(
      refusal(apply(fixture('linear'), { op: 'set_prompt', id: 'answer', prompt: 'Answer {{question}}' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_prompt 'answer'): the result is not a valid workflow: prompt of node 'answer' uses {{question}}, which the node's "question" field fills, but the node has no "question"; give it one or write the text in its place"`,
    );
  });
  it("set_directives sets a synthesizer's directives in order, or a variant with its prompt, and [] removes them", () => {
    const set = ok(
      apply(fixture('linear'), { op: 'set_directives', id: 'answer', directives: ['brief', 'plain-words'] }),
    );
    // The prompt is kept; the directive sentences are added when it is rendered for a model.
    expect(set.nodes[2]).toEqual({ ...fixture('linear').nodes[2], directives: ['brief', 'plain-words'] });
    const variant = ok(apply(set, { op: 'set_directives', id: 'answer', variant: 'clean' }));
    expect(variant.nodes[2]).toMatchObject(synthesizeVariant('clean'));
    const back = ok(apply(variant, { op: 'set_directives', id: 'answer', variant: 'default' }));
    expect(back.nodes[2]).toMatchObject({ prompt: PROMPT_TEMPLATES.synthesize });
    expect(back.nodes[2]).not.toHaveProperty('directives');
    expect(ok(apply(set, { op: 'set_directives', id: 'answer', directives: [] })).nodes[2]).not.toHaveProperty(
      'directives',
    );
  });
  it('set_directives is refused on another role, with both or neither of directives and variant, and for an unknown id', () => {
    expect(
      refusal(apply(fixture('linear'), { op: 'set_directives', id: 'plan', directives: ['brief'] })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_directives 'plan'): 'plan' is an llm node with role "plan"; directives say how a synthesize node writes the answer"`,
    );
    expect(
      refusal(
        apply(fixture('linear'), { op: 'set_directives', id: 'answer', directives: ['brief'], variant: 'clean' }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_directives 'answer'): give directives (the ids, in order) or variant (a named variant), exactly one of them"`,
    );
    expect(
      refusal(apply(fixture('linear'), { op: 'set_directives', id: 'answer', directives: ['shorter'] })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_directives) does not match the edit-plan schema: $.edits[0].directives[0]: must be one of "answer-first", "results-only", "every-result", "answered-only", "failures-brief", "one-fact-per-line", "all-figures", "brief", "plain-words" (got "shorter")"`,
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
