import { describe, expect, it } from 'vitest';
import { fixture, edges, apply, ok, refusal } from '../../testing/edit-fixtures.js';

describe('parallelize', () => {
  it('turns a sequence into siblings between the same predecessors and successors', () => {
    const seq = ok(apply(fixture('parallel'), { op: 'sequentialize', first: 'quote', second: 'news' }));
    expect(edges(seq)).toEqual(['news→answer data', 'plan→quote data', 'quote→news data']);
    const par = ok(apply(seq, { op: 'parallelize', first: 'quote', second: 'news' }));
    expect(edges(par)).toEqual(edges(fixture('parallel')));
  });
  it('refuses nodes that are not in sequence', () => {
    expect(
      refusal(apply(fixture('parallel'), { op: 'parallelize', first: 'quote', second: 'news' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (parallelize 'quote', 'news'): 'news' does not directly follow 'quote' (there is no edge quote → news); parallelize takes two nodes in sequence"`,
    );
  });
  it('refuses the entry', () => {
    expect(
      refusal(apply(fixture('linear'), { op: 'parallelize', first: 'plan', second: 'current' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (parallelize 'plan', 'current'): 'plan' is the entry of the workflow; nothing can run beside it"`,
    );
  });
  it('refuses when the second node still depends on the first through another path', () => {
    const w = ok(
      apply(fixture('linear'), {
        op: 'add_node',
        node: { kind: 'llm', id: 'notes', role: 'extract' },
        from: ['current'],
        to: ['answer'],
        keepDirectEdges: true,
      }),
    );
    expect(refusal(apply(w, { op: 'parallelize', first: 'current', second: 'answer' }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (parallelize 'current', 'answer'): 'answer' is the exit of the workflow; nothing can run beside it"`,
    );
    const chain = ok(
      apply(
        fixture('linear'),
        {
          op: 'add_node',
          node: { kind: 'tool', id: 'forecast', task: 'Get the forecast' },
          from: ['current'],
          to: ['answer'],
        },
        {
          op: 'add_node',
          node: { kind: 'llm', id: 'notes', role: 'extract' },
          from: ['current'],
          to: ['forecast'],
          keepDirectEdges: true,
        },
      ),
    );
    expect(refusal(apply(chain, { op: 'parallelize', first: 'current', second: 'forecast' }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (parallelize 'current', 'forecast'): 'forecast' still depends on 'current' through another path, so they cannot run side by side"`,
    );
  });
});

describe('sequentialize', () => {
  it('refuses nodes that are already ordered, and suggests swapping', () => {
    expect(
      refusal(apply(fixture('linear'), { op: 'sequentialize', first: 'current', second: 'plan' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (sequentialize 'current', 'plan'): 'current' already runs after 'plan', so 'plan' cannot follow it (that would be a cycle); swap first and second"`,
    );
    expect(
      refusal(apply(fixture('linear'), { op: 'sequentialize', first: 'plan', second: 'current' })),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (sequentialize 'plan', 'current'): 'current' already runs after 'plan'; sequentialize takes two independent nodes"`,
    );
  });
});

describe('set_retry', () => {
  it('sets and clears a retry loop', () => {
    const w = ok(apply(fixture('linear'), { op: 'set_retry', id: 'current', attempts: 3, on: 'error-or-empty' }));
    expect(w.nodes[1]).toMatchObject({ retry: { attempts: 3, on: 'error-or-empty' } });
    const cleared = ok(apply(fixture('retry'), { op: 'set_retry', id: 'search', attempts: null }));
    expect(cleared.nodes[1]).not.toHaveProperty('retry');
  });
  it('keeps the existing "on" when only attempts change', () => {
    const w = ok(apply(fixture('retry'), { op: 'set_retry', id: 'search', attempts: 5 }));
    expect(w.nodes[1]).toMatchObject({ retry: { attempts: 5, on: 'error-or-empty' } });
  });
  it('refuses attempts out of range and LLM nodes', () => {
    expect(refusal(apply(fixture('linear'), { op: 'set_retry', id: 'current', attempts: 9 }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_retry 'current'): the result is not a valid workflow: retry attempts must be between 1 and 5 (got 9); attempts counts the first call, so 1 means no retry"`,
    );
    expect(refusal(apply(fixture('linear'), { op: 'set_retry', id: 'plan', attempts: 2 }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (set_retry 'plan'): node 'plan' is an llm node; this edit needs a tool node"`,
    );
  });
});

describe('set_calls', () => {
  it('sets calls: many and back to one (the default, so the key goes)', () => {
    const many = ok(apply(fixture('linear'), { op: 'set_calls', id: 'current', calls: 'many' }));
    expect(many.nodes[1]).toMatchObject({ calls: 'many' });
    const one = ok(apply(fixture('calls-many'), { op: 'set_calls', id: 'weather', calls: 'one' }));
    expect(one.nodes[1]).not.toHaveProperty('calls');
  });
});

describe('drop_mined', () => {
  it("clears every step's mined tools and keeps the layout, and refuses a workflow with none", () => {
    const w = fixture('parallel');
    const withMined = {
      ...w,
      nodes: w.nodes.map((n) => (n.kind === 'tool' ? { ...n, mined: [n.id] } : n)),
    };
    const dropped = ok(apply(withMined, { op: 'drop_mined' }));
    expect(dropped.nodes.map((n) => n.id)).toEqual(w.nodes.map((n) => n.id));
    expect(edges(dropped)).toEqual(edges(withMined));
    expect(dropped.nodes.some((n) => n.kind === 'tool' && 'mined' in n)).toBe(false);
    expect(refusal(apply(dropped, { op: 'drop_mined' }))).toContain('no tool step has mined tools');
  });
});

describe('collapse_steps', () => {
  it('replaces every step between the plan and the synthesis by one repeating step that keeps what any step picking a tool reads', () => {
    const learned = ok(
      apply(
        fixture('parallel'),
        { op: 'sequentialize', first: 'quote', second: 'news' },
        { op: 'set_hint', id: 'quote', tool: 'stock_quote', hint: { asks: { quote: 1 } } },
        {
          op: 'set_binding',
          id: 'news',
          tool: 'stock_news',
          param: 'symbol',
          source: { from: 'output', tool: 'stock_quote', path: 'symbol' },
        },
        {
          op: 'set_binding',
          id: 'news',
          tool: 'stock_news',
          param: 'limit',
          source: { from: 'output', node: 'quote', path: 'count' },
        },
      ),
    );
    const one = ok(apply(learned, { op: 'collapse_steps', id: 'call' }));
    expect(one.nodes.map((n) => n.id)).toEqual(['plan', 'call', 'answer']);
    expect(edges(one)).toEqual(['call→answer data', 'plan→call data']);
    expect(one.nodes[1]).toMatchObject({
      kind: 'tool',
      calls: 'many',
      hints: [{ tool: 'stock_quote', asks: { quote: 1 } }],
      // A binding that reads a node of the old layout cannot be kept: that node is gone.
      bind: [{ tool: 'stock_news', param: 'symbol', source: { from: 'output', tool: 'stock_quote', path: 'symbol' } }],
    });
  });

  it('refuses a workflow without tool steps and an id of the entry or the exit', () => {
    const once = ok(apply(fixture('parallel'), { op: 'collapse_steps', id: 'call' }));
    expect(refusal(apply(once, { op: 'collapse_steps', id: 'answer' }))).toContain('is the entry or the exit');
  });
});
