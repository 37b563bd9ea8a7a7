/**
 * How much of a domain's held-out calls the optimisation records cover (not a test; a property of
 * the records and the split, no approach runs). Per domain and seed, split as `flowscout bench`
 * splits it (a bundled domain by record, the paper's protocol; an imported folder by its groups: an
 * API chain, a task), it prints the share of D_val's reference calls, and of the measured D_test
 * queries' (`--max-test 50`, as the bench measures them), whose tool some D_opt record calls
 * (`records/split.ts` `toolCoverage`; each bench report says the same for its test queries). What
 * the search learns per tool (hints, bindings, mined steps) can only serve those calls; a call of a
 * tool D_opt never calls is left to the tool's own schema and description. Run with
 *
 *   npx tsx benchmarks/split-coverage.ts [--domains Finance,Travel,Weather,<folder>…] [--seeds 0,1,2]
 *
 * A domain is a bundled one's name or a folder `flowscout import` wrote (records.jsonl and
 * tools.config.json).
 */
import { basename } from 'node:path';
import { domainByNameOrFolder, prepareDomain } from '../src/bench/experiments/domain-env.js';
import { toolCoverage } from '../src/records/split.js';
import { createModelWiring } from '../src/wiring/wire-models.js';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}
const domains = arg('domains', 'Finance,Travel,Weather').split(',');
const seeds = arg('seeds', '0,1,2').split(',').map(Number);

const wiring = createModelWiring({ limits: { concurrency: 2 } });
const share = (x: { calls: number; seen: number }) =>
  `${x.seen}/${x.calls} = ${x.calls === 0 ? 'n/a' : (x.seen / x.calls).toFixed(2)}`;
console.log('reference calls whose tool D_opt calls (the split of `flowscout bench`, --max-test 50)');
console.log('domain       seed  D_val                D_test (the queries measured)');
for (const domain of domains) {
  for (const seed of seeds) {
    const env = await prepareDomain(domainByNameOrFolder(domain), { seed, maxTest: 50, model: 'offline', wiring });
    try {
      const val = toolCoverage(env.split.opt, env.split.val);
      const test = toolCoverage(env.split.opt, env.test);
      console.log(
        `${basename(domain).padEnd(12)} ${String(seed).padStart(4)}  ${share(val).padEnd(19)}  ${share(test)}`,
      );
    } finally {
      await env.tools.close();
    }
  }
}
