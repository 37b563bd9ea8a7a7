import { describe, expect, it } from 'vitest';
import { prepareDomain } from '../../src/bench/experiments/domain-env.js';
import { evaluateWorkflow } from '../../src/evaluate/evaluate.js';
import { createLexicalJudge } from '../../src/metrics/lexical-judge.js';
import { BUNDLED_DOMAINS } from '../../src/records/bundled.js';
import { minedG0 } from '../../src/search/variants.js';
import { withLearnedHints } from '../../src/search/learned-hints.js';
import { createModelWiring } from '../../src/wiring/wire-models.js';

/**
 * Pins the offline policy's figures on D_opt of each bundled domain (split 5:2:3 by record, seed 0
 * as in the README and benchmarks/offline-g0-tc.ts; replayed tools): the mined G0's TC and calls as
 * the miner writes it (the policy reads the request and the tool schemas alone), and with the hints
 * the search learns first from the same records (search/learned-hints.ts). The filler's weights
 * (policies/offline/fill-weights.ts), tool selection, hint learning and the miner all move these
 * numbers; a change that moves one by accident fails here. An intended change updates the pin and
 * says why in its commit (the figures' history is in the commits of this file).
 */
const PINNED: Record<string, { records: number; tc: string; calls: number; hinted: { tc: string; calls: number } }> = {
  Finance: { records: 38, tc: '0.080', calls: 240, hinted: { tc: '0.453', calls: 223 } },
  Travel: { records: 56, tc: '0.154', calls: 467, hinted: { tc: '0.510', calls: 346 } },
  Weather: { records: 61, tc: '0.101', calls: 481, hinted: { tc: '0.423', calls: 375 } },
};

describe('offline G0 TC on D_opt of the bundled domains (seed 0)', () => {
  it('covers every bundled domain', () => {
    expect(Object.keys(PINNED).sort()).toEqual([...BUNDLED_DOMAINS].sort());
  });

  it.each(Object.entries(PINNED))(
    '%s',
    async (domain, pinned) => {
      const env = await prepareDomain(domain, { seed: 0, maxTest: 0, model: 'offline', wiring: createModelWiring() });
      try {
        const g0 = minedG0(env.split.opt, env.descriptors);
        const judge = createLexicalJudge();
        const run = async (w: typeof g0) => {
          const ev = await evaluateWorkflow(w, env.split.opt, {
            policy: env.policy.instance,
            tools: env.tools,
            judge,
            concurrency: 4,
            feedback: false,
          });
          return { tc: ev.tc.toFixed(3), calls: ev.perRecord.reduce((s, r) => s + r.trace.calls.length, 0) };
        };
        const hinted = await withLearnedHints(g0, env.split.opt, {
          policy: env.policy.instance,
          tools: env.tools,
          judge,
          descriptors: env.descriptors,
        });
        expect({ records: env.split.opt.length, ...(await run(g0)), hinted: await run(hinted) }).toEqual(pinned);
      } finally {
        await env.tools.close();
      }
    },
    120_000,
  );
});
