import { describe, expect, it } from 'vitest';
import { oracleReplayDomain } from '../../test/support/oracle-replay.js';
import type { Workflow } from '../graph/schema.js';
import type { TaskRecord } from '../records/schema.js';
import { executeWorkflow } from '../runtime/execute.js';
import { createToolRegistry } from '../tools/registry.js';
import { createReplayTools } from '../tools/replay-tools.js';
import { createOraclePolicy, oracleWorkflowFor } from './oracle.js';

const record: TaskRecord = {
  id: 'r1',
  query: 'Quote AAPL twice, then news',
  reference: 'AAPL is up.',
  calls: [
    { tool: 'quote', args: { s: 'AAPL' }, output: 'q1', status: 'ok' },
    { tool: 'quote', args: { s: 'MSFT' }, output: 'q2', status: 'ok' },
    { tool: 'news', args: { t: 'tech' }, output: 'n1', status: 'ok' },
  ],
};
const descriptors = ['quote', 'news'].map((name) => ({
  name,
  description: name,
  inputSchema: { type: 'object', properties: {} },
}));

describe('createOraclePolicy', () => {
  it('replays a record over its oracle workflow: many takes a same-tool run, TC inputs match exactly', async () => {
    const w = oracleWorkflowFor(record);
    expect(w.nodes.map((n) => (n.kind === 'tool' ? `${n.id}:${n.tools?.join()}:${n.calls ?? 'one'}` : n.id))).toEqual([
      'plan',
      'call_1:quote:many',
      'call_2:news:one',
      'synthesize',
    ]);
    const tools = createToolRegistry(createReplayTools([record], descriptors));
    const t = await executeWorkflow(
      w,
      { query: record.query, recordId: 'r1' },
      { policy: createOraclePolicy([record]), tools },
    );
    expect(t.calls).toEqual(record.calls);
    expect(t.answer).toBe('AAPL is up.');
    expect(t.observations[0]).toMatchObject({ output: record.query, model: 'oracle' });
    expect(t.policy).toBe('oracle replay (tests only)');
    expect(tools.stats()).toMatchObject({ replayHits: 3, replayMisses: 0 });
  });

  it('rewinds on retry, errors when the log is exhausted, and answers judges per schema', async () => {
    const w: Workflow = {
      version: 1,
      name: 'w',
      nodes: [
        { id: 'plan', kind: 'llm', role: 'plan', prompt: 'p', output: { type: 'text' } },
        {
          id: 'judge',
          kind: 'llm',
          role: 'judge',
          prompt: 'j',
          output: {
            type: 'json',
            schema: {
              type: 'object',
              properties: { go: { type: 'boolean' }, kind: { type: 'string', enum: ['a', 'b'] } },
            },
          },
        },
        { id: 'a', kind: 'tool', task: 'a', retry: { attempts: 2, on: 'error' } },
        { id: 'b', kind: 'tool', task: 'b', calls: 'many' },
        { id: 'c', kind: 'tool', task: 'c' },
        { id: 'synth', kind: 'llm', role: 'synthesize', prompt: 's', output: { type: 'text' } },
      ],
      edges: [
        { from: 'plan', to: 'judge', kind: 'data' },
        { from: 'judge', to: 'a', kind: 'data', when: { kind: 'field', field: 'go', op: 'eq', value: true } },
        { from: 'a', to: 'b', kind: 'data' },
        { from: 'b', to: 'c', kind: 'data' },
        { from: 'c', to: 'synth', kind: 'data' },
      ],
    };
    let quoteCalls = 0;
    const tools = createToolRegistry([
      { ...descriptors[0]!, execute: async () => (++quoteCalls === 1 ? Promise.reject(new Error('flaky')) : 'q') },
      { ...descriptors[1]!, execute: async () => 'n' },
    ]);
    const t = await executeWorkflow(w, { query: 'q', recordId: 'r1' }, { policy: createOraclePolicy([record]), tools });
    expect(t.observations[1]).toMatchObject({ nodeId: 'judge', output: { go: true, kind: 'a' } });
    expect(t.observations[2]?.calls?.map((c) => [c.attempt, c.args])).toEqual([
      [1, { s: 'AAPL' }],
      [2, { s: 'AAPL' }],
    ]);
    expect(t.observations[3]?.calls?.map((c) => c.args)).toEqual([{ s: 'MSFT' }]);
    expect(t.observations[4]?.calls?.map((c) => c.args)).toEqual([{ t: 'tech' }]);
    const short: TaskRecord = { ...record, id: 'r2', calls: record.calls.slice(0, 1) };
    const t2 = await executeWorkflow(
      w,
      { query: 'q', recordId: 'r2' },
      { policy: createOraclePolicy([short]), tools: createToolRegistry(createReplayTools([short], descriptors)) },
    );
    expect(t2.observations[3]).toMatchObject({ nodeId: 'b', status: 'ok', calls: [] });
    expect(t2.observations[4]).toMatchObject({
      nodeId: 'c',
      status: 'error',
      error: "no valid plan: record 'r2' has no reference call left (all 1 used)",
    });
  });

  it('needs a known record id', async () => {
    const t = await executeWorkflow(
      oracleWorkflowFor(record),
      { query: 'q', recordId: 'nope' },
      { policy: createOraclePolicy([record]), tools: createToolRegistry(createReplayTools([record], descriptors)) },
    );
    expect(t.observations[0]?.error).toContain("the oracle policy has no record 'nope'");
  });
});

describe('oracle replay over the TRAJECT-Bench records (bundled data)', () => {
  it('hits every reference call of every all-ok record but one whose id comes from nowhere, and reaches TC = 1 in each domain', async () => {
    const rows = [];
    for (const domain of ['Finance', 'Travel', 'Weather']) rows.push(await oracleReplayDomain(domain));
    console.log(
      rows
        .map(
          (r) =>
            `${r.domain}: ${r.records} records, ${r.calls} calls, ${r.hits} hits, ${r.misses} misses, TC ${r.tc.toFixed(3)}`,
        )
        .join('\n'),
    );
    // One recorded call passes a hotel id that neither the request nor any earlier output holds (the
    // recorded agent made it up; the tool answered "hotel_id must be numeric"): the runtime's
    // grounding withholds it, and π̂ still holds it, so TC stays 1.
    expect(rows.flatMap((r) => r.withheld)).toEqual([
      {
        record: 'travel-14-0',
        tool: 'hotel_details_for_priceline_com_provider',
        why: expect.stringContaining(`ungrounded identifier argument 'hotel_id' ("palmer-ak-day1")`),
      },
    ]);
    for (const r of rows) {
      expect(r.records).toBeGreaterThan(50);
      expect(r.hits + r.withheld.length).toBe(r.calls);
      expect(r.misses).toBe(0);
      expect(r.tc).toBe(1);
      expect(r.imperfect).toEqual([]);
    }
  });
});
