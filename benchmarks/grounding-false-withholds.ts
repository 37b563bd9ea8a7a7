/**
 * False withholds of grounding on real records (not a test): every record's calls, made by the
 * agent that solved it, are replayed in order through the pre-call check every runtime applies
 * (runtime/grounding-replay.ts), each with the record's request and the outputs of its earlier
 * calls; a call the check would withhold is a legitimate call withheld. Prints per data set the
 * calls checked, those withheld (by the check of key parts, or of every value for writes), and the
 * withheld arguments' values most often seen, so a rule that withholds too much shows what it is.
 * Run with
 *
 *   npx tsx benchmarks/grounding-false-withholds.ts                  # the bundled TRAJECT-Bench domains
 *   npx tsx benchmarks/grounding-false-withholds.ts --records a/records.jsonl --tools a/tools.config.json [--records …]
 *   npx tsx benchmarks/grounding-false-withholds.ts --effects         # with each import's effects.suggested.json applied
 *   npx tsx benchmarks/grounding-false-withholds.ts --show 20         # print up to 20 withheld calls per data set
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { runCli } from '../src/cli/program.js';
import type { CliIO } from '../src/cli/output.js';
import { BUNDLED_DOMAINS } from '../src/records/bundled.js';
import { readRecordsFile } from '../src/records/read-records.js';
import { checkRecordedCalls } from '../src/runtime/grounding-replay.js';
import { loadToolConfig } from '../src/tools/load-tool-config.js';

const argv = process.argv.slice(2);
const all = (name: string) => argv.flatMap((a, i) => (a === name && argv[i + 1] ? [argv[i + 1]!] : []));
const show = Number(all('--show')[0] ?? 0);
const withEffects = argv.includes('--effects');

const quiet: CliIO = { out: () => {}, err: () => {}, isTTY: false };
const dir = mkdtempSync(join(tmpdir(), 'flowscout-false-withholds-'));

async function sets(): Promise<Array<{ name: string; records: string; tools: string }>> {
  const records = all('--records');
  if (records.length > 0) {
    const tools = all('--tools');
    return records.map((r, i) => ({
      name: r,
      records: resolve(r),
      tools: resolve(tools[i] ?? join(dirname(r), 'tools.config.json')),
    }));
  }
  const out = [];
  for (const domain of BUNDLED_DOMAINS) {
    const folder = join(dir, domain);
    const status = await runCli(['import', 'traject', '--domain', domain, '--out', folder], quiet);
    if (status !== 0) throw new Error(`import of ${domain} failed (${status})`);
    out.push({
      name: `bundled ${domain}`,
      records: join(folder, 'records.jsonl'),
      tools: join(folder, 'tools.config.json'),
    });
  }
  return out;
}

/** The tool config with the import's suggested effects in its `effects` (written apart, in the temporary folder). */
function configWithEffects(tools: string): string {
  const suggested = join(dirname(tools), 'effects.suggested.json');
  if (!existsSync(suggested)) return tools;
  const config = JSON.parse(readFileSync(tools, 'utf8')) as { sources: Array<Record<string, unknown>> };
  const effects = JSON.parse(readFileSync(suggested, 'utf8')) as Record<string, unknown>;
  const sources = config.sources.map((s) =>
    Object.fromEntries(
      Object.entries(s).map(([k, v]) => [
        k,
        (k === 'records' || k === 'tools') && typeof v === 'string' ? resolve(dirname(tools), v) : v,
      ]),
    ),
  );
  const file = join(dir, `effects-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    file,
    JSON.stringify({ ...config, sources, effects: (effects as { effects?: unknown }).effects ?? effects }),
  );
  return file;
}

try {
  console.log('Reference calls replayed through the grounding check with their own request and earlier outputs.');
  console.log(
    '(key parts checked: reads and undeclared replayed calls; every value checked: writes to live or declared tools)',
  );
  console.log(
    'data set                                   records  calls  withheld  key parts checked  every value checked',
  );
  for (const set of await sets()) {
    const { records } = await readRecordsFile(set.records);
    const tools = await loadToolConfig(withEffects ? configWithEffects(set.tools) : set.tools);
    let calls = 0;
    let withheld = 0;
    let reads = 0;
    let writes = 0;
    const shown: string[] = [];
    const values = new Map<string, number>();
    for (const r of records) {
      const decisions = await checkRecordedCalls(r.query, r.calls, tools);
      for (const d of decisions) {
        calls++;
        if (!d.withheld) continue;
        withheld++;
        if (d.withheld.startsWith('not run: write')) writes++;
        else reads++;
        for (const m of d.withheld.matchAll(/\((".*?"|[^)]*)\)/g)) values.set(m[1]!, (values.get(m[1]!) ?? 0) + 1);
        if (shown.length < show) shown.push(`  ${r.id}: ${d.withheld.slice(0, 300)}`);
      }
    }
    await tools.close();
    const pct = (n: number) => `${n} (${calls ? ((100 * n) / calls).toFixed(1) : '0.0'}%)`;
    console.log(
      `${set.name.slice(-42).padEnd(42)} ${String(records.length).padStart(7)} ${String(calls).padStart(6)}  ${pct(withheld).padStart(8)}  ${pct(reads).padStart(17)}  ${pct(writes).padStart(19)}`,
    );
    const top = [...values].sort((a, b) => b[1] - a[1]).slice(0, 12);
    if (top.length > 0) console.log(`  most withheld values: ${top.map(([v, n]) => `${v} ×${n}`).join(', ')}`);
    for (const s of shown) console.log(s);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
