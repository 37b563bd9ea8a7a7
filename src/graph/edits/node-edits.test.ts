import { describe, expect, it } from 'vitest';
import { fixture, edges, apply, ok, refusal } from '../../testing/edit-fixtures.js';

describe('add_node', () => {
  it('inserts a verify node from its template between a tool node and the answer', () => {
    const w = ok(
      apply(fixture('linear'), {
        op: 'add_node',
        node: { kind: 'llm', id: 'check', role: 'verify', task: 'that the temperature has a unit' },
        from: ['current'],
        to: ['answer'],
      }),
    );
    expect(edges(w)).toEqual(['check→answer data', 'current→check data', 'plan→current data']);
    const check = w.nodes.find((n) => n.id === 'check')!;
    expect(check).toMatchObject({ kind: 'llm', role: 'verify', output: { type: 'text' } });
    expect(check.kind === 'llm' && check.prompt).toContain('Check: that the temperature has a unit');
    expect(check.kind === 'llm' && check.prompt).toContain('{{inputs}}');
  });
  it('adds a tool node beside another one, keeping direct edges when asked', () => {
    const base = ok(apply(fixture('linear'), { op: 'add_edge', from: 'plan', to: 'answer' }));
    const w = ok(
      apply(base, {
        op: 'add_node',
        node: { kind: 'tool', id: 'forecast', task: 'Get the forecast', tools: ['get_forecast'] },
        from: ['plan'],
        to: ['answer'],
        keepDirectEdges: true,
      }),
    );
    expect(edges(w)).toEqual([
      'current→answer data',
      'forecast→answer data',
      'plan→answer data',
      'plan→current data',
      'plan→forecast data',
    ]);
  });
  it('refuses an id that already exists', () => {
    expect(
      refusal(
        apply(fixture('linear'), {
          op: 'add_node',
          node: { kind: 'tool', id: 'current', task: 'x' },
          from: ['plan'],
          to: ['answer'],
        }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (add_node 'current'): a node with id 'current' already exists; choose a new id"`,
    );
  });
  it('refuses a connection to a node that does not exist', () => {
    expect(
      refusal(
        apply(fixture('linear'), {
          op: 'add_node',
          node: { kind: 'tool', id: 'extra', task: 'x' },
          from: ['plan'],
          to: ['anwser'],
        }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (add_node 'extra'): there is no node 'anwser'; nodes are: plan, current, answer"`,
    );
  });
});

describe('remove_node', () => {
  it('reconnects predecessors to successors', () => {
    const w = ok(apply(fixture('parallel'), { op: 'remove_node', id: 'news' }));
    expect(w.nodes.map((n) => n.id)).toEqual(['plan', 'quote', 'answer']);
    expect(edges(w)).toEqual(['plan→answer data', 'plan→quote data', 'quote→answer data']);
  });
  it('removing the optional node of a branch leaves the join always live (guards merge to none)', () => {
    const w = ok(apply(fixture('conditional-branch'), { op: 'remove_node', id: 'forecast' }));
    expect(edges(w)).toEqual([
      'current→answer data',
      'current→needs_forecast data',
      'needs_forecast→answer data',
      'plan→current data',
    ]);
  });
  it('refuses to remove the entry', () => {
    expect(refusal(apply(fixture('linear'), { op: 'remove_node', id: 'plan' }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (remove_node 'plan'): 'plan' is the entry of the workflow and cannot be removed; every workflow starts with one plan node (edit its prompt with set_prompt instead)"`,
    );
  });
  it('refuses to remove the exit', () => {
    expect(refusal(apply(fixture('linear'), { op: 'remove_node', id: 'answer' }))).toMatchInlineSnapshot(
      `"edit 1 of 1 (remove_node 'answer'): 'answer' is the exit of the workflow and cannot be removed; every workflow ends with one synthesize node (edit its prompt with set_prompt instead)"`,
    );
  });
  it('refuses a node that does not exist, listing the nodes', () => {
    const r = apply(
      fixture('linear'),
      { op: 'set_task', id: 'current', task: 'Get the weather now' },
      { op: 'remove_node', id: 'forecast' },
    );
    expect(r.ok ? null : r.error).toMatchInlineSnapshot(`
      {
        "editIndex": 1,
        "message": "edit 2 of 2 (remove_node 'forecast'): there is no node 'forecast'; nodes are: plan, current, answer",
        "op": "remove_node",
      }
    `);
  });
});

describe('replace_node', () => {
  it('keeps the edges and renames them when the id changes', () => {
    const w = ok(
      apply(fixture('linear'), {
        op: 'replace_node',
        id: 'current',
        node: { kind: 'tool', id: 'weather_now', task: 'Get the current weather', calls: 'many' },
      }),
    );
    expect(edges(w)).toEqual(['plan→weather_now data', 'weather_now→answer data']);
    expect(w.nodes[1]).toEqual({ kind: 'tool', id: 'weather_now', task: 'Get the current weather', calls: 'many' });
  });
  it('replaces a tool node by an LLM node built from a template', () => {
    const w = ok(
      apply(fixture('linear'), {
        op: 'replace_node',
        id: 'current',
        node: { kind: 'llm', id: 'current', role: 'reason' },
      }),
    );
    expect(w.nodes[1]).toMatchObject({ id: 'current', kind: 'llm', role: 'reason' });
  });
  it('refuses a new id that another node has', () => {
    expect(
      refusal(
        apply(fixture('linear'), { op: 'replace_node', id: 'current', node: { kind: 'tool', id: 'plan', task: 'x' } }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (replace_node 'current'): a node with id 'plan' already exists; choose a new id"`,
    );
  });
  it('is refused by validation when the entry loses its role', () => {
    expect(
      refusal(
        apply(fixture('linear'), { op: 'replace_node', id: 'plan', node: { kind: 'llm', id: 'plan', role: 'reason' } }),
      ),
    ).toMatchInlineSnapshot(
      `"edit 1 of 1 (replace_node 'plan'): the result is not a valid workflow: entry node 'plan' is an llm node with role "reason"; the entry must be an llm node with role "plan" (add a plan node with an edge into 'plan')"`,
    );
  });
});
