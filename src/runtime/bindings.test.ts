import { describe, expect, it } from 'vitest';
import type { ToolDescriptor } from '../contracts/tools.js';
import { resolveSource, valuesAtPath } from '../dataflow/resolve.js';
import type { Workflow } from '../graph/schema.js';
import { validateWorkflow } from '../graph/validate.js';
import { applyEditPlan } from '../graph/edits/apply-edit-plan.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import type { ToolPlanRequest } from '../policies/types.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { createToolRegistry } from '../tools/registry.js';
import { executeWorkflow } from './execute.js';
import { toMermaid } from '../graph/to-mermaid.js';

// Argument bindings (docs/DESIGN.md, "The workflow IR"): checked by validate, filled by the runtime with no model.

const obj = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required });
const TOOLS: ToolDescriptor[] = [
  {
    name: 'find_city',
    description: 'Find a city by name; returns its id.',
    inputSchema: obj({ name: { type: 'string' } }, ['name']),
  },
  {
    name: 'forecast',
    description: 'Forecast for a city id.',
    inputSchema: obj({ city_id: { type: 'integer' }, units: { type: 'string' } }, ['city_id', 'units']),
  },
];

const workflow = (bind: unknown[]): Workflow =>
  ({
    version: 1,
    name: 'bound',
    nodes: [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
      {
        id: 'find',
        kind: 'tool',
        task: 'Find the city',
        tools: ['find_city'],
        bind: [{ tool: 'find_city', param: 'name', source: { from: 'request', pattern: '\\bin\\s+([A-Z][a-z]+)' } }],
      },
      { id: 'cast', kind: 'tool', task: 'Get the forecast', tools: ['forecast'], bind },
      {
        id: 'answer',
        kind: 'llm',
        role: 'synthesize',
        prompt: 'Answer {{query}} from {{inputs}}',
        output: { type: 'text' },
      },
    ],
    edges: [
      { from: 'plan', to: 'find', kind: 'data' },
      { from: 'find', to: 'cast', kind: 'data' },
      { from: 'cast', to: 'answer', kind: 'data' },
    ],
  }) as Workflow;

const BOUND = [
  { tool: 'forecast', param: 'city_id', source: { from: 'output', node: 'find', path: 'results[*].id' } },
  { tool: 'forecast', param: 'units', source: { from: 'const', value: 'metric' } },
];

const registry = (calls: Array<[string, unknown]>) =>
  createToolRegistry([
    {
      ...TOOLS[0]!,
      execute: async (args: Record<string, unknown>) => (
        calls.push(['find_city', args]),
        { results: [{ id: 42, name: args.name }, { id: 7 }] }
      ),
    },
    { ...TOOLS[1]!, execute: async (args: Record<string, unknown>) => (calls.push(['forecast', args]), { temp: 3 }) },
  ]);

describe('argument bindings', () => {
  it('validates: the tool, the parameter in its schema, the pattern, the path, and a source upstream on every path that feeds the node', () => {
    expect(validateWorkflow(workflow(BOUND), TOOLS)).toEqual([]);
    const bad = workflow([
      { tool: 'forecast', param: 'city', source: { from: 'const', value: 1 } },
      { tool: 'find_city', param: 'name', source: { from: 'request', pattern: '([' } },
      { tool: 'forecast', param: 'units', source: { from: 'output', node: 'answer', path: 'x' } },
    ]);
    const problems = validateWorkflow(bad, TOOLS).map((p) => [p.code, p.path]);
    expect(problems).toEqual([
      ['binding', '$.nodes[2].bind[0].param'],
      ['binding', '$.nodes[2].bind[1].tool'],
      ['binding', '$.nodes[2].bind[1].source.pattern'],
      ['binding', '$.nodes[2].bind[2].source.node'],
      ['binding', '$.nodes[2].bind[2].source'],
    ]);
    // An output source may read any node upstream on every path, also one that does not feed the
    // node (a binding reads the run's earlier calls); "match" needs the field and a list.
    const noFeed = workflow([
      { tool: 'forecast', param: 'units', source: { from: 'output', node: 'find', path: 'x' } },
    ]);
    noFeed.edges = [...noFeed.edges.filter((e) => e.from !== 'find'), { from: 'find', to: 'cast', kind: 'control' }];
    expect(validateWorkflow(noFeed, TOOLS)).toEqual([]);
    const match = workflow([
      { tool: 'forecast', param: 'units', source: { from: 'output', tool: 'find_city', path: 'x', pick: 'match' } },
    ]);
    expect(validateWorkflow(match, TOOLS).map((p) => p.path)).toEqual([
      '$.nodes[2].bind[0].source.by',
      '$.nodes[2].bind[0].source.path',
    ]);
  });

  it('resolves sources: request patterns, known values, constants and JSON paths with a pick', () => {
    const outputs = new Map<string, unknown>([
      ['find', [{ tool: 'find_city', args: {}, status: 'ok', output: { results: [{ id: 42 }, { id: 7 }] } }]],
    ]);
    const inputs = { query: 'Weather in Oslo and in Bergen', outputs };
    expect(resolveSource({ from: 'request', pattern: '\\bin\\s+([A-Z][a-z]+)' }, inputs)).toBe('Oslo');
    expect(resolveSource({ from: 'known', values: ['Bergen', 'Oslo'] }, inputs)).toBe('Oslo');
    expect(resolveSource({ from: 'known', values: ['Rome'] }, inputs)).toBeUndefined();
    expect(resolveSource({ from: 'output', node: 'find', path: 'results[*].id' }, inputs)).toBe(42);
    expect(resolveSource({ from: 'output', node: 'find', path: 'results[*].id', pick: 'last' }, inputs)).toBe(7);
    expect(valuesAtPath({ a: [{ b: 1 }, { b: 2 }] }, '$.a[1].b')).toEqual([2]);
  });

  it('fills bound parameters with no model: the policy is not asked when every parameter of the one tool is bound, and sees the bound values otherwise', async () => {
    const asked: ToolPlanRequest[] = [];
    const policy = createScriptedPolicy({
      tool: (req) => {
        asked.push(req);
        return [{ tool: req.candidates[0]!.name, args: { name: 'Wrong', city_id: 1 } }];
      },
    });
    const calls: Array<[string, unknown]> = [];
    const trace = await executeWorkflow(
      workflow(BOUND),
      { query: 'Forecast in Oslo please' },
      { policy, tools: registry(calls) },
    );
    expect(calls).toEqual([
      ['find_city', { name: 'Oslo' }],
      ['forecast', { city_id: 42, units: 'metric' }],
    ]);
    // find_city's one parameter is bound and so are both of forecast's: no plan request at all.
    expect(asked).toEqual([]);
    expect(trace.status).toBe('ok');

    const partly = await executeWorkflow(
      workflow(BOUND.slice(1)),
      { query: 'Forecast in Oslo please' },
      { policy, tools: registry([]) },
    );
    expect(asked.map((r) => [r.node.id, r.bound])).toEqual([['cast', { forecast: { units: 'metric' } }]]);
    expect(partly.calls.map((c) => c.args)).toEqual([{ name: 'Oslo' }, { name: 'Wrong', city_id: 1, units: 'metric' }]);
  });

  it('the offline policy fills only the unbound parameters', async () => {
    const policy = createOfflinePolicy({ tools: TOOLS });
    const calls: Array<[string, unknown]> = [];
    const w = workflow(BOUND.slice(1));
    w.nodes = w.nodes.filter((n) => n.id !== 'find');
    w.edges = [
      { from: 'plan', to: 'cast', kind: 'data' },
      { from: 'cast', to: 'answer', kind: 'data' },
    ];
    await executeWorkflow(w, { query: 'Get the forecast for city id 42.' }, { policy, tools: registry(calls) });
    expect(calls).toEqual([['forecast', { city_id: 42, units: 'metric' }]]);
  });

  it('Mermaid shows what is bound and from where', () => {
    const text = toMermaid(workflow(BOUND));
    expect(text).toContain('bound: city_id ← find → results[*].id (first), units ← constant #34;metric#34;');
  });

  it('set_binding binds, rebinds and unbinds through an edit plan', () => {
    const w = workflow([]);
    const bound = applyEditPlan(
      w,
      {
        edits: [
          {
            op: 'set_binding',
            id: 'cast',
            tool: 'forecast',
            param: 'units',
            source: { from: 'const', value: 'metric' },
          },
        ],
      },
      { tools: TOOLS },
    );
    expect(bound.ok && bound.workflow.nodes[2]).toMatchObject({
      bind: [{ tool: 'forecast', param: 'units', source: { from: 'const', value: 'metric' } }],
    });
    const unbound = applyEditPlan(
      bound.ok ? bound.workflow : w,
      { edits: [{ op: 'set_binding', id: 'cast', tool: 'forecast', param: 'units', source: null }] },
      { tools: TOOLS },
    );
    expect(unbound.ok && 'bind' in unbound.workflow.nodes[2]! && unbound.workflow.nodes[2].bind !== undefined).toBe(
      false,
    );
    const wrong = applyEditPlan(
      w,
      {
        edits: [
          { op: 'set_binding', id: 'cast', tool: 'forecast', param: 'nope', source: { from: 'const', value: 1 } },
        ],
      },
      { tools: TOOLS },
    );
    expect(wrong.ok ? '' : wrong.error.message).toContain("'forecast' has no parameter 'nope'");
  });
});
