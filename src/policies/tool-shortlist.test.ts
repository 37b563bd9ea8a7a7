import { afterEach, describe, expect, it } from 'vitest';
import { startTestLlmServer, type TestLlmServer } from '../../test/support/llm-server.js';
import type { Workflow } from '../graph/schema.js';
import { createLlmClient } from '../llm/client.js';
import { resolveModel } from '../llm/resolve-model.js';
import type { ToolDescriptor } from '../contracts/tools.js';
import { createLlmPolicy } from './llm-policy.js';
import { createToolShortlister } from './tool-shortlist.js';
import type { ToolPlanRequest } from './types.js';

/** 30 tools: two that the request asks for, and 28 about other things. */
const TOOLS: ToolDescriptor[] = [
  ...Array.from({ length: 14 }, (_, i) => ({
    name: `music_chart_${i}`,
    description: `Top songs of music chart number ${i} for a country.`,
    inputSchema: { type: 'object', properties: { country: { type: 'string' } } },
  })),
  {
    name: 'hotel_search',
    description: 'Search hotels in a city by name.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  ...Array.from({ length: 14 }, (_, i) => ({
    name: `recipe_lookup_${i}`,
    description: `Cooking recipes of cuisine ${i} with an ingredient.`,
    inputSchema: { type: 'object', properties: { ingredient: { type: 'string' } } },
  })),
  {
    name: 'flight_status',
    description: 'Status of a flight by its flight number.',
    inputSchema: { type: 'object', properties: { flight: { type: 'string' } }, required: ['flight'] },
  },
];
const QUERY = 'Find hotels in Lyon. Then tell me the status of flight AF123.';

const wf: Workflow = { version: 1, name: 'w', nodes: [], edges: [] };
const req = (over: Partial<ToolPlanRequest> = {}): ToolPlanRequest => ({
  query: QUERY,
  workflow: wf,
  context: QUERY,
  scratch: new Map(),
  inputs: [],
  node: { id: 'step_1', kind: 'tool', task: 'Step 1: look up what this step of the request needs.' },
  candidates: TOOLS,
  attempt: 1,
  ...over,
});

describe('tool shortlist', () => {
  it('ranks the tools each clause of the request asks for into a short list, for a workflow position and for ReAct', () => {
    const s = createToolShortlister({ tools: TOOLS });
    const names = s.shortlist(req(), 3).map((t) => t.name);
    expect(names).toHaveLength(3);
    expect(names).toEqual(expect.arrayContaining(['hotel_search', 'flight_status']));
    expect(
      s
        .forRequest(QUERY, TOOLS, 2)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['flight_status', 'hotel_search']);
    // A node with at most k candidates keeps them all, in their order.
    expect(s.shortlist(req({ candidates: TOOLS.slice(0, 3) }), 5)).toEqual(TOOLS.slice(0, 3));
  });

  describe('in the LLM policy', () => {
    let server: TestLlmServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    it('lists only the shortlist, and every candidate on the repair round after the model names a tool it was not shown', async () => {
      server = await startTestLlmServer({
        script: [
          { json: { calls: [{ tool: 'hotel_finder', args: { city: 'Lyon' } }] } },
          { json: { calls: [{ tool: 'hotel_search', args: { city: 'Lyon' } }] } },
        ],
      });
      const client = createLlmClient({
        model: await resolveModel(server.spec(), { env: {} }),
        sleep: async () => {},
        timeoutMs: 5000,
      });
      const policy = createLlmPolicy({ client, tools: TOOLS, shortlist: 5 });
      const plan = await policy.planToolCalls(req());
      expect(plan.error).toBeUndefined();
      expect(plan.calls).toEqual([{ tool: 'hotel_search', args: { city: 'Lyon' } }]);
      const listed = (i: number) => {
        const text = server!.requests[i]!.body.messages.map((m: { content: string }) => m.content).join('\n');
        return TOOLS.filter((t) => text.includes(`### ${t.name}\n`)).map((t) => t.name);
      };
      expect(listed(0)).toHaveLength(5);
      expect(listed(0)).toEqual(expect.arrayContaining(['hotel_search', 'flight_status']));
      expect(listed(1)).toHaveLength(TOOLS.length);
      // The stable part (step, rule, tools) comes before the per-record part (request, upstream results).
      const prompt = server.requests[0]!.body.messages.at(-1).content as string;
      expect(prompt.indexOf('Candidate tools:')).toBeLessThan(prompt.indexOf(`Request: ${QUERY}`));
      expect(prompt).toContain('These are the 5 of the step');
    });

    it('lists every candidate when the shortlist is off (0)', async () => {
      server = await startTestLlmServer({
        script: [{ json: { calls: [{ tool: 'hotel_search', args: { city: 'Lyon' } }] } }],
      });
      const client = createLlmClient({
        model: await resolveModel(server.spec(), { env: {} }),
        sleep: async () => {},
        timeoutMs: 5000,
      });
      const policy = createLlmPolicy({ client, tools: TOOLS, shortlist: 0 });
      await policy.planToolCalls(req());
      const prompt = server.requests[0]!.body.messages.at(-1).content as string;
      expect(TOOLS.every((t) => prompt.includes(`### ${t.name}\n`))).toBe(true);
    });
  });
});
