/**
 * How much of a domain's held-out calls the optimisation records cover (not a test; a property of
 * the records and the split, no approach runs). Per domain and seed, split as `flowscout bench`
 * splits it (a bundled domain by record, the paper's protocol; an imported folder by its groups: an
 * API chain, a task), it prints the share of D_val's and D_test's reference calls whose tool some
 * D_opt record calls. What the search learns per tool (hints, bindings, mined steps) can
 * only serve those calls; a call of a tool D_opt never calls is left to the tool's own schema and
 * description. Run with
 *
 *   npx tsx benchmarks/split-coverage.ts [--domains Finance,Travel,Weather,<folder>…] [--seeds 0,1,2]
 *
 * A domain is a bundled one's name or a folder `flowscout import` wrote (records.jsonl and
 * tools.config.json).
 */
import { basename } from 'node:path';
import { domainByNameOrFolder, prepareDomain } from '../src/bench/experiments/domain-env.js';
import type { TaskRecord } from '../src/records/schema.js';
import { createModelWiring } from '../src/wiring/wire-models.js';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}
const domains = arg('domains', 'Finance,Travel,Weather').split(',');
const seeds = arg('seeds', '0,1,2').split(',').map(Number);

/** Reference calls of `records`, and how many of them call a tool of `tools`. */
function covered(records: readonly TaskRecord[], tools: ReadonlySet<string>): { calls: number; covered: number } {
  let calls = 0;
  let hits = 0;
  for (const r of records)
    for (const c of r.calls) {
      calls++;
      if (tools.has(c.tool)) hits++;
    }
  return { calls, covered: hits };
}

const wiring = createModelWiring({ limits: { concurrency: 2 } });
const share = (x: { calls: number; covered: number }) =>
  `${x.covered}/${x.calls} = ${x.calls === 0 ? 'n/a' : (x.covered / x.calls).toFixed(2)}`;
console.log('reference calls whose tool D_opt calls (the split of `flowscout bench`, --max-test 50)');
console.log('domain       seed  D_val                D_test');
for (const domain of domains) {
  for (const seed of seeds) {
    const env = await prepareDomain(domainByNameOrFolder(domain), { seed, maxTest: 50, model: 'offline', wiring });
    try {
      const seen = new Set(env.split.opt.flatMap((r) => r.calls.map((c) => c.tool)));
      const val = covered(env.split.val, seen);
      const test = covered(env.split.test, seen);
      console.log(
        `${basename(domain).padEnd(12)} ${String(seed).padStart(4)}  ${share(val).padEnd(19)}  ${share(test)}`,
      );
    } finally {
      await env.tools.close();
    }
  }
}
