import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  LoggingMessageNotificationSchema,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { metrics, type Meter, type MeterProvider } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import { createToolRegistry } from '../tools/registry.js';
import type { ToolSpec } from '../contracts/tools.js';
import { startHttpServer, type RunningHttpServer } from './http-server.js';
import { createWorkflowService, type ServedRun, type WorkflowServiceOptions } from './workflow-service.js';
import { sendRaw } from '../../test/support/http-send.js';

/**
 * A served workflow is watched and speaks to the customer: `GET /metrics` in Prometheus text, the
 * same measures through an OpenTelemetry meter provider, MCP progress notifications and log
 * messages while a call runs, and answers that never name a node of the workflow, say what they
 * could not serve in the request's words, and are not `ok` when they served nothing.
 */

const weather: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather of a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async (args) => ({ city: args.city, tempC: 7, sky: 'rain' }),
};
const forecast: ToolSpec = {
  name: 'get_forecast',
  description: 'Forecast of a city for the coming days (this one always throws).',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: async () => {
    throw new Error('forecast service exploded');
  },
};
const specs = [weather, forecast];
const descriptors = specs.map(({ execute: _e, ...d }) => d);

/** plan → one tool step per tool, in order, with mined-style ids, each → answer (every edge unguarded). */
function steps(tools: string[], name = 'Weather desk'): Workflow {
  const ids = tools.map((_, i) => `route_1_step_${i + 1}`);
  return {
    version: 1,
    name,
    description: 'Answers weather questions.',
    nodes: [
      { id: 'plan', kind: 'llm', role: 'plan', prompt: 'Plan: {{query}}', output: { type: 'text' } },
      ...tools.map((t, i) => ({ id: ids[i]!, kind: 'tool' as const, task: `Use ${t}`, tools: [t] })),
      {
        id: 'answer',
        kind: 'llm',
        role: 'synthesize',
        prompt: 'Answer {{query}} from {{inputs}}',
        output: { type: 'text' },
      },
    ],
    edges: [
      { from: 'plan', to: ids[0]!, kind: 'data' },
      ...ids.slice(1).map((id, i) => ({ from: ids[i]!, to: id, kind: 'data' as const })),
      ...ids.map((id) => ({ from: id, to: 'answer', kind: 'data' as const })),
    ],
  };
}

let server: RunningHttpServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await server?.close();
  server = undefined;
  metrics.disable();
});

async function serve(workflow: Workflow, extra: Partial<WorkflowServiceOptions> = {}) {
  const service = createWorkflowService({
    workflow,
    policy: createOfflinePolicy({ tools: descriptors }),
    tools: createToolRegistry(specs),
    ...extra,
  });
  server = await startHttpServer({ service, http: true, mcp: { name: 'weather', description: 'weather' } });
  return server;
}

const ids = (w: Workflow) => w.nodes.map((n) => n.id).filter((id) => /[_\d]/.test(id));

describe('answers speak to the customer', () => {
  it('never names a node: the synthesizer\'s "Step route_1_step_2 made no call" is left out of a served answer', async () => {
    const wf = steps(['get_weather', 'get_forecast']);
    const { url } = await serve(wf);
    const r = await sendRaw(url, 'POST', '/run', JSON.stringify({ query: 'What is the weather in Oslo?' }));
    expect(r.status).toBe(200);
    const body = r.json as {
      answer: string;
      status: string;
      observations: Array<{ output?: unknown; nodeId: string }>;
    };
    // The run's own answer named the step that made no call…
    const raw = String(body.observations.find((o) => o.nodeId === 'answer')!.output);
    expect(raw).toContain('Step route_1_step_2 made no call');
    // …the served one does not, and keeps what the weather lookup returned.
    expect(body.status).toBe('ok');
    for (const id of ids(wf)) expect(body.answer).not.toContain(id);
    expect(body.answer).not.toMatch(/\bstep\b/i);
    expect(body.answer).toContain('Oslo');
  });

  it("says a part it could not serve in the request's words, and a run that served nothing is not ok", async () => {
    const wf = steps(['get_weather', 'get_forecast']);
    const { url } = await serve(wf);
    const partly = await sendRaw(
      url,
      'POST',
      '/run',
      JSON.stringify({ query: 'Give me the current weather in Oslo, then the forecast for Oslo' }),
    );
    expect(partly.status).toBe(200);
    expect(partly.json).toMatchObject({ status: 'ok', unserved: ['the forecast for Oslo'] });
    expect(partly.json.answer).toMatch(/I could not get this part of your request done: “the forecast for Oslo”\.$/);
    for (const id of ids(wf)) expect(partly.json.answer).not.toContain(id);

    await server!.close();
    const only = steps(['get_forecast'], 'Forecast desk');
    const nothing = await serve(only);
    const r = await sendRaw(nothing.url, 'POST', '/run', JSON.stringify({ query: 'Forecast for Oslo?' }));
    // The run itself ended `ok` (its answer step ran), but no call returned: nothing was served.
    expect(r.status).toBe(502);
    expect(r.json).toMatchObject({ status: 'error', unserved: ['Forecast for Oslo'] });
    expect(r.json.answer).toContain('I could not get your request done: “Forecast for Oslo”.');
    const message = (r.json.error as { message: string }).message;
    expect(message).toContain('the workflow run failed: nothing of the request was served');
    for (const id of ids(only)) {
      expect(r.json.answer).not.toContain(id);
      expect(message).not.toContain(id);
    }
  });
});

describe('GET /metrics and OpenTelemetry', () => {
  it('answers Prometheus text: runs by status, calls by outcome, fitness, health and latency, load, drift', async () => {
    const wf = steps(['get_weather', 'get_forecast']);
    const runs: ServedRun[] = [];
    const { url } = await serve(wf, {
      // The CLI scores against the workflow's tree (serve-monitor.ts); any scorer will do here.
      score: (trace) => ({ fitness: trace.calls.length > 0 ? 1 : 0.5, health: 0.25 }),
      drift: () => ({
        drift: true,
        processChanged: false,
        runsFailMore: true,
        runs: 2,
        averageFitness: 0.9,
        averageHealth: 0.25,
      }),
      onRun: (r) => void runs.push(r),
    });
    await sendRaw(url, 'POST', '/run', JSON.stringify({ query: 'What is the weather in Oslo?' }));
    await sendRaw(url, 'POST', '/run', JSON.stringify({ query: 'Forecast for Oslo, then the weather in Lima' }));
    expect(runs.map((r) => [r.status, r.figures])).toEqual([
      ['ok', { fitness: 1, health: 0.25 }],
      ['ok', { fitness: 1, health: 0.25 }],
    ]);
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    const w = 'workflow="Weather desk"';
    expect(text).toContain('# TYPE flowscout_runs_total counter');
    expect(text).toContain(`flowscout_runs_total{${w},status="ok"} 2`);
    expect(text).toContain(`flowscout_calls_total{${w},outcome="ok"} 2`);
    expect(text).toContain(`flowscout_calls_total{${w},outcome="failed"} 1`);
    expect(text).toContain('# TYPE flowscout_run_fitness histogram');
    expect(text).toContain(`flowscout_run_fitness_bucket{${w},le="+Inf"} 2`);
    expect(text).toContain(`flowscout_run_fitness_sum{${w}} 2`);
    expect(text).toContain(`flowscout_run_health_bucket{${w},le="0.25"} 2`);
    expect(text).toContain(`flowscout_run_duration_seconds_count{${w}} 2`);
    expect(text).toContain(`flowscout_runs_in_flight{${w}} 0`);
    expect(text).toContain(`flowscout_drift{${w},kind="runs_fail_more"} 1`);
    expect(text).toContain(`flowscout_drift{${w},kind="process_changed"} 0`);
    expect(text).toContain(`flowscout_recent_health{${w}} 0.25`);
    // Every sample line is `name{labels} value`.
    for (const line of text
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('#')))
      expect(line).toMatch(/^[a-z_]+\{[^}]*\} -?[\d.e+-]+$/);
    expect((await sendRaw(url, 'POST', '/metrics', '{}')).status).toBe(405);
  });

  it('sends the same measures to the meter provider the process has', async () => {
    const recorded: Array<{ name: string; value: number; attributes: Record<string, unknown> }> = [];
    const gauges: Array<{ name: string; callback: (r: { observe(v: number, a?: object): void }) => void }> = [];
    const instrument = (name: string) => ({
      add: (value: number, attributes: Record<string, unknown> = {}) => void recorded.push({ name, value, attributes }),
      record: (value: number, attributes: Record<string, unknown> = {}) =>
        void recorded.push({ name, value, attributes }),
    });
    const meter = {
      createCounter: instrument,
      createHistogram: instrument,
      createObservableGauge: (name: string) => ({
        addCallback: (callback: (typeof gauges)[number]['callback']) => void gauges.push({ name, callback }),
      }),
    } as unknown as Meter;
    metrics.setGlobalMeterProvider({ getMeter: () => meter } as MeterProvider);
    const { url } = await serve(steps(['get_weather']), {
      score: () => ({ fitness: 0.75, health: 0.5 }),
      drift: () => ({
        drift: false,
        processChanged: false,
        runsFailMore: false,
        runs: 5,
        averageFitness: 1,
        averageHealth: 1,
      }),
    });
    await sendRaw(url, 'POST', '/run', JSON.stringify({ query: 'What is the weather in Oslo?' }));
    const of = (name: string) => recorded.filter((r) => r.name === name);
    expect(of('flowscout.runs')).toEqual([
      {
        name: 'flowscout.runs',
        value: 1,
        attributes: { 'flowscout.workflow': 'Weather desk', 'flowscout.status': 'ok' },
      },
    ]);
    expect(of('flowscout.run.fitness').map((r) => r.value)).toEqual([0.75]);
    expect(of('flowscout.run.health').map((r) => r.value)).toEqual([0.5]);
    expect(of('flowscout.calls')[0]).toMatchObject({ value: 1, attributes: { 'flowscout.call.outcome': 'ok' } });
    expect(of('flowscout.run.duration')).toHaveLength(1);
    const observed: Array<[number, object | undefined]> = [];
    gauges.find((g) => g.name === 'flowscout.drift')!.callback({ observe: (v, a) => void observed.push([v, a]) });
    expect(observed).toContainEqual([0, { 'flowscout.workflow': 'Weather desk', 'flowscout.drift.kind': 'any' }]);
  });
});

describe('MCP progress and logging', () => {
  it('a client that sends a progressToken gets a progress notification per node, and log messages', async () => {
    const wf = steps(['get_weather', 'get_forecast']);
    const { url } = await serve(wf);
    const client = new Client({ name: 'watch-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    clients.push(client);
    const logs: LoggingMessageNotification['params'][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    const progress: Progress[] = [];
    const result = await client.callTool(
      { name: 'weather', arguments: { query: 'Weather in Oslo, then the forecast for Oslo' } },
      CallToolResultSchema,
      { onprogress: (p) => void progress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(progress[1]!.message).toBe('2 of 4 parts done: called get_weather (1 of 1 call returned)');
    expect(progress[2]!.message).toMatch(/^3 of 4 parts done: called get_forecast \(0 of 1 call returned\)$/);
    for (const p of progress) for (const id of ids(wf)) expect(p.message).not.toContain(id);
    expect(logs).toContainEqual({
      level: 'warning',
      logger: 'flowscout',
      data: expect.stringMatching(/^get_forecast failed: .*forecast service exploded/),
    });
    expect(logs[logs.length - 1]).toMatchObject({
      level: 'info',
      data: expect.stringMatching(/^the run ended ok: 2 calls in /),
    });

    // Without a token: one JSON answer, no progress.
    const quiet: Progress[] = [];
    const plain = await client.callTool({ name: 'weather', arguments: { query: 'Weather in Lima?' } });
    expect(plain.isError).toBeFalsy();
    expect(quiet).toEqual([]);
  });
});
