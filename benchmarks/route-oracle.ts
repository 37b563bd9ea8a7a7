/**
 * What G0's router could give at most, on D_val (not a test; offline figures only). For each seed
 * it mines G0 from D_opt, then runs D_val with the router's answer fixed: every request to the
 * skeleton (`other`), every request to each route in turn, and per request the route that scored
 * best — which needs the reference, so it is an upper bound on routing, not something a router can
 * do. The offline router's own choice is printed beside them. D_test is never read.
 *
 *   npx tsx benchmarks/route-oracle.ts --seeds 0,1,2                       # the bundled domains
 *   npx tsx benchmarks/route-oracle.ts --seeds 0,1,2 --records retail/records.jsonl --tools retail/tools.config.json
 */
import { prepareDomain } from '../src/bench/experiments/domain-env.js';
import { evaluateWorkflow } from '../src/evaluate/evaluate.js';
import type { LlmNode } from '../src/graph/schema.js';
import { createLexicalJudge } from '../src/metrics/lexical-judge.js';
import { OTHER_ROUTE, ROUTE_FIELD } from '../src/mining/to-workflow/routes.js';
import type { ExecutionPolicy } from '../src/policies/types.js';
import { BUNDLED_DOMAINS } from '../src/records/bundled.js';
import { minedG0 } from '../src/search/variants.js';
import { createModelWiring } from '../src/wiring/wire-models.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const seeds = (arg('--seeds') ?? '0').split(',').map(Number);
const own = arg('--records');
const domains = own
  ? [{ name: own, records: own, tools: arg('--tools') ?? own.replace(/records\.jsonl$/, 'tools.config.json') }]
  : BUNDLED_DOMAINS;
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

console.log('D_val TC of G0 with its router answer fixed (offline policy, no LLM; split 5:2:3)');
for (const seed of seeds) {
  for (const domain of domains) {
    const env = await prepareDomain(domain, { seed, maxTest: 0, model: 'offline', wiring: createModelWiring() });
    const judge = createLexicalJudge();
    const g0 = minedG0(env.split.opt, env.descriptors);
    const router = g0.nodes.find((n): n is LlmNode => n.kind === 'llm' && n.id === 'route');
    const name = typeof domain === 'string' ? domain : 'records';
    if (!router?.choices) {
      console.log(`${name} seed ${seed}: G0 has no router`);
      await env.tools.close();
      continue;
    }
    const base = env.policy.instance;
    const run = async (fixed?: string) => {
      const policy: ExecutionPolicy =
        fixed === undefined
          ? base
          : {
              ...base,
              runLlmNode: (req) =>
                req.node.id === router.id
                  ? Promise.resolve({ output: { [ROUTE_FIELD]: fixed }, model: 'offline' })
                  : base.runLlmNode(req),
            };
      const ev = await evaluateWorkflow(g0, env.split.val, {
        policy,
        tools: env.tools,
        judge,
        concurrency: 2,
        feedback: false,
      });
      return ev.perRecord.map((r) => r.tc);
    };
    const values = [...router.choices.options.map((o) => o.value), OTHER_ROUTE];
    const per = new Map<string, number[]>();
    for (const v of values) per.set(v, await run(v));
    const own = await run();
    const oracle = env.split.val.map((_, i) => Math.max(...values.map((v) => per.get(v)![i]!)));
    const routes = values
      .filter((v) => v !== OTHER_ROUTE)
      .map((v) => `${v} ${mean(per.get(v)!).toFixed(3)}`)
      .join(', ');
    console.log(
      `${name} seed ${seed}: offline router ${mean(own).toFixed(3)}, skeleton (${OTHER_ROUTE}) ${mean(per.get(OTHER_ROUTE)!).toFixed(3)}, best route per request (upper bound) ${mean(oracle).toFixed(3)}; every request to ${routes}`,
    );
    await env.tools.close();
  }
}
