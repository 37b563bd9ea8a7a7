/**
 * Racing against running every candidate on all of D_opt and D_val: the same offline search (mined
 * G0, rule-based optimizer, offline policy, lexical judge, J = 30, P = 5) on each bundled domain
 * and seed, with racing (the default) and with `--no-racing`. Prints, per domain and seed, the best
 * candidate's D_val score and the workflow executions (record runs, D_test excluded: the searches
 * run here have no D_test) of both, whether both picked the same best candidate (the same workflow),
 * and the means. Run with
 *
 *   npx tsx benchmarks/search-racing.ts --seeds 0,1,2 [--domains Finance,Travel,Weather] [--iterations 30]
 *
 * Offline figures only (no model anywhere).
 */
import { prepareDomain } from '../src/bench/experiments/domain-env.js';
import { workflowHash } from '../src/graph/hash.js';
import { createLexicalJudge } from '../src/metrics/lexical-judge.js';
import { BUNDLED_DOMAINS } from '../src/records/bundled.js';
import { createRuleBasedOptimizer } from '../src/search/optimizers/rule-based.js';
import { runSearch } from '../src/search/run-search.js';
import { DEFAULT_SETTINGS } from '../src/search/search-context.js';
import { minedG0 } from '../src/search/variants.js';
import { createModelWiring } from '../src/wiring/wire-models.js';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}

const domains = arg('domains', BUNDLED_DOMAINS.join(',')).split(',');
const seeds = arg('seeds', '0,1,2').split(',').map(Number);
const iterations = Number(arg('iterations', String(DEFAULT_SETTINGS.iterations)));
const patience = Number(arg('patience', String(DEFAULT_SETTINGS.patience)));
const wiring = createModelWiring({ limits: { concurrency: 2 } });
const judge = createLexicalJudge();
const optimizer = createRuleBasedOptimizer();

interface Outcome {
  val: number;
  executions: number;
  hash: string;
  candidates: number;
}
const rows: Array<{ domain: string; seed: number; racing: Outcome; full: Outcome }> = [];
console.log(`offline search (offline policy, lexical judge, rule-based optimizer), J=${iterations}, P=${patience}`);
console.log(' domain    seed   best S_val: racing   full    diff   executions: racing   full  share   same best');
for (const domain of domains) {
  for (const seed of seeds) {
    const env = await prepareDomain(domain, { seed, maxTest: 0, model: 'offline', wiring });
    const run = async (racing: boolean): Promise<Outcome> => {
      const result = await runSearch({
        settings: { ...DEFAULT_SETTINGS, seed, iterations, patience, concurrency: 2, racing },
        splits: { opt: env.split.opt, val: env.split.val, test: [] },
        g0: minedG0(env.split.opt, env.descriptors),
        startLabel: 'mined from D_opt',
        policy: env.policy.instance,
        tools: env.tools,
        judge,
        optimizer,
      });
      return {
        val: result.best.valScore ?? 0,
        executions: Number(result.usage.executions ?? 0),
        hash: workflowHash(result.best.workflow!),
        candidates: result.tree.size,
      };
    };
    const racing = await run(true);
    const full = await run(false);
    rows.push({ domain, seed, racing, full });
    console.log(
      ` ${domain.padEnd(9)} ${String(seed).padStart(4)}   ${racing.val.toFixed(3).padStart(17)}  ${full.val.toFixed(3)}  ${(racing.val - full.val >= 0 ? '+' : '') + (racing.val - full.val).toFixed(3)}   ${String(racing.executions).padStart(18)}  ${String(full.executions).padStart(5)}  ${(racing.executions / full.executions).toFixed(2).padStart(5)}   ${racing.hash === full.hash ? 'yes' : 'no'}`,
    );
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const same = rows.filter((r) => r.racing.hash === r.full.hash).length;
const exRacing = rows.reduce((n, r) => n + r.racing.executions, 0);
const exFull = rows.reduce((n, r) => n + r.full.executions, 0);
console.log(
  `mean best D_val score: racing ${mean(rows.map((r) => r.racing.val)).toFixed(4)}, without racing ${mean(rows.map((r) => r.full.val)).toFixed(4)} (difference ${(mean(rows.map((r) => r.racing.val)) - mean(rows.map((r) => r.full.val))).toFixed(4)})`,
);
console.log(
  `workflow executions: racing ${exRacing}, without racing ${exFull} (${((100 * exRacing) / exFull).toFixed(1)}%)`,
);
console.log(`same best candidate on ${same} of ${rows.length} domain-seed searches`);
