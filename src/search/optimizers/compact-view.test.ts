import { describe, expect, it } from 'vitest';
import { prepareDomain } from '../../bench/experiments/domain-env.js';
import { evaluateWorkflow } from '../../evaluate/evaluate.js';
import { createLexicalJudge } from '../../metrics/lexical-judge.js';
import { createModelWiring } from '../../wiring/wire-models.js';
import { minedG0 } from '../variants.js';
import { withLearnedTable } from '../run-search.js';
import { compactWorkflowView, optimizerPrompt } from './llm-optimizer-prompt.js';

// The LLM optimizer sees a compact view of the workflow, not its whole JSON (docs/DESIGN.md, "Search").

describe('the LLM optimizer prompt', () => {
  it('shows the nodes the feedback names in full, the rest as one line each, every edge, and no learned table', async () => {
    const env = await prepareDomain('Travel', { seed: 0, maxTest: 0, model: 'offline', wiring: createModelWiring() });
    try {
      const g0 = withLearnedTable(minedG0(env.split.opt, env.descriptors), env.policy.instance);
      expect(g0.learned?.offline).toBeDefined();
      const ev = await evaluateWorkflow(g0, env.split.opt.slice(0, 12), {
        policy: env.policy.instance,
        tools: env.tools,
        judge: createLexicalJudge(),
        concurrency: 2,
      });
      const view = compactWorkflowView(g0, ev.feedback!);
      const prompt = optimizerPrompt({
        workflow: g0,
        feedback: ev.feedback!,
        tools: env.descriptors,
        siblings: [],
        toolNodesAllowed: true,
      });
      expect(prompt).toContain(view);
      expect(prompt).not.toContain('"learned"');
      // Every node can still be named by id, and every edge is listed.
      for (const n of g0.nodes) expect(view).toMatch(new RegExp(`(^- ${n.id}:|"id":"${n.id}")`, 'm'));
      expect(view.split('\n').filter((l) => /^- \S+ -> \S+ (data|control)/.test(l))).toHaveLength(g0.edges.length);
      expect(view.length).toBeLessThan(JSON.stringify({ ...g0, learned: undefined, meta: undefined }).length);
    } finally {
      await env.tools.close();
    }
  }, 120_000);
});
