import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { createOfflinePolicy } from '../policies/offline/offline-policy.js';
import { createToolRegistry } from '../tools/registry.js';
import { executeWorkflow } from './execute.js';
import { traceToJson } from './trace-file.js';
import { planToolAnswer } from '../../test/support/workflows.js';

const workflow: Workflow = planToolAnswer({ name: 'big', tool: { id: 'fetch', task: 'Fetch the page' } });

describe('traceToJson', () => {
  it('writes a large tool output once (π̂), the observations pointing to it; small outputs stay inline', async () => {
    const big = 'x'.repeat(3_000_000);
    const tools = createToolRegistry([
      {
        name: 'fetch_page',
        description: 'Fetch the page of a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        execute: async () => ({ body: big }),
      },
    ]);
    const trace = await executeWorkflow(
      workflow,
      { query: 'Fetch the city page of Oslo' },
      // The whole output kept (no bound, output-bound.ts): this is about how a trace is written.
      { policy: createOfflinePolicy({ tools: tools.list() }), tools, maxOutputChars: Infinity },
    );
    expect(trace.calls).toHaveLength(1);
    const naive = JSON.stringify(trace, null, 2);
    const text = traceToJson(trace);
    expect(naive.split(big).length - 1).toBe(3);
    expect(text.split(big).length - 1).toBe(1);
    expect(text.length).toBeLessThan(big.length * 1.1);
    const doc = JSON.parse(text);
    const fetch = doc.observations.find((o: { nodeId: string }) => o.nodeId === 'fetch');
    expect(fetch.calls[0].output).toEqual({ sameAs: 'calls[0].output' });
    expect(fetch.output[0].output).toEqual({ sameAs: 'calls[0].output' });
    expect(doc.calls[0].output.body).toBe(big);

    const small = createToolRegistry([
      {
        name: 'fetch_page',
        description: 'Fetch the page of a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        execute: async () => ({ body: 'short' }),
      },
    ]);
    const t2 = await executeWorkflow(
      workflow,
      { query: 'Fetch the city page of Oslo' },
      { policy: createOfflinePolicy({ tools: small.list() }), tools: small },
    );
    expect(JSON.parse(traceToJson(t2))).toEqual(JSON.parse(JSON.stringify(t2)));
  });
});
