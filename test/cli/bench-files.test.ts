import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { toOpenai } from '../support/agent-log-writers.js';
import type { BenchResults } from '../../src/bench/experiments/results.js';
import { bundledTrajectPaths } from '../../src/records/bundled.js';
import { importTraject } from '../../src/records/import/traject.js';
import { cli } from '../support/cli-io.js';

// A domain bench has never seen: bundled Finance records written as OpenAI chat logs, imported back.
const dir = mkdtempSync(join(tmpdir(), 'flowscout-bench-files-'));
const data = join(dir, 'my-finance');
let results: BenchResults;
let benchOut = '';
let benchErr = '';
let reportMd = '';

beforeAll(async () => {
  vi.stubEnv('FLOWSCOUT_MODEL', '');
  const paths = bundledTrajectPaths('Finance');
  const { records, tools } = importTraject(paths.trajQuery, paths.tools);
  const logs = join(dir, 'finance.openai.jsonl');
  writeFileSync(
    logs,
    records
      .slice(0, 30)
      .map((r) => JSON.stringify(toOpenai(r, tools, false)))
      .join('\n') + '\n',
  );
  const imp = await cli(['import', 'openai', logs, '--out', data]);
  expect(imp.status).toBe(0);
  const out = join(dir, 'report');
  const res = await cli([
    'bench',
    '--records',
    join(data, 'records.jsonl'),
    '--tools',
    join(data, 'tools.config.json'),
    '--name',
    'My Finance',
    '--iterations',
    '1',
    '--runs',
    '1',
    '--max-test',
    '4',
    '--seed',
    '1',
    '--out',
    out,
  ]);
  benchOut = res.out;
  benchErr = res.err;
  expect(res.status).toBe(0);
  results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as BenchResults;
  reportMd = readFileSync(join(out, 'report.md'), 'utf8');
}, 120_000);

describe('flowscout bench --records --tools (a domain of your own)', () => {
  it('runs every approach and the ablations on it and writes the same report, with the command that regenerates it', () => {
    expect(results.domains.map((d) => d.domain)).toEqual(['My Finance']);
    const d = results.domains[0]!;
    expect(d.split).toMatchObject({ opt: 15, val: 6, test: 9, measured: 4 });
    // How many of the measured test queries' calls are of tools D_opt calls, in the results and the report.
    const { calls, seen } = d.split.coverage!;
    expect(calls).toBeGreaterThanOrEqual(4);
    expect(seen).toBeLessThanOrEqual(calls);
    expect(reportMd).toContain(
      `whose tool some D_opt record calls (what is learned per tool can serve only these; this seed): My Finance ${Math.round((100 * seen) / calls)} %.`,
    );
    // Per parameter, the test queries' reference arguments FlowScout's workflow lost, adding up to the per-source counts.
    const fs = d.approaches.find((a) => a.id === 'flowscout')!;
    const rows = fs.parameterSources!;
    expect(rows.reduce((n, r) => n + r.args, 0)).toBe(
      fs.argumentSources!.request.args + fs.argumentSources!.upstream.args + fs.argumentSources!.neither.args,
    );
    const lost = rows.filter((r) => r.args > r.right);
    expect(lost.length).toBeGreaterThan(0);
    expect(reportMd).toContain(
      `FlowScout lost the most (passed wrong or their call not made; this seed): My Finance: ${lost[0]!.tool}.${lost[0]!.param} (`,
    );
    expect(d.approaches.map((a) => a.id)).toEqual([
      'flowscout',
      'nomcts',
      'pm4py',
      'react',
      'llm-only',
      'nominer',
      'beam',
      'noroutes',
    ]);
    expect(results.unavailableDomains).toEqual([]);
    expect(results.command).toContain(
      `--records ${join(data, 'records.jsonl')} --tools ${join(data, 'tools.config.json')} --name "My Finance"`,
    );
    expect(results.command).not.toContain('--domains');
    expect(results.command).toContain('--ablation-domain "My Finance"');
    expect(benchOut).toMatch(/\| FlowScout \(offline\) \| \d\.\d{3} \| \d\.\d{3} \|/);
    expect(benchOut).toContain('Ablations on My Finance');
    expect(benchErr).toBe('');
  });

  it('flowscout baseline runs one baseline on the same split and prints its TC and ES', async () => {
    const res = await cli([
      'baseline',
      'pm4py-style',
      '--records',
      join(data, 'records.jsonl'),
      '--tools',
      join(data, 'tools.config.json'),
      '--seed',
      '1',
      '--max-test',
      '4',
      '--json',
    ]);
    expect(res.status).toBe(0);
    const json = JSON.parse(res.out);
    const pm4py = results.domains[0]!.approaches.find((a) => a.id === 'pm4py')!;
    expect(json.split).toMatchObject({ opt: 15, val: 6, test: 9, measured: 4, by: 'record' });
    expect(json.tc).toBeCloseTo(pm4py.tc!, 12);
    expect(json.es).toBeCloseTo(pm4py.es, 12);
    const bad = await cli([
      'baseline',
      'aflow',
      '--records',
      join(data, 'records.jsonl'),
      '--tools',
      join(data, 'tools.config.json'),
    ]);
    expect(bad.status).toBe(2);
    expect(bad.err).toContain("unknown baseline 'aflow'");
  });

  it('refuses --records without --tools, and a --name that is a bundled domain', async () => {
    const a = await cli(['bench', '--records', join(data, 'records.jsonl')]);
    expect(a.status).toBe(2);
    expect(a.err).toContain('--records needs --tools');
    const b = await cli([
      'bench',
      '--records',
      join(data, 'records.jsonl'),
      '--tools',
      join(data, 'tools.config.json'),
      '--name',
      'travel',
    ]);
    expect(b.err).toContain("--name 'travel' is a bundled domain's name");
  });
});
