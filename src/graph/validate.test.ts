import { describe, expect, it } from 'vitest';
import { assertValidWorkflow, parseWorkflow, validateWorkflow } from './validate.js';
import { planToolAnswer } from '../../test/support/workflows.js';

const linear = planToolAnswer({
  name: 'linear',
  tool: { id: 't1', task: 'Look up the weather' },
  answer: { prompt: 'Answer {{query}}' },
});

describe('validateWorkflow (smoke)', () => {
  it('accepts a linear plan → tool → synthesize workflow', () => {
    expect(validateWorkflow(linear)).toEqual([]);
  });
  it('names the cycle', () => {
    const w = structuredClone(linear);
    w.nodes.splice(2, 0, { id: 't2', kind: 'tool', task: 'again' } as never);
    w.edges.push(
      { from: 't1', to: 't2', kind: 'data' },
      { from: 't2', to: 't1', kind: 'control' },
      { from: 't2', to: 'answer', kind: 'data' },
    );
    const problems = validateWorkflow(w);
    expect(problems.map((p) => p.code)).toContain('cycle');
    expect(problems.find((p) => p.code === 'cycle')!.message).toContain('t1 → t2 → t1');
  });
});

describe('validateWorkflow (rules beyond the fixtures)', () => {
  const judge = {
    id: 'judge',
    kind: 'llm',
    role: 'judge',
    prompt: 'Decide for {{query}}',
    output: {
      type: 'json',
      schema: { type: 'object', properties: { plan: { type: 'object', properties: { steps: { type: 'integer' } } } } },
    },
  };
  const branchy = () => {
    const w = structuredClone(linear) as { nodes: unknown[]; edges: Array<Record<string, unknown>> };
    w.nodes.splice(2, 0, judge);
    w.edges = [
      { from: 'plan', to: 't1', kind: 'data' },
      { from: 't1', to: 'judge', kind: 'data', when: { kind: 'status', status: 'ok' } },
      { from: 'judge', to: 'answer', kind: 'data', when: { kind: 'field', field: 'plan.steps', op: 'gte', value: 2 } },
      { from: 't1', to: 'answer', kind: 'data' },
    ];
    return w;
  };

  it('accepts a status guard on a tool node and a nested field guard with a matching type', () => {
    expect(validateWorkflow(branchy())).toEqual([]);
  });
  it('rejects a nested field guard with a literal of the wrong type, and a field guard on a tool node', () => {
    const w = branchy();
    (w.edges[2]!.when as Record<string, unknown>).value = 'two';
    w.edges[1]!.when = { kind: 'field', field: 'status', op: 'truthy' };
    expect(validateWorkflow(w).map((p) => `${p.code} ${p.path}`)).toEqual([
      'guard-source $.edges[1].when',
      'guard-value $.edges[2].when.value',
    ]);
  });
  it('rejects a field guard on a text output, a repeated edge, and reports an empty workflow', () => {
    const w = structuredClone(linear) as { edges: Array<Record<string, unknown>> };
    w.edges.push({ from: 'plan', to: 't1', kind: 'control', when: { kind: 'field', field: 'x', op: 'exists' } });
    expect(validateWorkflow(w).map((p) => p.message)).toEqual([
      'edge plan → t1 repeats $.edges[0]; keep one (an edge is live or dead as a whole)',
      `guard reads field 'x' but node 'plan' has text output; give it output {"type": "json", "schema": …} declaring 'x'`,
    ]);
    expect(validateWorkflow({ version: 1, name: 'empty', nodes: [], edges: [] }).map((p) => p.code)).toEqual([
      'no-entry',
    ]);
  });
  it('assertValidWorkflow throws INVALID_WORKFLOW listing every problem, and returns the parsed workflow when valid', () => {
    expect(assertValidWorkflow(linear).nodes).toHaveLength(3);
    const w = structuredClone(linear);
    w.nodes[1] = { id: 't1', kind: 'tool', task: '', retry: { attempts: 0, on: 'error' } } as never;
    expect(() => assertValidWorkflow(w, undefined, 'flow.json')).toThrowErrorMatchingInlineSnapshot(`
      [FlowScoutError: flow.json: the workflow is not valid (1 problem):
        $.nodes[1].task: must not be empty]
    `);
  });
  it('parseWorkflow reports schema problems with paths and messages that say what was given', () => {
    const r = parseWorkflow({
      version: 1,
      name: 'x',
      nodes: [{ id: 'p', kind: 'llm', role: 'plan', prompt: 'x', output: { type: 'yaml' } }],
      edges: [{ from: 'p', to: 'p', kind: 'data', when: { kind: 'field', field: 'a', op: 'in', value: 3 } }],
    });
    expect(r.ok ? [] : r.problems.map((p) => `${p.path}: ${p.message}`)).toMatchInlineSnapshot(`
      [
        "$.nodes[0].output.type: "type" "yaml" is not valid; use "text" or "json"",
        "$.edges[0].when.value: op 'in' needs an array "value"",
      ]
    `);
  });
});

describe('a workflow written by an older FlowScout with its own offline table (learned)', () => {
  it('still loads and validates: the table is not read, whatever its shape', () => {
    const old = { ...linear, learned: { offline: { records: 4, tools: 'anything' } } };
    expect(validateWorkflow(old)).toEqual([]);
    expect(parseWorkflow(old).ok).toBe(true);
  });
});

describe('hints of tool nodes', () => {
  const tools = [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }];
  const withHints = (hints: unknown[]) => ({
    ...linear,
    nodes: linear.nodes.map((n) => (n.kind === 'tool' ? { ...n, hints } : n)),
  });
  const at = linear.nodes.findIndex((n) => n.kind === 'tool');

  it('name an available tool and its parameters, one hint per tool', () => {
    expect(
      validateWorkflow(
        withHints([{ tool: 'get_weather', params: { city: { from: { request: 1 } } } }]) as never,
        tools,
      ),
    ).toEqual([]);
    expect(
      validateWorkflow(
        withHints([
          { tool: 'get_weather', params: { town: { from: { request: 1 } } } },
          { tool: 'get_weather' },
          { tool: 'get_tides' },
        ]) as never,
        tools,
      ).map((p) => [p.path, p.message]),
    ).toEqual([
      [`$.nodes[${at}].hints[0].params.town`, expect.stringContaining("'get_weather' has no parameter 'town'")],
      [`$.nodes[${at}].hints[1].tool`, expect.stringContaining("two hints about 'get_weather'")],
      [`$.nodes[${at}].hints[2].tool`, expect.stringContaining("'get_tides', which is not an available tool")],
    ]);
  });

  it('have shares between 0 and 1, checked at their path', () => {
    const problems = validateWorkflow(
      withHints([{ tool: 'get_weather', params: { city: { before: { in: 1.5 } } } }]) as never,
    );
    expect(problems.map((p) => p.path)).toEqual([`$.nodes[${at}].hints[0].params.city.before.in`]);
  });
});
