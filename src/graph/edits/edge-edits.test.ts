import { describe, expect, it } from 'vitest';
import { fixture, edges, apply, ok, refusal } from '../../testing/edit-fixtures.js';

describe('add_edge', () => {
  it('adds a data edge by default, or a control edge with a guard', () => {
    const w = ok(apply(fixture('parallel'), { op: 'add_edge', from: 'quote', to: 'news' }));
    expect(edges(w)).toContain('quote→news data');
    const g = ok(
      apply(
        fixture('conditional-branch'),
        { op: 'remove_edge', from: 'needs_forecast', to: 'answer' },
        {
          op: 'add_edge',
          from: 'needs_forecast',
          to: 'answer',
          kind: 'control',
          when: { kind: 'field', field: 'forecast_needed', op: 'falsy' },
        },
      ),
    );
    expect(edges(g)).toContain(
      'needs_forecast→answer control when {"kind":"field","field":"forecast_needed","op":"falsy"}',
    );
  });
  it('refuses an edge that creates a cycle, naming the cycle', () => {
    expect(
      refusal(
        apply(
          fixture('parallel'),
          { op: 'add_edge', from: 'quote', to: 'news' },
          { op: 'add_edge', from: 'news', to: 'quote', kind: 'control' },
        ),
      ),
    ).toMatchInlineSnapshot(
      `"edit 2 of 2 (add_edge news → quote): the result is not a valid workflow: the graph has a cycle: news → quote → news; workflows are acyclic, so remove one of these edges (for repetition use a tool node's "retry" or "calls": "many")"`,
    );
  });
  it('refuses a duplicate edge', () => {
    expect(refusal(apply(fixture('linear'), { op: 'add_edge', from: 'plan', to: 'current' }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (add_edge plan → current): the edge plan → current already exists; use refine_branch to change its guard, or remove_edge first"`,
    );
  });
  it('refuses a guard that reads a field its source does not declare', () => {
    expect(
      refusal(
        apply(fixture('linear'), {
          op: 'add_edge',
          from: 'plan',
          to: 'answer',
          when: { kind: 'field', field: 'done', op: 'truthy' },
        }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (add_edge plan → answer): the result is not a valid workflow: guard reads field 'done' but node 'plan' has text output; give it output {"type": "json", "schema": …} declaring 'done'"`,
    );
  });
});

describe('remove_edge', () => {
  it('removes one edge', () => {
    const w = ok(apply(fixture('conditional-branch'), { op: 'remove_edge', from: 'current', to: 'answer' }));
    expect(edges(w)).not.toContain('current→answer data');
    expect(w.edges).toHaveLength(5);
  });
  it('refuses an edge that does not exist, listing the real ones', () => {
    expect(refusal(apply(fixture('linear'), { op: 'remove_edge', from: 'plan', to: 'answer' }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (remove_edge plan → answer): there is no edge plan → answer; edges out of 'plan' go to: current"`,
    );
  });
  it('is refused when the result cuts a node off', () => {
    expect(
      refusal(apply(fixture('parallel'), { op: 'remove_edge', from: 'news', to: 'answer' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (remove_edge news → answer): the result is not a valid workflow: 2 nodes have no outgoing edges (news, answer); keep 'answer' as the only exit and add edges from the others to it or to a node before it"`,
    );
  });
  it('allows an invalid intermediate state that a later edit repairs', () => {
    const w = ok(
      apply(
        fixture('parallel'),
        { op: 'remove_edge', from: 'plan', to: 'news' },
        { op: 'add_edge', from: 'quote', to: 'news' },
      ),
    );
    expect(edges(w)).toEqual(['news→answer data', 'plan→quote data', 'quote→answer data', 'quote→news data']);
  });
});

describe('reconnect_edge', () => {
  it('moves the target of an edge, keeping its kind and guard', () => {
    const base = ok(
      apply(fixture('conditional-branch'), {
        op: 'add_node',
        node: { kind: 'llm', id: 'check', role: 'verify' },
        from: ['forecast'],
        to: ['answer'],
        keepDirectEdges: true,
      }),
    );
    const w = ok(apply(base, { op: 'reconnect_edge', from: 'needs_forecast', to: 'answer', newTo: 'check' }));
    expect(edges(w)).toContain(
      'needs_forecast→check control when {"kind":"field","field":"forecast_needed","op":"ne","value":true}',
    );
    expect(edges(w)).not.toContain(
      'needs_forecast→answer control when {"kind":"field","field":"forecast_needed","op":"ne","value":true}',
    );
  });
  it('moves the source of an edge', () => {
    const w = ok(apply(fixture('parallel'), { op: 'reconnect_edge', from: 'plan', to: 'news', newFrom: 'quote' }));
    expect(edges(w)).toEqual(['news→answer data', 'plan→quote data', 'quote→answer data', 'quote→news data']);
  });
  it('refuses when nothing would change or the edge would duplicate another', () => {
    expect(
      refusal(apply(fixture('parallel'), { op: 'reconnect_edge', from: 'plan', to: 'news' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (reconnect_edge plan → news): give newFrom, newTo or both; nothing would change"`,
    );
    expect(
      refusal(apply(fixture('parallel'), { op: 'reconnect_edge', from: 'plan', to: 'news', newTo: 'quote' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (reconnect_edge plan → news): the edge plan → quote already exists; remove_edge plan → news instead"`,
    );
  });
  it('is refused by validation when a moved guard no longer fits its source', () => {
    expect(
      refusal(
        apply(fixture('conditional-branch'), {
          op: 'reconnect_edge',
          from: 'needs_forecast',
          to: 'forecast',
          newFrom: 'current',
        }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (reconnect_edge needs_forecast → forecast): the result is not a valid workflow: a field guard reads an llm node's JSON output, but 'current' is a tool node; use {"kind": "status", "status": "ok" | "error"}"`,
    );
  });
});
