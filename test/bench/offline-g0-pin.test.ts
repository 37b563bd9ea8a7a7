import { describe, expect, it } from 'vitest';
import { prepareDomain } from '../../src/bench/experiments/domain-env.js';
import { evaluateWorkflow } from '../../src/evaluate/evaluate.js';
import { createLexicalJudge } from '../../src/metrics/lexical-judge.js';
import { BUNDLED_DOMAINS } from '../../src/records/bundled.js';
import { minedG0 } from '../../src/search/variants.js';
import { createModelWiring } from '../../src/wiring/wire-models.js';

/**
 * Pins the offline policy's figures: the mined G0's TC on D_opt of each bundled domain (split 5:2:3
 * by record, seed 0 as in the README and benchmarks/offline-g0-tc.ts; replayed tools), and the number
 * of calls it makes. The offline policy's tuned weights (policies/offline/fill-weights.ts, FILL_WEIGHTS),
 * its tool selection and the miner all move these numbers; a change that moves one by accident fails
 * here. An intended change updates the pin and says why in its commit.
 */
// Moved on purpose when G0's routes became families described by keywords (no past requests in the
// router) and the offline policy began deciding with its distilled cue model (no one record's values):
// it was 0.533 / 0.599 / 0.525 with a router over every variant and the records' values memorized.
// Then ids with a one-letter prefix (A-1012) became one value: Finance 0.424 -> 0.411, Travel 0.474 -> 0.479 (D_val unchanged, 0.332).
// Then a found value of a shape family the parameter never took stopped being a candidate: Finance
// 0.411 -> 0.442, Travel 0.479 (341 -> 340 calls), Weather 0.307 -> 0.311 (D_val G0 0.332 -> 0.353, seeds 0-2).
// Then a name found in the request is passed lower-cased where the records passed such names so: Weather 0.311 -> 0.318.
// Then an optional parameter is set at the rate the records set it when the request wrote one of its
// recurring values: Finance 0.442 -> 0.453, Travel 0.479 -> 0.485, Weather 0.318 -> 0.321.
// Then optional parameters became the recurring combination the records set nearest to the one-by-one
// judgements: Finance 0.453 -> 0.455, Travel 0.485 -> 0.518, Weather 0.321 -> 0.324.
// Then ordinals (10th) gave their number: Finance 0.455 -> 0.471.
// Then names are passed as hyphenated slugs where the records passed such names so: Weather 0.324 -> 0.357.
// Then a recorded value written in another form (arriving / arrival) counts as written: Travel 0.518 -> 0.541.
// Then a month the request names gives its number where the records passed named months so: Travel 0.541 -> 0.543.
// Then a value in the clause that asks for the call counted more (focus bonus 1.2 -> 2): Finance 0.471 -> 0.459
// (227 -> 228 calls; over seeds 0-2 Finance rose 0.504 -> 0.507), Travel 0.543 -> 0.547, Weather 0.357 -> 0.376.
// Then an optional parameter judged surely set that no found value reached took its usual value:
// Finance 0.459 -> 0.492, Travel 0.547 -> 0.548.
// Then mined positions preferred their runs' tools (weight 0.1 -> 0.3), a position listing several tools stopped
// being ranked by its task, and the offline router began taking the route whose tools answer the request's parts
// in order: Finance 0.492 -> 0.501 (228 -> 224 calls), Travel 0.548 -> 0.564 (341 -> 338), Weather 0.376 -> 0.387
// (375 -> 374); D_val (search-val-compare, seeds 0-2) G0 0.413 -> 0.427.
// Then whether the request names an optional parameter was read in the clause that asks for the call:
// Travel 0.564 -> 0.575 (338 -> 339 calls), Weather 0.387 (374 -> 375 calls).
// Then an optional parameter usually taken from the request was passed when the call's clause writes a value
// scoring strongly for it: Travel 0.575 -> 0.571 (339 -> 342 calls), Weather 0.387 -> 0.385 (D_val G0 0.433 -> 0.437).
// Then "strongly" became more than the value's shape, source and clause give (score 5 -> 5.5): Finance 0.501 -> 0.518,
// Travel 0.571 -> 0.574, Weather 0.385 -> 0.387 (D_val G0 0.437 -> 0.439).
// Then the offline router stopped routing by keywords (the alignment of the request's parts with a route's tools
// alone decides): Finance 0.518 -> 0.523 (224 -> 226 calls), Travel 0.574 -> 0.571 (342 -> 344), Weather
// 0.387 -> 0.392; D_val G0 0.439 -> 0.443.
// Then an optional parameter not judged surely set, usually taken from the request, took no value written outside
// the call's clause: Finance 0.523 -> 0.518; D_val G0 0.443 -> 0.447.
// Then a position that lists several tools stopped being ranked by the tools' overall use: Travel 0.571 -> 0.572,
// Weather 0.392 -> 0.390 (D_val G0 0.447 -> 0.448).
// Then a recorded amount of a unit the request spells out (15-minute, 1 hour) counted as written, and a coordinate
// pair whose first number lies beyond ±90 was read longitude first: Finance 0.518 -> 0.531, Weather 0.390 -> 0.399
// (D_val G0 0.448 -> 0.453).
// Then a parameter whose tool's records kept no recorded value the request writes took those of every tool's
// parameter of its name that it writes: Finance 0.531 -> 0.548, Weather 0.399 -> 0.404 (D_val G0 0.453 -> 0.457).
// Then a fragment that asks for nothing ("…, also in metric units.", the "year" of "next year") was joined to the
// clause before it instead of making a call of its own: Finance 0.548 -> 0.552 (226 -> 223 calls), Weather
// 0.404 -> 0.411 (375 -> 370 calls) (D_val G0 0.457 -> 0.461).
// Then a period before an opening parenthesis ("Caterpillar Inc. (CAT)") stopped ending a clause: Finance
// 0.552 -> 0.568 (223 -> 221 calls) (D_val G0 0.461 -> 0.463).
const PINNED: Record<string, { records: number; tc: string; calls: number }> = {
  Finance: { records: 38, tc: '0.568', calls: 221 },
  Travel: { records: 56, tc: '0.572', calls: 344 },
  Weather: { records: 61, tc: '0.411', calls: 370 },
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
        const ev = await evaluateWorkflow(g0, env.split.opt, {
          policy: env.policy.instance,
          tools: env.tools,
          judge: createLexicalJudge(),
          concurrency: 4,
          feedback: false,
        });
        expect({
          records: env.split.opt.length,
          tc: ev.tc.toFixed(3),
          calls: ev.perRecord.reduce((s, r) => s + r.trace.calls.length, 0),
        }).toEqual(pinned);
      } finally {
        await env.tools.close();
      }
    },
    120_000,
  );
});
