import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { prepareDomain } from '../bench/experiments/domain-env.js';
import { evaluateWorkflow } from '../evaluate/evaluate.js';
import { createLlmClient } from '../llm/client.js';
import { estimateTokens, readCall, requestInput, type CountedRequest } from '../llm/counting-model.js';
import { createRateLimiter } from '../llm/rate-limiter.js';
import { createLlmJudge } from '../metrics/llm-judge.js';
import { createLlmPolicy } from '../policies/llm-policy.js';
import { createRandom } from '../util/random.js';
import { createModelWiring } from '../wiring/wire-models.js';
import { OPTIMIZER_SYSTEM } from './optimizers/llm-optimizer-prompt.js';
import { createLlmOptimizer } from './optimizers/llm-optimizer.js';
import { projectSearchCost } from './project-cost.js';
import { minedG0 } from './variants.js';

/**
 * The cost projection counts the requests a search sends, because it runs the same LLM policy,
 * judge and optimizer: G0 run on a few Travel records with the LLM policy and the LLM judge on the
 * AI SDK's mock model, and the LLM optimizer asked twice (from G0, then from the candidate it made),
 * as the projection asks. The mock answers every request as the projection's counting model did, so
 * both runs take the same path; each request the search sends is then one the projection counted.
 */

interface Sent {
  role: string;
  inputTokens: number;
  outputTokens: number;
}

const roleOf = (r: { role: string }) => r.role.replace(/^policy:.*/, 'policy');

function totals(
  requests: readonly Sent[],
): Record<string, { requests: number; inputTokens: number; outputTokens: number }> {
  const out: Record<string, { requests: number; inputTokens: number; outputTokens: number }> = {};
  for (const r of requests) {
    const t = (out[r.role] ??= { requests: 0, inputTokens: 0, outputTokens: 0 });
    t.requests++;
    t.inputTokens += r.inputTokens;
    t.outputTokens += r.outputTokens;
  }
  return out;
}

describe('the cost projection', () => {
  it('counts the requests the search sends: per role the same number, and the same tokens', async () => {
    const env = await prepareDomain('Travel', { seed: 0, maxTest: 0, model: 'offline', wiring: createModelWiring() });
    try {
      const g0 = minedG0(env.split.opt, env.descriptors);
      const sample = env.split.opt.slice(0, 3);
      const projection = await projectSearchCost({
        g0,
        splits: { opt: sample, val: [], test: [] },
        iterations: 1,
        tools: env.tools,
        policy: 'llm',
        judge: 'llm',
        optimizer: 'llm',
        sample: sample.length,
        keepRequests: true,
      });
      const counted = (projection.requests ?? []).filter((r) => r.role !== 'judge:per-dimension');
      // The mock answers a request the projection counted with the counting model's answer; the
      // optimizer's requests carry the feedback of the run, so they are answered in order.
      const answers = new Map<string, CountedRequest[]>();
      for (const r of counted) answers.set(r.input, [...(answers.get(r.input) ?? []), r]);
      const proposals = counted.filter((r) => r.role === 'optimizer').map((r) => r.output);
      const sent: Sent[] = [];
      let unmatched = 0;
      const model = new MockLanguageModelV3({
        doGenerate: async (call) => {
          const read = readCall(call);
          const input = requestInput(read);
          const same = answers.get(input)?.shift();
          const optimizer = !same && read.system === OPTIMIZER_SYSTEM;
          if (!same && !optimizer) unmatched++;
          const text = same?.output ?? (optimizer ? (proposals.shift() ?? '{}') : '{}');
          const usage = { inputTokens: estimateTokens(input), outputTokens: Math.max(1, estimateTokens(text)) };
          sent.push({ role: same ? roleOf(same) : optimizer ? 'optimizer' : 'unmatched', ...usage });
          return {
            content: [{ type: 'text', text }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: {
              inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: usage.outputTokens, text: usage.outputTokens, reasoning: 0 },
            },
            warnings: [],
          };
        },
      });
      const client = createLlmClient({ model, spec: 'mock:model', limiter: createRateLimiter({ concurrency: 1 }) });
      const evaluation = await evaluateWorkflow(g0, sample, {
        policy: createLlmPolicy({ client, tools: env.descriptors }),
        tools: env.tools,
        judge: createLlmJudge({ client }),
        concurrency: 1,
      });
      const optimizer = createLlmOptimizer({ client });
      let workflow = g0;
      for (let i = 0; i < 2; i++) {
        const proposal = await optimizer.propose({
          workflow,
          feedback: evaluation.feedback!,
          siblings: [],
          tools: env.descriptors,
          random: createRandom(`projection:${i}`),
          toolNodesAllowed: true,
        });
        workflow = proposal.workflow;
      }

      expect(unmatched).toBe(0);
      const search = totals(sent);
      const projected = totals(counted.map((r) => ({ ...r, role: roleOf(r) })));
      expect(Object.keys(search).sort()).toEqual(['judge:joint', 'optimizer', 'policy']);
      // The LLM policy's and judge's requests are the same texts: equal counts and tokens.
      expect(search.policy).toEqual(projected.policy);
      expect(search['judge:joint']).toEqual(projected['judge:joint']);
      // The projection reports whole requests per query and per judged record (rounded).
      expect(projection.perQuery.requests).toBe(Math.round(search.policy!.requests / sample.length));
      expect(projection.judgePerRecord.requests).toBe(Math.round(search['judge:joint']!.requests / sample.length));
      // The optimizer's prompt carries the run's feedback, whose scores here come from the LLM judge
      // (whole 1–5 scores) where the projection's come from the lexical judge: the same requests and
      // answers, with input tokens within 2 %.
      expect(search.optimizer!.requests).toBe(projected.optimizer!.requests);
      expect(search.optimizer!.outputTokens).toBe(projected.optimizer!.outputTokens);
      expect(Math.abs(search.optimizer!.inputTokens / projected.optimizer!.inputTokens - 1)).toBeLessThan(0.02);
    } finally {
      await env.tools.close();
    }
  }, 120_000);
});
