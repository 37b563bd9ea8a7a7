import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { captureIO as capture } from '../support/cli-io.js';

describe('flowscout demo (offline, end to end)', () => {
  it('imports the bundled Travel data, mines, searches and prints the tree, the best workflow and the comparison table, all labelled offline', async () => {
    vi.stubEnv('FLOWSCOUT_MODEL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    const root = mkdtempSync(join(tmpdir(), 'flowscout-demo-'));
    const io = capture();
    expect(await runCli(['demo', '--iterations', '2', '--max-records', '30', '--root', root], io)).toBe(0);
    const text = io.text();
    expect(text).toContain('FlowScout demo — OFFLINE: no model is configured');
    expect(text).toMatch(
      /1\. Imported 112 TRAJECT-Bench Travel records and took a seeded sample of 30, with \d+ real tool calls over 116 tools/,
    );
    expect(text).toContain('Split 5:2:3 (seed 0): D_opt 15');
    expect(text).toMatch(
      /2\. Process tree mined from D_opt's tool-call logs \(inductive miner, PM4Py notation\):\n\n {3}(->|X|\+|\*)\( /,
    );
    expect(text).toMatch(/ {3}iteration 1: /);
    expect(text).toMatch(/ {3}iteration 2: /);
    expect(text).toMatch(/5\. On the 9 test queries \(offline policy \(no LLM\); ES by the offline lexical judge\):/);
    for (const row of ['FlowScout (offline)', 'G0 / NoMCTS (offline)', 'ReAct (offline)', 'PM4Py-style (offline)'])
      expect(text).toMatch(new RegExp(`\\| ${row.replace(/[()/]/g, '\\$&')} \\| \\d\\.\\d{3} \\| \\d\\.\\d{3} \\|`));
    expect(text).toContain('OPENAI_API_KEY=sk-… npx flowscout demo --model openai:gpt-4o-mini');

    const [folder] = readdirSync(root);
    const dir = join(root, folder!);
    expect(text).toContain(`6. Artifacts in ${dir}/`);
    for (const f of [
      'process-tree.txt',
      'best.workflow.json',
      'best.workflow.ts',
      'best.workflow.mmd',
      'search.json',
      'g0.workflow.json',
      'summary.json',
    ])
      expect(existsSync(join(dir, f))).toBe(true);
    const tree = readFileSync(join(dir, 'process-tree.txt'), 'utf8').trim();
    expect(text).toContain(`Full tree (${tree.length} characters)`);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ offline: true, seed: 0, split: { opt: 15, val: 6, test: 9 } });
    expect(summary.test.map((r: { id: string }) => r.id)).toEqual(['flowscout', 'nomcts', 'react', 'pm4py']);
    // The best workflow is drawn when it is small (the printed Mermaid is the written best.workflow.mmd), else summarised.
    const mmd = readFileSync(join(dir, 'best.workflow.mmd'), 'utf8').trim();
    const best = JSON.parse(readFileSync(join(dir, 'best.workflow.json'), 'utf8')) as {
      nodes: unknown[];
      meta?: { routes?: unknown[] };
    };
    if (best.nodes.length <= 40) {
      expect(text).toContain('4. The best workflow (Mermaid):\n\nflowchart TD');
      expect(text).toContain(mmd);
    } else {
      expect(text).toContain(`4. The best workflow: ${best.nodes.length} nodes, `);
      expect(text).toContain(`a router over ${best.meta!.routes!.length} recurring variants`);
      expect(text).toContain('its Mermaid is best.workflow.mmd among the artifacts (6.)');
      expect(text).not.toContain('flowchart TD');
    }
    expect(summary.search.best).not.toBe('c0');
    expect(mmd).toContain(`%% Travel G0 → search ${summary.search.best}`);

    // A second demo gets a new folder; the first is left alone.
    const again = capture();
    expect(await runCli(['demo', '--iterations', '0', '--max-records', '30', '--root', root], again)).toBe(0);
    expect(readdirSync(root)).toHaveLength(2);
    expect(readFileSync(join(dir, 'process-tree.txt'), 'utf8').trim()).toBe(tree);
  });
});
