/**
 * What a search on a bundled domain learns into its best workflow, and how large the file gets
 * (not a test; offline figures only: offline policy, lexical judge, rule-based optimizer). Per
 * seed it imports the bundled records, runs `flowscout search` as a user would, and prints the
 * best workflow's JSON size, its learned bindings and tool hints (and the parameter hints inside
 * them) on tool nodes, and G0's size for comparison. Run with
 *
 *   npx tsx benchmarks/learned-workflow-size.ts [--domain Travel] [--seeds 0,1,2] [--iterations 10]
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Workflow } from '../src/graph/schema.js';
import { runCli } from '../src/cli/program.js';
import type { CliIO } from '../src/cli/output.js';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
}
const domain = arg('domain', 'Travel');
const seeds = arg('seeds', '0,1,2').split(',').map(Number);
const iterations = arg('iterations', '10');

const quiet: CliIO = { out: () => {}, err: () => {}, isTTY: false };
async function cli(argv: string[]): Promise<void> {
  const errors: string[] = [];
  const status = await runCli(argv, { ...quiet, err: (t) => void errors.push(t) });
  if (status !== 0) throw new Error(`flowscout ${argv.join(' ')} exited ${status}: ${errors.join('\n')}`);
}

/** Learned bindings and tool hints on the tool nodes, and the parameter hints inside those. */
function learned(w: Workflow): { bindings: number; hints: number; paramHints: number } {
  let bindings = 0;
  let hints = 0;
  let paramHints = 0;
  for (const n of w.nodes) {
    if (n.kind !== 'tool') continue;
    bindings += n.bind?.length ?? 0;
    hints += n.hints?.length ?? 0;
    for (const h of n.hints ?? []) paramHints += Object.keys(h.params ?? {}).length;
  }
  return { bindings, hints, paramHints };
}

const dir = mkdtempSync(join(tmpdir(), 'flowscout-learned-size-'));
try {
  const data = join(dir, 'data');
  await cli(['import', 'traject', '--domain', domain, '--out', data]);
  console.log(
    `${domain}: flowscout search --iterations ${iterations} (offline policy, lexical judge, rule-based optimizer — offline figures, no LLM)`,
  );
  console.log(
    'seed  best   best KB  G0 KB  size ratio  bindings  tool hints  param hints  learned (bindings + tool hints)',
  );
  for (const seed of seeds) {
    const common = ['--records', join(data, 'records.jsonl'), '--tools', join(data, 'tools.config.json')];
    const out = join(dir, `seed-${seed}`);
    const g0Out = join(dir, `g0-${seed}`);
    const s = String(seed);
    await cli(['search', ...common, '--seed', s, '--iterations', iterations, '--out', out, '--db', join(dir, 's.db')]);
    await cli(['search', ...common, '--seed', s, '--strategy', 'none', '--out', g0Out, '--db', join(dir, 'g0.db')]);
    const file = join(out, 'best.workflow.json');
    const best = JSON.parse(readFileSync(file, 'utf8')) as Workflow;
    const size = statSync(file).size;
    const g0Size = statSync(join(g0Out, 'best.workflow.json')).size;
    const l = learned(best);
    const label = (best.meta?.search as { candidate?: string } | undefined)?.candidate ?? '?';
    console.log(
      `${s.padStart(4)}  ${String(label).padEnd(5)} ${(size / 1000).toFixed(1).padStart(8)} ${(g0Size / 1000).toFixed(1).padStart(6)} ${(size / g0Size).toFixed(2).padStart(10)}x ${String(l.bindings).padStart(9)} ${String(l.hints).padStart(11)} ${String(l.paramHints).padStart(12)}  ${l.bindings + l.hints}${size < 150_000 && l.bindings + l.hints >= 10 ? '  (under 150 KB, at least 10)' : '  (NOT under 150 KB with at least 10)'}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
