import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { createLexicalJudge } from '../metrics/lexical-judge.js';
import { createScriptedPolicy } from '../testing/scripted-policy.js';
import { defineTool } from '../tools/define-tool.js';
import { createToolRegistry } from '../tools/registry.js';
import { evaluateWorkflow } from './evaluate.js';
import { planToolAnswer } from '../../test/support/workflows.js';

const workflow: Workflow = planToolAnswer({
  name: 'w',
  plan: { prompt: 'Plan {{query}}' },
  tool: { id: 't1', task: 'look up' },
  answer: { id: 'synthesize' },
});
const records = ['a', 'b', 'c', 'd', 'e'].map((k) => ({
  id: `r-${k}`,
  query: `What is ${k}?`,
  reference: `${k} is 42`,
  calls: [{ tool: 'lookup', args: { q: k } }],
}));

function deps(opts: { slow?: boolean; crashOn?: string } = {}) {
  const tools = createToolRegistry([
    defineTool({
      name: 'lookup',
      description: 'look up',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      // Later records answer first, so completion order differs from record order.
      execute: async ({ q }) => {
        if (opts.slow) await new Promise((r) => setTimeout(r, 5 * (5 - 'abcde'.indexOf(String(q)))));
        return `${String(q)} is 42`;
      },
    }),
  ]);
  const policy = createScriptedPolicy({
    tool: (req) => {
      const k = /What is (\w)/.exec(req.query)![1]!;
      if (k === opts.crashOn) throw new Error('policy bug');
      return [{ tool: 'lookup', args: { q: k === 'c' ? 'zzz' : k } }];
    },
    llm: (req) => (req.node.role === 'synthesize' ? req.inputs.map((i) => JSON.stringify(i.output)).join(' ') : 'plan'),
  });
  return { tools, policy, judge: createLexicalJudge() };
}

describe('evaluateWorkflow', () => {
  it('scores every record (TC with detail, ES from the judge) and rewards R = (TC + ES) / 2, in record order', async () => {
    const ev = await evaluateWorkflow(workflow, records, { ...deps({ slow: true }), concurrency: 5 });
    expect(ev.perRecord.map((r) => r.id)).toEqual(records.map((r) => r.id));
    expect(ev.perRecord.map((r) => r.tc)).toEqual([1, 1, 0, 1, 1]);
    expect(ev.perRecord[2]!.detail.wrongArgs).toEqual([{ reference: 0, predicted: 0, tool: 'lookup', keys: ['q'] }]);
    expect(ev.tc).toBeCloseTo(0.8);
    expect(ev.reward).toBeCloseTo((ev.tc + ev.es) / 2);
    expect(ev.judge).toBe('offline lexical judge');
    expect(ev.totals.toolCalls).toBe(5);
    expect(ev.feedback!.patterns.some((p) => p.kind === 'wrong-args')).toBe(true);
  });

  it('records a failing node in the trace and goes on; refuses an invalid workflow before running anything', async () => {
    const ev = await evaluateWorkflow(workflow, records, { ...deps({ crashOn: 'b' }), feedback: false });
    expect(ev.perRecord[1]!.tc).toBe(0);
    expect(ev.perRecord[1]!.trace.observations.find((o) => o.nodeId === 't1')!.error).toContain('policy bug');
    expect(ev.feedback).toBeUndefined();
    const broken = { ...workflow, edges: workflow.edges.slice(1) };
    await expect(evaluateWorkflow(broken, records, deps())).rejects.toThrow(
      /INVALID_WORKFLOW|not a valid workflow|entry|reach/i,
    );
  });

  it('stops with ABORTED when cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(evaluateWorkflow(workflow, records, { ...deps(), signal: controller.signal })).rejects.toMatchObject({
      code: 'ABORTED',
    });
  });
});
