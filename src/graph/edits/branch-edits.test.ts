import { describe, expect, it } from 'vitest';
import { fixture, edges, apply, ok, refusal } from '../../testing/edit-fixtures.js';
import { nodePromptText } from '../node-prompt.js';
import type { LlmNode } from '../schema.js';

describe('add_branch', () => {
  it('makes an existing node optional behind a new judge, with a guarded edge and an unguarded skip edge to the join', () => {
    const w = ok(
      apply(fixture('parallel'), {
        op: 'add_branch',
        judge: 'wants_news',
        field: 'news_needed',
        question: 'Does the request ask about news?',
        target: 'news',
      }),
    );
    expect(edges(w)).toEqual(
      [
        'plan→quote data',
        'plan→wants_news data',
        'quote→answer data',
        'news→answer data',
        'wants_news→answer control',
        'wants_news→news data when {"kind":"field","field":"news_needed","op":"eq","value":true}',
      ].sort(),
    );
    const judge = w.nodes.find((n) => n.id === 'wants_news')!;
    expect(judge).toMatchObject({
      kind: 'llm',
      role: 'judge',
      output: {
        type: 'json',
        schema: {
          type: 'object',
          properties: { news_needed: { type: 'boolean' }, facts: { type: 'string' } },
          required: ['news_needed'],
        },
      },
    });
    expect(judge).toMatchObject({ question: 'Does the request ask about news?' });
    expect(judge.kind === 'llm' && nodePromptText(judge)).toContain('Does the request ask about news?');
    expect(judge.kind === 'llm' && judge.prompt).toContain('Set "news_needed" to true if the answer is yes');
    expect(judge.kind === 'llm' && judge.prompt).toContain(
      'Also set "facts" to the values from the information above that the next step needs',
    );
  });
  it('adds a new optional node between two nodes; the direct edge stays so the join keeps its data', () => {
    const w = ok(
      apply(fixture('linear'), {
        op: 'add_branch',
        judge: 'needs_forecast',
        field: 'forecast',
        node: { kind: 'tool', id: 'forecast_lookup', task: 'Get the forecast' },
        after: 'current',
        before: 'answer',
      }),
    );
    expect(edges(w)).toEqual([
      'current→answer data',
      'current→needs_forecast data',
      'forecast_lookup→answer data',
      'needs_forecast→answer control',
      'needs_forecast→forecast_lookup data when {"kind":"field","field":"forecast","op":"eq","value":true}',
      'plan→current data',
    ]);
    expect(w.nodes.map((n) => n.id)).toEqual(['plan', 'current', 'needs_forecast', 'forecast_lookup', 'answer']);
  });
  it('refuses to make the entry optional', () => {
    expect(
      refusal(apply(fixture('linear'), { op: 'add_branch', judge: 'j', field: 'go', target: 'plan' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (add_branch 'j'): 'plan' is the entry of the workflow and cannot be optional"`,
    );
  });
  it('refuses both or neither of target and node', () => {
    expect(refusal(apply(fixture('linear'), { op: 'add_branch', judge: 'j', field: 'go' }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (add_branch 'j'): give either target (an existing node to make optional) or node (a new node), exactly one of them"`,
    );
  });
  it('refuses a judge id that already exists', () => {
    expect(
      refusal(apply(fixture('linear'), { op: 'add_branch', judge: 'current', field: 'go', target: 'current' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (add_branch 'current'): a node with id 'current' already exists; choose a new id"`,
    );
  });
  it('refuses a new node without its join point', () => {
    expect(
      refusal(
        apply(fixture('linear'), {
          op: 'add_branch',
          judge: 'j',
          field: 'go',
          node: { kind: 'tool', id: 'x', task: 'x' },
          after: 'current',
        }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (add_branch 'j'): a new branch node needs after (the node the judge follows) and before (the join point)"`,
    );
  });
});

describe('refine_branch', () => {
  it('changes a guard', () => {
    const w = ok(
      apply(fixture('conditional-branch'), {
        op: 'refine_branch',
        judge: 'needs_forecast',
        to: 'forecast',
        when: { kind: 'field', field: 'forecast_needed', op: 'truthy' },
      }),
    );
    expect(edges(w)).toContain(
      'needs_forecast→forecast data when {"kind":"field","field":"forecast_needed","op":"truthy"}',
    );
  });
  it("sets the judge's question and gives it the judge template that shows it, keeping its field", () => {
    const w = ok(
      apply(fixture('conditional-branch'), {
        op: 'refine_branch',
        judge: 'needs_forecast',
        question: 'Does the request mention tomorrow or the weekend?',
      }),
    );
    const judge = w.nodes.find((n) => n.id === 'needs_forecast') as LlmNode;
    expect(judge.question).toBe('Does the request mention tomorrow or the weekend?');
    expect(judge.prompt).toContain('Answer one yes/no question about this request: {{question}}');
    expect(nodePromptText(judge)).toContain(
      'Answer one yes/no question about this request: Does the request mention tomorrow or the weekend?',
    );
    expect(judge.prompt).toContain('Set "forecast_needed" to true if the answer is yes');
  });
  it('sets a full prompt and removes a guard with null', () => {
    const w = ok(
      apply(fixture('conditional-branch'), {
        op: 'refine_branch',
        judge: 'needs_forecast',
        to: 'answer',
        when: null,
        prompt: 'Forecast needed for {{query}}? JSON {"forecast_needed": bool}',
      }),
    );
    expect(edges(w)).toContain('needs_forecast→answer control');
    expect(w.nodes[2]).toMatchObject({ prompt: 'Forecast needed for {{query}}? JSON {"forecast_needed": bool}' });
  });
  it('refuses an edge that does not leave the judge', () => {
    expect(
      refusal(
        apply(fixture('conditional-branch'), {
          op: 'refine_branch',
          judge: 'needs_forecast',
          to: 'current',
          when: { kind: 'field', field: 'forecast_needed', op: 'truthy' },
        }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (refine_branch 'needs_forecast'): there is no edge needs_forecast → current; edges out of 'needs_forecast' go to: forecast, answer"`,
    );
  });
  it('refuses a guard on a field the judge does not declare', () => {
    expect(
      refusal(
        apply(fixture('conditional-branch'), {
          op: 'refine_branch',
          judge: 'needs_forecast',
          to: 'forecast',
          when: { kind: 'field', field: 'tomorrow', op: 'truthy' },
        }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (refine_branch 'needs_forecast'): the result is not a valid workflow: guard reads field 'tomorrow' which node 'needs_forecast' does not declare (declared: forecast_needed); guard on a declared field or add 'tomorrow' to the node's output schema"`,
    );
  });
  it('refuses an edit that changes nothing', () => {
    expect(
      refusal(apply(fixture('conditional-branch'), { op: 'refine_branch', judge: 'needs_forecast' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (refine_branch 'needs_forecast'): nothing to change: give when (with to), question, prompt or fallback"`,
    );
  });
});
