/**
 * Proves the harness on real data (docs/DESIGN.md, "Policies": the oracle "replays the reference calls of a
 * known record, to prove that the harness reaches TC = 1"): for every TRAJECT-Bench record whose calls all
 * succeeded, run `oracleWorkflowFor(record)` with the oracle policy over the replay tools built from
 * the domain's records, and count replay hits, misses and TC per domain.
 *
 *   npx tsx benchmarks/runtime-replay-oracle.ts            # bundled data (data/traject-bench)
 *   npx tsx benchmarks/runtime-replay-oracle.ts <dir>      # a TRAJECT-Bench public_data folder
 */
import { fileURLToPath } from 'node:url';
import { BUNDLED_DOMAINS } from '../src/records/bundled.js';
import { oracleReplayDomain } from '../test/support/oracle-replay.js';

async function main(): Promise<void> {
  const dir = process.argv[2];
  console.log(
    `oracle replay over TRAJECT-Bench (${dir ?? 'bundled data/traject-bench'}); policy: oracle replay (tests only)`,
  );
  console.log('domain    records  calls   hits  misses  withheld  TC');
  for (const domain of BUNDLED_DOMAINS) {
    const r = await oracleReplayDomain(domain, dir);
    console.log(
      `${r.domain.padEnd(9)} ${String(r.records).padStart(7)} ${String(r.calls).padStart(6)} ${String(r.hits).padStart(6)} ${String(r.misses).padStart(7)} ${String(r.withheld.length).padStart(9)}  ${r.tc.toFixed(3)}${r.imperfect.length ? `  (TC<1: ${r.imperfect.slice(0, 5).join(', ')})` : ''}`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
