import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { executeWorkflow } from '../runtime/execute.js';
import type { PreCallCheck } from '../runtime/pre-call.js';
import type { Trace } from '../runtime/trace.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { createToolRegistry } from '../tools/registry.js';
import { createFlowGraphSteps } from './langgraph-runtime.js';

const linear = JSON.parse(
  readFileSync(new URL('../../test/fixtures/workflows/valid/linear.json', import.meta.url), 'utf8'),
) as Workflow;

function weatherTool() {
  const made: Array<Record<string, unknown>> = [];
  const registry = createToolRegistry([
    {
      name: 'get_current_weather',
      description: 'current weather of a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      execute: async (args) => {
        made.push(args);
        return { city: args.city, tempC: 11 };
      },
    },
  ]);
  return { made, registry };
}

const policy = createScriptedPolicy({
  llm: (req) => (req.node.role === 'plan' ? 'look it up' : 'done'),
  tool: () => [{ tool: 'get_current_weather', args: { city: 'oslo' } }],
});

/** Runs the linear workflow through the exported graph's steps, in order, as the generated graph does. */
async function viaGraphSteps(
  checks: PreCallCheck[],
  registry: ReturnType<typeof weatherTool>['registry'],
): Promise<Trace> {
  const steps = createFlowGraphSteps(linear, 'hash', { policy, tools: registry, preCallChecks: checks });
  let state = { query: 'weather in Oslo?', results: {} } as Parameters<typeof steps.run>[1];
  state = { ...state, ...steps.begin(state) };
  for (const [id, sources] of [
    ['plan', []],
    ['current', ['plan']],
    ['answer', ['current']],
  ] as const) {
    const update = await steps.run(id, state, sources);
    state = { ...state, results: { ...state.results, ...update.results } };
  }
  return steps.end(state).trace!;
}

const runners = {
  interpreter: (checks: PreCallCheck[], registry: ReturnType<typeof weatherTool>['registry']) =>
    executeWorkflow(linear, { query: 'weather in Oslo?' }, { policy, tools: registry, preCallChecks: checks }),
  'exported LangGraph steps': viaGraphSteps,
};

describe.each(Object.entries(runners))('pre-call checks (%s)', (_name, run) => {
  it('rewrite the arguments of a planned call before it is made, seeing the node and the run context', async () => {
    const { made, registry } = weatherTool();
    const seen: string[] = [];
    const capitalise: PreCallCheck = (req) => {
      seen.push(
        `${req.node.id} ${req.tool.name} attempt ${req.attempt} query ${req.query} inputs ${req.inputs.map((i) => i.nodeId).join(',')}`,
      );
      return { args: { ...req.args, city: 'Oslo' } };
    };
    const trace = await run([capitalise], registry);
    expect(made).toEqual([{ city: 'Oslo' }]);
    expect(trace.calls).toEqual([
      { tool: 'get_current_weather', args: { city: 'Oslo' }, status: 'ok', output: { city: 'Oslo', tempC: 11 } },
    ]);
    expect(seen).toEqual(['current get_current_weather attempt 1 query weather in Oslo? inputs plan']);
  });

  it('withhold a call with an observation: the tool is not called and the node records why', async () => {
    const { made, registry } = weatherTool();
    const later: string[] = [];
    const trace = await run(
      [
        () => ({ withhold: { status: 'error', error: 'not grounded in the request' } }),
        (req) => void later.push(req.tool.name),
      ],
      registry,
    );
    expect(made).toEqual([]);
    expect(later).toEqual([]);
    expect(trace.calls).toEqual([{ tool: 'get_current_weather', args: { city: 'oslo' }, status: 'error' }]);
    const current = trace.observations.find((o) => o.nodeId === 'current')!;
    expect(current.status).toBe('error');
    expect(current.error).toBe('get_current_weather: not grounded in the request');
  });
});
