/**
 * The development harness for the search's efficacy: on the validation split only (never D_test),
 * per domain and seed, the offline searches FlowScout (MCTS from the mined G0), NoMiner (MCTS from
 * the plain skeleton) and Beam (beam search from G0), their starts, and the ReAct and PM4Py-style
 * baselines, all measured once on D_val with the offline policy and the lexical judge. Not a test;
 * run with
 *
 *   npx tsx benchmarks/search-val-compare.ts --domains Travel --seeds 0,1,2 --iterations 12 --patience 4
 *
 * It prints TC / ES on D_val per approach, domain and seed, and the mean over seeds. D_val is what
 * the searches select on, so the searched approaches' figures here are optimistic; the comparison
 * between them (same bias for each) and against the unsearched baselines is what it is for.
 * `--trace <approach>` also prints, per D_val record, the reference calls against the calls made.
 */
import { createPm4pyBaseline } from '../src/bench/baselines/pm4py-style.js';
import { createOfflineReact } from '../src/bench/baselines/react/react-offline.js';
import { prepareDomain } from '../src/bench/experiments/domain-env.js';
import { measureApproach, type Subject } from '../src/bench/experiments/measure.js';
import { runVariant, type Variant } from '../src/bench/experiments/search-variants.js';
import { createLexicalJudge } from '../src/metrics/lexical-judge.js';
import { evaluateWorkflow } from '../src/evaluate/evaluate.js';
import { createModelWiring } from '../src/wiring/wire-models.js';
import { createRuleBasedOptimizer } from '../src/search/optimizers/rule-based.js';
import { minedG0 } from '../src/search/variants.js';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}

const domains = arg('domains', 'Finance,Travel,Weather').split(',');
const seeds = arg('seeds', '0').split(',').map(Number);
const iterations = Number(arg('iterations', '12'));
const patience = Number(arg('patience', '4'));
const variants = arg('variants', 'flowscout,nominer,beam')
  .split(',')
  .filter((v) => v !== 'none') as Variant[];
const trace = new Set(arg('trace', '').split(',').filter(Boolean));

const judge = createLexicalJudge();
const optimizer = createRuleBasedOptimizer();
const wiring = createModelWiring({ limits: { concurrency: 2 } });
const table = new Map<string, Map<string, Array<{ tc: number; es: number }>>>();
const put = (domain: string, id: string, tc: number, es: number) => {
  const d = table.get(domain) ?? new Map();
  table.set(domain, d);
  const list = d.get(id) ?? [];
  d.set(id, list);
  list.push({ tc, es });
};

for (const domain of domains) {
  for (const seed of seeds) {
    const env = await prepareDomain(domain, { seed, maxTest: 0, model: 'offline', wiring });
    try {
      const subjects: Subject[] = [];
      for (const v of variants) {
        const run = await runVariant(v, env, { seed, iterations, patience, concurrency: 2, judge, optimizer });
        if (v === 'flowscout' || v === 'beam')
          subjects.push({
            id: v === 'flowscout' ? 'g0' : 'g0(beam)',
            label: 'G0',
            tcDefined: true,
            kind: 'workflow',
            workflow: run.result.root.workflow!,
          });
        if (v === 'nominer')
          subjects.push({
            id: 'plain',
            label: 'plain',
            tcDefined: true,
            kind: 'workflow',
            workflow: run.result.root.workflow!,
          });
        subjects.push({ id: v, label: v, tcDefined: true, kind: 'workflow', workflow: run.result.best.workflow! });
        console.log(
          `[${domain} s${seed}] ${v}: best ${run.summary.best} val ${run.summary.bestVal?.toFixed(3)} (start ${run.summary.g0Val?.toFixed(3)}) · ${run.summary.bestSummary.slice(0, 100)}`,
        );
        if (trace.has(v)) {
          const path: string[] = [];
          for (let n = run.result.tree.get(run.result.best.id); n.parent !== null; n = run.result.tree.get(n.parent))
            path.unshift(n.summary ?? n.id);
          console.log(`  path: ${path.join(' → ')}`);
        }
      }
      if (variants.length === 0)
        subjects.push({
          id: 'g0',
          label: 'G0',
          tcDefined: true,
          kind: 'workflow',
          workflow: minedG0(env.split.opt, env.descriptors),
        });
      subjects.push({
        id: 'react',
        label: 'ReAct',
        tcDefined: true,
        kind: 'agent',
        agent: createOfflineReact({ tools: env.tools, policy: env.policy.instance }),
      });
      subjects.push({
        id: 'pm4py',
        label: 'PM4Py',
        tcDefined: true,
        kind: 'agent',
        agent: createPm4pyBaseline({
          tree: env.tree,
          opt: env.split.opt,
          tools: env.tools,
          policy: env.policy.instance,
        }),
      });
      for (const s of subjects.filter((x) => x.id !== 'g0(beam)')) {
        const a = await measureApproach(s, env.split.val, {
          policy: env.policy.instance,
          tools: env.tools,
          judge,
          runs: 1,
          concurrency: 2,
        });
        put(domain, s.id, a.tc ?? 0, a.es);
        if (trace.has(s.id) && s.kind === 'workflow') {
          const ev = await evaluateWorkflow(s.workflow, env.split.val, {
            policy: env.policy.instance,
            tools: env.tools,
            judge,
            concurrency: 2,
            feedback: false,
          });
          for (const r of ev.perRecord) {
            const rec = env.split.val.find((x) => x.id === r.id)!;
            console.log(`--- ${s.id} ${r.id} TC ${r.tc.toFixed(2)} :: ${rec.query}`);
            console.log(`  ref:  ${rec.calls.map((c) => `${c.tool}${JSON.stringify(c.args)}`).join(' | ')}`);
            console.log(
              `  made: ${r.trace.calls.map((c: { tool: string; args: unknown; status: string }) => `${c.tool}${JSON.stringify(c.args)}${c.status === 'error' ? '!' : ''}`).join(' | ')}`,
            );
          }
        }
      }
    } finally {
      await env.tools.close();
    }
  }
}

const ids = ['flowscout', 'g0', 'nominer', 'plain', 'beam', 'react', 'pm4py'];
console.log(
  `\nD_val, offline, J=${iterations} P=${patience}, seeds ${seeds.join(',')}: TC / ES, mean over seeds (per seed TC)`,
);
for (const [domain, d] of table) {
  console.log(`${domain}:`);
  for (const id of ids) {
    const list = d.get(id);
    if (!list) continue;
    const m = (f: (x: { tc: number; es: number }) => number) => list.reduce((s, x) => s + f(x), 0) / list.length;
    console.log(
      `  ${id.padEnd(10)} ${m((x) => x.tc).toFixed(3)} / ${m((x) => x.es).toFixed(3)}   (${list.map((x) => x.tc.toFixed(3)).join(' ')})`,
    );
  }
}
const avg = new Map<string, number[]>();
for (const d of table.values())
  for (const [id, list] of d) avg.set(id, [...(avg.get(id) ?? []), list.reduce((s, x) => s + x.tc, 0) / list.length]);
console.log(
  `average TC over domains: ${ids
    .filter((id) => avg.has(id))
    .map((id) => `${id} ${(avg.get(id)!.reduce((a, b) => a + b, 0) / avg.get(id)!.length).toFixed(3)}`)
    .join(' · ')}`,
);
