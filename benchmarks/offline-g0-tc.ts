/**
 * Offline TC and ES of the mined G0 on D_opt and D_val of each bundled TRAJECT-Bench domain (split
 * 5:2:3 by record, seed 0, the offline policy learning from D_opt, replay of the recorded
 * responses, the offline lexical judge). D_test is not run. Also counts the tool calls the policy
 * refused to make because a required argument had no value, and the node errors they gave.
 * Not a test; run with `npx tsx bench/offline-g0-tc.ts [--seed N]`.
 */
import { prepareDomain } from '../src/bench/experiments/domain-env.js';
import { createModelWiring } from '../src/wiring/wire-models.js';
import { createLexicalJudge } from '../src/metrics/lexical-judge.js';
import { BUNDLED_DOMAINS } from '../src/records/bundled.js';
import { evaluateWorkflow } from '../src/evaluate/evaluate.js';
import { minedG0 } from '../src/search/variants.js';

const seedArg = process.argv.indexOf('--seed');
const seed = seedArg > 0 ? Number(process.argv[seedArg + 1]) : 0;

console.log(`G0 with the offline policy (no LLM), split 5:2:3 seed ${seed}; D_test not run.`);
console.log('domain    split  records   TC     ES    calls  "no value" nodes');
for (const domain of BUNDLED_DOMAINS) {
  const env = await prepareDomain(domain, { seed, maxTest: 0, model: 'offline', wiring: createModelWiring() });
  const g0 = minedG0(env.split.opt, env.descriptors);
  for (const [name, records] of [
    ['D_opt', env.split.opt],
    ['D_val', env.split.val],
  ] as const) {
    const ev = await evaluateWorkflow(g0, records, {
      policy: env.policy.instance,
      tools: env.tools,
      judge: createLexicalJudge(),
      concurrency: 4,
      feedback: false,
    });
    const calls = ev.perRecord.reduce((s, r) => s + r.trace.calls.length, 0);
    const noValue = ev.perRecord.reduce(
      (s, r) => s + r.trace.observations.filter((o) => o.error?.includes('no value for')).length,
      0,
    );
    console.log(
      `${domain.padEnd(9)} ${name}  ${String(records.length).padStart(7)}  ${ev.tc.toFixed(3)}  ${ev.es.toFixed(3)}  ${String(calls).padStart(5)}  ${String(noValue).padStart(6)}`,
    );
  }
  await env.tools.close();
}
