/**
 * The figure to decide a change on: D_val (never D_test) over many domains and seeds, offline (the
 * offline policy, the lexical judge, the rule-based optimizer; no LLM). Per domain and seed it
 * measures on D_val the approaches asked for, and per argument source (request / upstream output /
 * neither; evaluate/argument-sources.ts) how many reference arguments were passed right. Not a test.
 *
 *   npx tsx benchmarks/decide-val.ts --domains Finance,Travel,Weather,imports/Mapping,imports/Gaming \
 *       --seeds 0,1,2 --approaches g0,learned,search,nominer
 *
 * A domain is a bundled TRAJECT-Bench name (split by record, as the bundled benchmark does) or a
 * folder `flowscout import` wrote (records.jsonl and tools.config.json; split by group when the
 * records have groups). Approaches: `g0` (the mined start), `learned` (G0 with what the search learns
 * first from D_opt: search/learned-hints.ts), `plain` (the one repeating step with the same),
 * `search` (FlowScout: MCTS from G0, J and P below), `nominer` (MCTS from the one step), `react`.
 */
import { createOfflineReact } from '../src/bench/baselines/react/react-offline.js';
import { domainByNameOrFolder, prepareDomain } from '../src/bench/experiments/domain-env.js';
import { measureApproach } from '../src/bench/experiments/measure.js';
import { runVariant } from '../src/bench/experiments/search-variants.js';
import { evaluateWorkflow } from '../src/evaluate/evaluate.js';
import { addSources, emptySources, type ArgumentSources } from '../src/dataflow/argument-sources.js';
import { createLexicalJudge } from '../src/metrics/lexical-judge.js';
import { BUNDLED_DOMAINS } from '../src/records/bundled.js';
import { createRuleBasedOptimizer } from '../src/search/optimizers/rule-based.js';
import { withLearnedHints } from '../src/search/learned-hints.js';
import { minedG0, plainSkeleton } from '../src/search/variants.js';
import { createModelWiring } from '../src/wiring/wire-models.js';
import type { Workflow } from '../src/graph/schema.js';
import { applyEditPlanOrThrow } from '../src/graph/edits/apply-edit-plan.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const domains = arg('domains', BUNDLED_DOMAINS.join(',')).split(',');
const seeds = arg('seeds', '0,1,2').split(',').map(Number);
const approaches = arg('approaches', 'g0,learned').split(',');
/** `--verbose`: also the share of arguments whose call's tool was called, in parentheses. */
const verbose = process.argv.includes('--verbose');
const iterations = Number(arg('iterations', '30'));
const patience = Number(arg('patience', '5'));

const wiring = createModelWiring({ limits: { concurrency: 4 } });
const judge = createLexicalJudge();
const optimizer = createRuleBasedOptimizer();
const tc = new Map<string, Map<string, number[]>>();
const sources = new Map<string, ArgumentSources>();
const bindings = new Map<string, number>();
const put = (domain: string, approach: string, v: number) => {
  const d = tc.get(domain) ?? new Map<string, number[]>();
  tc.set(domain, d);
  d.set(approach, [...(d.get(approach) ?? []), v]);
};
const countBindings = (w: Workflow) =>
  w.nodes.reduce(
    (n, x) => n + (x.kind === 'tool' ? (x.bind ?? []).filter((b) => b.source.from === 'output').length : 0),
    0,
  );

console.log(`D_val, offline (no LLM), seeds ${seeds.join(',')}, J=${iterations} P=${patience}; D_test not run.`);
for (const name of domains) {
  const domain = domainByNameOrFolder(name);
  const label = typeof domain === 'string' ? domain : domain.name;
  for (const seed of seeds) {
    const env = await prepareDomain(domain, { seed, maxTest: 0, model: 'offline', wiring });
    try {
      const measure = async (approach: string, workflow: Workflow) => {
        const ev = await evaluateWorkflow(workflow, env.split.val, {
          policy: env.policy.instance,
          tools: env.tools,
          judge,
          concurrency: 4,
          feedback: false,
        });
        put(label, approach, ev.tc);
        const key = `${label}\u0000${approach}`;
        sources.set(key, addSources(sources.get(key) ?? emptySources(), ev.argumentSources ?? emptySources()));
        bindings.set(key, (bindings.get(key) ?? 0) + countBindings(workflow));
      };
      const g0 = minedG0(env.split.opt, env.descriptors, { source: label });
      const learn = (w: Workflow) =>
        withLearnedHints(w, env.split.opt, {
          policy: env.policy.instance,
          tools: env.tools,
          judge,
          descriptors: env.descriptors,
        });
      // G0 with every binding the feedback proposes on D_opt set at once (what the search may keep at most).
      const bindAll = async (w: Workflow) => {
        const ev = await evaluateWorkflow(w, env.split.opt, {
          policy: env.policy.instance,
          tools: env.tools,
          judge,
          concurrency: 4,
        });
        const edits = (ev.feedback?.patterns ?? []).flatMap((p) =>
          p.kind === 'bindable' && p.source
            ? [{ op: 'set_binding' as const, id: p.node, tool: p.tool, param: p.param, source: p.source }]
            : [],
        );
        return edits.length ? applyEditPlanOrThrow(w, { edits }, { tools: env.descriptors }) : w;
      };
      for (const a of approaches) {
        if (a === 'g0') await measure(a, g0);
        else if (a === 'learned') await measure(a, await learn(g0));
        else if (a === 'bound') await measure(a, await bindAll(await learn(g0)));
        else if (a === 'plain') {
          const plain = plainSkeleton(env.descriptors);
          await measure(
            a,
            await learn({
              ...plain,
              nodes: plain.nodes.map((n) => (n.kind === 'tool' ? { ...n, calls: 'many' as const } : n)),
            }),
          );
        } else if (a === 'search' || a === 'nominer') {
          const run = await runVariant(a === 'search' ? 'flowscout' : 'nominer', env, {
            seed,
            iterations,
            patience,
            concurrency: 4,
            judge,
            optimizer,
          });
          await measure(a, run.result.best.workflow!);
        } else if (a === 'react') {
          const r = await measureApproach(
            {
              id: 'react',
              label: 'ReAct',
              tcDefined: true,
              kind: 'agent',
              agent: createOfflineReact({ tools: env.tools, policy: env.policy.instance }),
            },
            env.split.val,
            { policy: env.policy.instance, tools: env.tools, judge, runs: 1, concurrency: 4 },
          );
          put(label, a, r.tc ?? 0);
        } else throw new Error(`unknown approach '${a}'`);
      }
      console.log(
        `${label.padEnd(11)} s${seed}  ${approaches.map((a) => `${a} ${tc.get(label)!.get(a)!.at(-1)!.toFixed(3)}`).join('  ')}`,
      );
    } finally {
      await env.tools.close();
    }
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const pct = (c: { args: number; right: number; called: number }) =>
  c.args
    ? `${((100 * c.right) / c.args).toFixed(0)}%${verbose ? `(${((100 * c.called) / c.args).toFixed(0)}%)` : ''}`
    : '-';
console.log('\nmean D_val TC over seeds (offline); argument values right: request / upstream / neither (of args)');
const groups: Record<string, string[]> = {};
for (const [domain, d] of tc) {
  const bundled = (BUNDLED_DOMAINS as readonly string[]).includes(domain);
  const group = bundled ? 'bundled' : /retail|airline/i.test(domain) ? 'service' : 'unseen';
  (groups[group] ??= []).push(domain);
  console.log(
    `${domain.padEnd(11)} ${[...d]
      .map(([a, xs]) => {
        const s = sources.get(`${domain}\u0000${a}`);
        const b = bindings.get(`${domain}\u0000${a}`) ?? 0;
        return `${a} ${mean(xs).toFixed(3)}${s ? ` [${pct(s.request)}/${pct(s.upstream)}/${pct(s.neither)} of ${s.request.args}/${s.upstream.args}/${s.neither.args}]` : ''}${b ? ` ${b} out-bindings` : ''}`;
      })
      .join('  ')}`,
  );
}
for (const [group, ds] of Object.entries(groups)) {
  const line = approaches
    .map((a) => {
      const pooled = emptySources();
      for (const d of ds) addSources(pooled, sources.get(`${d}\u0000${a}`) ?? emptySources());
      return `${a} ${mean(ds.map((d) => mean(tc.get(d)!.get(a) ?? []))).toFixed(3)} [${pct(pooled.request)}/${pct(pooled.upstream)}]`;
    })
    .join('  ');
  console.log(`mean ${group} (${ds.join(', ')}): ${line}`);
}
