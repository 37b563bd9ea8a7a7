import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { BenchResults } from '../../src/bench/experiments/results.js';
import { runCli } from '../../src/cli/program.js';
import { captureIO as capture } from '../support/cli-io.js';

const dir = mkdtempSync(join(tmpdir(), 'flowscout-bench-'));
const out = join(dir, 'report');
const args = [
  'bench',
  '--domains',
  'Travel,Sports',
  '--max-records',
  '24',
  '--iterations',
  '1',
  '--runs',
  '2',
  '--max-test',
  '5',
  '--seed',
  '3',
  '--out',
  out,
];
let io: ReturnType<typeof capture>;
let results: BenchResults;

beforeAll(async () => {
  vi.stubEnv('FLOWSCOUT_MODEL', '');
  io = capture();
  expect(await runCli(args, io)).toBe(0);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as BenchResults;
});

describe('flowscout bench (offline, small)', () => {
  it('writes a report that starts with the command and seed that regenerate it, and labels every table offline', () => {
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    const command = `npx flowscout bench --domains Travel,Sports --seed 3 --iterations 1 --patience 5 --runs 2 --max-test 5 --max-records 24 --ablation-domain Travel --concurrency 4 --out ${out}`;
    expect(report).toContain(`\`\`\`sh\n${command}\n\`\`\``);
    expect(results.command).toBe(command);
    expect(report).toContain('seed **3**');
    expect(report).toMatch(/- code: flowscout \d+\.\d+\.\d+/);
    expect(report).toMatch(/\| Travel \| \d+( \(\d+ × calls: many\))? \| \d\.\d\d \|/);
    expect(report).toContain('**24 records sampled per domain**');
    for (const h of [
      '## RQ1 — effectiveness (Table II)',
      '### Significance',
      '### Stability (Fig. 3)',
      '## RQ2',
      '## RQ3 — ablations on Travel (Table III)',
      '### LLM backbones (Table V)',
      '### Tool-set swap (Table IV)',
    ])
      expect(report).toContain(h);
    expect(
      report.match(
        /_OFFLINE · policy: offline policy \(no LLM\) · judge: offline lexical judge · seed 3 · optimizer: rule-based optimizer \(offline\)_/g,
      )!.length,
    ).toBeGreaterThanOrEqual(6);
    expect(report).toContain('every CV of ES is 0 by construction');
    expect(report).toContain('**Sports**: not run. TRAJECT-Bench released no Sports trajectories');
    expect(report).toMatch(/\| LLM-only \(offline\) \| n\/a \| \d\.\d{3} \| n\/a \| \d\.\d{3} \|/);
    expect(report).toContain('![Fig. 3](fig3-stability.svg)');
    expect(io.text()).toContain('Table II (test set; TC and ES per domain):');
  });

  it('measures every approach on the same test queries, each run --runs times, and keeps every number in results.json', () => {
    expect(results.labels).toMatchObject({
      offline: true,
      policyKind: 'offline',
      model: 'offline',
      judgeKind: 'offline',
    });
    expect(results.unavailableDomains.map((u) => u.domain)).toEqual(['Sports']);
    const travel = results.domains[0]!;
    expect(travel.domain).toBe('Travel');
    expect(travel.split).toMatchObject({ opt: 12, val: 5, test: 7, measured: 5 });
    expect(travel.approaches.map((a) => a.id)).toEqual([
      'flowscout',
      'nomcts',
      'pm4py',
      'react',
      'llm-only',
      'nominer',
      'beam',
      'noroutes',
    ]);
    const ids = travel.approaches[0]!.records.map((r) => r.id);
    for (const a of travel.approaches) {
      expect(a.records.map((r) => r.id)).toEqual(ids);
      for (const r of a.records) expect(r.esRuns).toHaveLength(2);
      expect(a.records.every((r) => r.k >= 1)).toBe(true);
      expect(a.cv).toBe(0);
    }
    expect(travel.approaches.find((a) => a.id === 'llm-only')!.tc).toBeNull();
    expect(travel.searches.map((s) => s.variant)).toEqual(['flowscout', 'llm-only', 'nominer', 'beam']);
    expect(travel.searches[0]!.iterations[0]).toMatchObject({ iteration: 0 });
    // The best workflow is kept by reference (its canonical hash and size), not embedded whole.
    const best = travel.bestWorkflow!;
    expect(Object.keys(best).sort()).toEqual([
      'bindings',
      'edges',
      'hash',
      'manyPositions',
      'name',
      'nodes',
      'toolPositions',
    ]);
    // How many bindings it holds, and how many read an earlier call's output: counts, not the bindings.
    expect(best.bindings!.upstream).toBeLessThanOrEqual(best.bindings!.total);
    expect(best.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(best.toolPositions).toBeGreaterThan(0);
    expect(best.nodes).toBeGreaterThan(best.toolPositions);
    expect(readFileSync(join(out, 'results.json'), 'utf8')).not.toContain('"learned"');
    // Significance: per domain only (one domain), TC without LLM-only, ES with it.
    expect(results.significance.map((f) => `${f.scope}:${f.metric}:${f.comparisons.length}`)).toEqual([
      'Travel:tc:3',
      'Travel:es:4',
    ]);
    expect(results.ablation!.rows.map((r) => r.id)).toEqual(['flowscout', 'nomcts', 'noroutes', 'nominer', 'beam']);
    expect(results.backbone.rows).toEqual([expect.objectContaining({ domain: 'Travel', model: 'offline' })]);
    expect(results.backbone.note).toMatch(/offline policy, which is not an LLM/);
    expect(results.toolSwap.run).toBe(false);
  });

  it('draws both figures as SVG', () => {
    for (const f of ['fig3-stability.svg', 'fig5-val-per-iteration.svg']) {
      const svg = readFileSync(join(out, f), 'utf8');
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
      expect(svg).toContain('Travel');
    }
  });

  it('refuses to overwrite the output without --force', async () => {
    const before = statSync(join(out, 'report.md')).mtimeMs;
    const again = capture();
    expect(await runCli(args, again)).toBe(2);
    expect(again.errors()).toMatch(/FILE_EXISTS.*already holds report\.md/);
    expect(statSync(join(out, 'report.md')).mtimeMs).toBe(before);
  });

  it('rejects unknown domains and bad numbers with a clear message', async () => {
    const a = capture();
    expect(await runCli(['bench', '--domains', 'Mars'], a)).toBe(2);
    expect(a.errors()).toContain("unknown domain 'Mars'");
    const b = capture();
    expect(await runCli(['bench', '--runs', '0'], b)).toBe(2);
    expect(b.errors()).toContain('--runs must be a whole number ≥ 1');
  });
});

describe('flowscout bench --seeds (offline, small)', () => {
  it('runs the whole benchmark once per seed into seed-<n>/ and writes the mean ± SD over seeds with the orderings', async () => {
    const root = join(dir, 'seeds');
    const io2 = capture();
    const argv = [
      'bench',
      '--domains',
      'Travel',
      '--max-records',
      '24',
      '--iterations',
      '1',
      '--runs',
      '1',
      '--max-test',
      '4',
      '--seeds',
      '1,2',
      '--out',
      root,
    ];
    expect(await runCli(argv, io2)).toBe(0);
    const summary = JSON.parse(readFileSync(join(root, 'results.json'), 'utf8')) as {
      kind: string;
      seeds: number[];
      command: string;
      stats: Array<{ id: string; tc: unknown[] }>;
    };
    expect(summary).toMatchObject({ kind: 'seeds', seeds: [1, 2] });
    expect(summary.command).toBe(
      `npx flowscout bench --domains Travel --seeds 1,2 --iterations 1 --patience 5 --runs 1 --max-test 4 --max-records 24 --ablation-domain Travel --concurrency 4 --out ${root}`,
    );
    expect(summary.stats.find((s) => s.id === 'nominer')!.tc).toHaveLength(2);
    for (const seed of [1, 2]) {
      const perSeed = JSON.parse(readFileSync(join(root, `seed-${seed}`, 'results.json'), 'utf8')) as BenchResults;
      expect(perSeed.settings.seed).toBe(seed);
      expect(perSeed.command).toContain(`--seed ${seed} `);
    }
    const report = readFileSync(join(root, 'report.md'), 'utf8');
    expect(report).toContain('# FlowScout benchmark over seeds 1, 2 (offline)');
    expect(report).toMatch(/\| FlowScout \(offline\) \| \d\.\d{3} ± \d\.\d{3} \|/);
    expect(report).toMatch(/\| RQ3: MCTS beats beam search at the same budget \(FlowScout > Beam\) \| Travel \|/);
    expect(io2.text()).toContain("The paper's orderings (test TC):");
    // A second run into the same folder is refused before anything is written.
    const again = capture();
    expect(await runCli(argv, again)).toBe(2);
    expect(again.errors()).toMatch(/FILE_EXISTS.*already holds report\.md, results\.json/);
    // Seeds already run by the same command (e.g. in parallel, with --seed n --out <out>/seed-n) are
    // read, not run again, when they ran from committed sources; otherwise their folders are refused.
    rmSync(join(root, 'report.md'));
    rmSync(join(root, 'results.json'));
    const resumed = capture();
    const clean =
      (JSON.parse(readFileSync(join(root, 'seed-1', 'results.json'), 'utf8')) as BenchResults).code.dirty === false;
    expect(await runCli(argv, resumed)).toBe(clean ? 0 : 2);
    if (clean) {
      expect(resumed.text()).toContain(
        `seed 2 (2 of 2) already run by this command: read from ${join(root, 'seed-2', 'results.json')}`,
      );
      expect(JSON.parse(readFileSync(join(root, 'results.json'), 'utf8')).stats).toEqual(summary.stats);
    } else expect(resumed.errors()).toMatch(/FILE_EXISTS.*seed-1/);
  }, 300_000);
});
