import { afterEach, describe, expect, it } from 'vitest';
import type { ToolSpec } from '../contracts/tools.js';
import type { Workflow } from '../graph/schema.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import { createToolRegistry } from '../tools/registry.js';
import { startHttpServer, type RunningHttpServer } from './http-server.js';
import { createWorkflowService, MAX_QUERY_CHARS } from './workflow-service.js';
import { planToolAnswer } from '../../test/support/workflows.js';
import { sendRaw } from '../../test/support/http-send.js';

/**
 * One long request must not freeze the server: the offline policy's work is linear in the request
 * (each clause ranked once, at most MAX_REQUEST_PARTS parts handed out), it yields to the event loop
 * between parts, and the request timeout answers 504 whatever the run is doing. Before, a
 * 19,990-character request took over a minute with the event loop blocked (`/health` waited too).
 */

const cities = ['Oslo', 'Lima', 'Paris', 'Tokyo', 'Cairo', 'Quito', 'Delhi', 'Rome'];
const topics = [
  'weather',
  'forecast',
  'air quality',
  'tides',
  'pollen',
  'sunrise',
  'storm alerts',
  'humidity',
  'wind',
  'radar',
];
const specs: ToolSpec[] = topics.flatMap((topic) =>
  ['now', 'history', 'summary', 'map'].map((kind) => ({
    name: `get_${topic.replace(/ /g, '_')}_${kind}`,
    description: `The ${topic} ${kind} of a city.`,
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: async (args: Record<string, unknown>) => {
      await new Promise((r) => setTimeout(r, 5));
      return { city: args.city, topic, kind };
    },
  })),
);
const descriptors = specs.map(({ execute: _e, ...d }) => d);

/** plan → one repeating position over every tool (one call per part of the request) → answer. */
const workflow: Workflow = planToolAnswer({
  name: 'City facts',
  description: 'Answers questions about cities.',
  tool: {
    id: 'lookup',
    task: 'Look up what each part of the request asks about its city',
    tools: descriptors.map((d) => d.name),
    calls: 'many',
  },
  answer: { prompt: 'Answer {{query}} from:\n{{inputs}}' },
});

function longQuery(chars: number): string {
  const parts: string[] = [];
  for (let i = 0; parts.join(' ').length < chars; i++)
    parts.push(
      `Then get the ${topics[i % topics.length]} ${['now', 'history', 'summary', 'map'][i % 4]} of ${cities[i % cities.length]}.`,
    );
  return parts.join(' ').slice(0, chars);
}

const send = sendRaw;

let server: RunningHttpServer | undefined;
afterEach(async () => {
  await server?.close(0);
  server = undefined;
});

describe('a request near the size limit', () => {
  it(
    'a 19,990-character query is answered (200, or 504 at the timeout), and /health answers while it runs',
    { timeout: 30_000 },
    async () => {
      const service = createWorkflowService({
        workflow,
        policy: createOfflinePolicy({ tools: descriptors }),
        tools: createToolRegistry(specs),
      });
      server = await startHttpServer({ service, requestTimeoutMs: 2_000 });
      const query = longQuery(19_990);
      expect(query.length).toBe(19_990);
      expect(query.length).toBeLessThanOrEqual(MAX_QUERY_CHARS);
      let done = false;
      const run = send(server.url, 'POST', '/run', JSON.stringify({ query })).finally(() => (done = true));
      // /health is answered while the run is in flight (the event loop is not held by the policy).
      let answeredDuringRun = false;
      while (!done) {
        const health = await send(server.url, 'GET', '/health');
        expect(health.status).toBe(200);
        if ((health.json.runs as { running: number }).running === 1 && !done) answeredDuringRun = true;
      }
      const res = await run;
      expect([200, 504]).toContain(res.status);
      if (res.status === 200) expect((res.json.calls as unknown[]).length).toBeGreaterThan(0);
      else expect(res.json).toMatchObject({ error: { code: 'TIMEOUT' } });
      expect(answeredDuringRun).toBe(true);
    },
  );
});
