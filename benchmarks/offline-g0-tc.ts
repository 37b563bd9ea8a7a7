/**
 * Offline TC and ES of the mined G0 on D_opt and D_val of each bundled TRAJECT-Bench domain, and of
 * G0 with the hints the search learns first from D_opt (search/learned-hints.ts): split 5:2:3 by
 * record, the offline policy (it reads the request, the tools and the workflow, never the records),
 * replay of the recorded responses, the offline lexical judge. D_test is never run, so this is the
 * figure to decide a change to the offline policy or the hints on. Also counts the tool calls the
 * policy refused to make because a required argument had no value. Not a test (offline figures, no
 * LLM):
 *
 *   npx tsx benchmarks/offline-g0-tc.ts                 # seed 0
 *   npx tsx benchmarks/offline-g0-tc.ts --seeds 0,1,2   # and the mean D_val TC over the seeds
 *   npx tsx benchmarks/offline-g0-tc.ts --seeds 0,1,2 --merged     # G0 with its choices merged into steps
 *   npx tsx benchmarks/offline-g0-tc.ts --seeds 0,1,2 --plain      # NoMiner's start instead: one generic repeating step
 *   npx tsx benchmarks/offline-g0-tc.ts --seeds 0,1,2 --records retail/records.jsonl --tools retail/tools.config.json
 *                                                                # your own records (split by group when they have groups)
 */
import { prepareDomain } from '../src/bench/experiments/domain-env.js';
import { evaluateWorkflow } from '../src/evaluate/evaluate.js';
import { createLexicalJudge } from '../src/metrics/lexical-judge.js';
import { BUNDLED_DOMAINS } from '../src/records/bundled.js';
import { withLearnedHints } from '../src/search/learned-hints.js';
import { minedG0, plainSkeleton } from '../src/search/variants.js';
import { createModelWiring } from '../src/wiring/wire-models.js';
import type { Workflow } from '../src/graph/schema.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const seeds = (arg('--seeds') ?? arg('--seed') ?? '0').split(',').map(Number);
/** `--merged`: G0 merges the tree's choices between step sequences into steps instead of keeping them as branches (docs/DESIGN.md, "Mining"). */
const branches = !process.argv.includes('--merged');
/** `--plain`: instead of G0, NoMiner's start with its one tool step repeating (`calls: 'many'`), as its search makes it first. */
const plain = process.argv.includes('--plain');
const start = plain ? 'the plain start' : 'G0';
/** The plain start with its tool step repeating. */
const repeating = (w: Workflow): Workflow => ({
  ...w,
  nodes: w.nodes.map((n) => (n.kind === 'tool' ? { ...n, calls: 'many' as const } : n)),
});
/** `--records <file> --tools <config>`: one domain of your own instead of the bundled ones. */
const own = arg('--records');
const domains = own
  ? [{ name: own, records: own, tools: arg('--tools') ?? own.replace(/records\.jsonl$/, 'tools.config.json') }]
  : BUNDLED_DOMAINS;

console.log(
  `${start} and ${start} with the hints learned on D_opt, offline policy (no LLM), split 5:2:3, seeds ${seeds.join(', ')}; D_test not run.`,
);
console.log('domain    seed  workflow  split  records   TC     ES    calls  failed  "no value"');
const valTc: Record<'G0' | 'hinted', number[]> = { G0: [], hinted: [] };
for (const seed of seeds) {
  for (const domain of domains) {
    const env = await prepareDomain(domain, { seed, maxTest: 0, model: 'offline', wiring: createModelWiring() });
    const judge = createLexicalJudge();
    const g0 = plain
      ? repeating(plainSkeleton(env.descriptors))
      : minedG0(env.split.opt, env.descriptors, { branches });
    const hinted = await withLearnedHints(g0, env.split.opt, {
      policy: env.policy.instance,
      tools: env.tools,
      judge,
      descriptors: env.descriptors,
    });
    for (const [label, workflow] of [
      ['G0', g0],
      ['hinted', hinted],
    ] as const) {
      for (const [name, records] of [
        ['D_opt', env.split.opt],
        ['D_val', env.split.val],
      ] as const) {
        const ev = await evaluateWorkflow(workflow, records, {
          policy: env.policy.instance,
          tools: env.tools,
          judge,
          concurrency: 4,
          feedback: false,
        });
        if (name === 'D_val') valTc[label].push(ev.tc);
        const calls = ev.perRecord.reduce((s, r) => s + r.trace.calls.length, 0);
        const failed = ev.perRecord.reduce((s, r) => s + r.trace.calls.filter((c) => c.status === 'error').length, 0);
        const noValue = ev.perRecord.reduce(
          (s, r) => s + r.trace.observations.filter((o) => o.error?.includes('no value for')).length,
          0,
        );
        console.log(
          `${(typeof domain === 'string' ? domain : 'records').padEnd(9)} ${String(seed).padStart(4)}  ${label.padEnd(8)}  ${name}  ${String(records.length).padStart(7)}  ${ev.tc.toFixed(3)}  ${ev.es.toFixed(3)}  ${String(calls).padStart(5)}  ${String(failed).padStart(6)}  ${String(noValue).padStart(6)}`,
        );
      }
    }
    await env.tools.close();
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `mean D_val TC over ${valTc.G0.length} domain-seeds (offline): ${start} ${mean(valTc.G0).toFixed(3)}, ${start} with learned hints ${mean(valTc.hinted).toFixed(3)}`,
);
