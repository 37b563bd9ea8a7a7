import { describe, expect, it } from 'vitest';
import { prepareDomain } from '../../bench/experiments/domain-env.js';
import { evaluateWorkflow } from '../../evaluate/evaluate.js';
import { createLexicalJudge } from '../../metrics/lexical-judge.js';
import { createModelWiring } from '../../wiring/wire-models.js';
import { minedG0 } from '../variants.js';
import { applyEditPlanOrThrow } from '../../graph/edits/apply-edit-plan.js';
import { ruleEdits } from './rule-edits.js';
import { compactWorkflowView, optimizerPrompt } from './llm-optimizer-prompt.js';

// The LLM optimizer sees a compact view of the workflow, not its whole JSON (docs/DESIGN.md, "Search").

describe('the LLM optimizer prompt', () => {
  it('shows the nodes the feedback names in full, the rest as one line each, every edge, and names the hints instead of writing them out', async () => {
    const env = await prepareDomain('Travel', { seed: 0, maxTest: 0, model: 'offline', wiring: createModelWiring() });
    try {
      const mined = minedG0(env.split.opt, env.descriptors);
      const first = await evaluateWorkflow(mined, env.split.opt, {
        policy: env.policy.instance,
        tools: env.tools,
        judge: createLexicalJudge(),
        concurrency: 2,
      });
      // G0 with the hints a search learns first (the rule optimizer's hint plan).
      const tools = new Map(env.descriptors.map((t) => [t.name, t]));
      const plan = ruleEdits({ workflow: mined, feedback: first.feedback!, tools, allowToolNodes: true }).find((e) =>
        e.summary.startsWith('hints'),
      )!;
      const g0 = applyEditPlanOrThrow(mined, plan.plan, { tools: env.descriptors });
      expect(g0.nodes.some((n) => n.kind === 'tool' && (n.hints?.length ?? 0) > 0)).toBe(true);
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
      expect(view).not.toContain('"setRates"');
      // Every node can still be named by id, and every edge is listed.
      for (const n of g0.nodes) expect(view).toMatch(new RegExp(`(^- ${n.id}:|"id":"${n.id}")`, 'm'));
      expect(view.split('\n').filter((l) => /^- \S+ -> \S+ (data|control)/.test(l))).toHaveLength(g0.edges.length);
      expect(view.length).toBeLessThan(JSON.stringify({ ...g0, meta: undefined }).length);
    } finally {
      await env.tools.close();
    }
  }, 120_000);
});
