import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEditPlanOrThrow } from './edits/apply-edit-plan.js';
import { canonicalWorkflow, workflowHash } from './hash.js';
import type { Workflow } from './schema.js';

const load = (name: string): Workflow =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../test/fixtures/workflows/valid', `${name}.json`), 'utf8'));

/** Rebuilds every object with its keys in reverse order. */
function reverseKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map(reverseKeys) as T;
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reverseKeys(x)]),
    ) as T;
  return v;
}

describe('workflowHash', () => {
  const base = load('conditional-branch');
  const h = workflowHash(base);

  it('is a sha256 hex digest, stable across calls', () => {
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(workflowHash(structuredClone(base))).toBe(h);
  });

  it('ignores node order, edge order, key order, name, description and meta', () => {
    const w = reverseKeys(structuredClone(base));
    w.nodes.reverse();
    w.edges.reverse();
    w.name = 'another name';
    delete w.description;
    w.meta = { createdBy: 'test', iteration: 3 };
    expect(workflowHash(w)).toBe(h);
  });

  it('ignores the order and duplicates of tool hints, mined tools and required fields, and explicit defaults', () => {
    const a = structuredClone(base);
    const b = structuredClone(base);
    Object.assign(a.nodes[3]!, { tools: ['get_forecast', 'get_current_weather'], mined: ['b', 'a'], calls: 'one' });
    Object.assign(b.nodes[3]!, { tools: ['get_current_weather', 'get_forecast', 'get_forecast'], mined: ['a', 'b'] });
    const judge = (w: Workflow) => w.nodes[2] as Extract<Workflow['nodes'][number], { kind: 'llm' }>;
    if (judge(a).output.type === 'json' && judge(b).output.type === 'json') {
      Object.assign((judge(a).output as { schema: object }).schema, {
        properties: { x: { type: 'string' }, forecast_needed: { type: 'boolean' } },
        required: ['x', 'forecast_needed'],
      });
      Object.assign((judge(b).output as { schema: object }).schema, {
        properties: { forecast_needed: { type: 'boolean' }, x: { type: 'string' } },
        required: ['forecast_needed', 'x'],
      });
    }
    expect(workflowHash(a)).toBe(workflowHash(b));
    const empty = structuredClone(base);
    Object.assign(empty.nodes[3]!, { tools: [], mined: [] });
    const none = structuredClone(base);
    delete (none.nodes[3] as { tools?: string[] }).tools;
    expect(workflowHash(empty)).toBe(workflowHash(none));
  });

  it('changes with every semantic change', () => {
    const edits: unknown[] = [
      { op: 'set_prompt', id: 'answer', prompt: 'Answer {{query}} briefly:\n{{inputs}}' },
      { op: 'set_task', id: 'forecast', task: 'Get the 3-day forecast' },
      { op: 'set_tool_hint', id: 'forecast', tools: ['get_current_weather'] },
      { op: 'set_calls', id: 'forecast', calls: 'many' },
      { op: 'set_retry', id: 'forecast', attempts: 2 },
      { op: 'set_binding', id: 'forecast', tool: 'get_forecast', param: 'days', source: { from: 'const', value: 3 } },
      {
        op: 'refine_branch',
        judge: 'needs_forecast',
        to: 'forecast',
        when: { kind: 'field', field: 'forecast_needed', op: 'truthy' },
      },
      { op: 'remove_edge', from: 'current', to: 'answer' },
      {
        op: 'replace_node',
        id: 'forecast',
        node: {
          kind: 'tool',
          id: 'forecast2',
          task: 'Get the multi-day forecast for the city',
          tools: ['get_forecast'],
        },
      },
    ];
    const hashes = new Set([h]);
    for (const edit of edits) hashes.add(workflowHash(applyEditPlanOrThrow(base, { edits: [edit] })));
    expect(hashes.size).toBe(edits.length + 1);
    const kind = structuredClone(base);
    kind.edges[4]!.kind = 'control';
    const model = structuredClone(base);
    Object.assign(model.nodes[4]!, { model: 'openai:gpt-4o-mini' });
    const retryOn = applyEditPlanOrThrow(base, {
      edits: [{ op: 'set_retry', id: 'forecast', attempts: 2, on: 'error-or-empty' }],
    });
    for (const w of [kind, model, retryOn]) expect(workflowHash(w)).not.toBe(h);
  });

  it('a bound workflow differs from the unbound one; the order of bindings and a binding to the model do not count', () => {
    const bind = (b: unknown[]) => {
      const w = structuredClone(base);
      Object.assign(w.nodes[3]!, { bind: b });
      return workflowHash(w);
    };
    const days = { tool: 'get_forecast', param: 'days', source: { from: 'const', value: 3 } };
    const city = { tool: 'get_forecast', param: 'city', source: { from: 'request', pattern: 'in ([A-Z][a-z]+)' } };
    const model = { tool: 'get_current_weather', param: 'city', source: { from: 'model' } };
    expect(bind([days])).not.toBe(h);
    expect(bind([days])).not.toBe(bind([{ ...days, source: { from: 'const', value: 4 } }]));
    expect(bind([days, city])).toBe(bind([city, days]));
    expect(bind([model])).toBe(h);
    expect(bind([])).toBe(h);
  });

  it('canonicalWorkflow sorts nodes by id and edges by (from, to, kind), and drops name and meta', () => {
    const c = canonicalWorkflow(load('parallel'));
    expect(c.nodes.map((n) => n.id)).toEqual(['answer', 'news', 'plan', 'quote']);
    expect(c.edges.map((e) => `${e.from}>${e.to}`)).toEqual(['news>answer', 'plan>news', 'plan>quote', 'quote>answer']);
    expect(Object.keys(c)).toEqual(['version', 'nodes', 'edges']);
  });
});
