import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BenchResults } from '../../src/bench/experiments/results.js';
import { positionsTable } from '../../src/bench/report/tables.js';

/**
 * The committed benchmark results (docs/results/): small enough to clone (the newest run of each
 * kind; git history keeps the others), each results.json naming its best workflows by hash instead
 * of embedding them, and that reference still carrying what the report drew from the workflows.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const RESULTS = join(ROOT, 'docs', 'results');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Folders holding one bench run's results.json with its report.md (not a multi-seed summary). */
const runs = files(RESULTS)
  .filter((f) => f.endsWith('results.json'))
  .map((f) => join(f, '..'))
  .filter((d) => Array.isArray((JSON.parse(readFileSync(join(d, 'results.json'), 'utf8')) as BenchResults).domains));

describe('docs/results', () => {
  it('stays under 10 MB in all', () => {
    const bytes = files(RESULTS).reduce((n, f) => n + statSync(f).size, 0);
    expect(bytes).toBeLessThan(10 * 1024 * 1024);
  });

  it('keeps each best workflow by hash and size, never the whole workflow', () => {
    expect(runs.length).toBeGreaterThan(0);
    for (const dir of runs) {
      const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as BenchResults;
      for (const d of r.domains) {
        expect(d.bestWorkflow?.hash, `${relative(ROOT, dir)} ${d.domain}`).toMatch(/^[0-9a-f]{64}$/);
        expect(d.bestWorkflow).not.toHaveProperty('nodes.0');
        expect(d.bestWorkflow).not.toHaveProperty('learned');
      }
    }
  });

  it("draws the report's tool-positions table from the reference exactly as it was drawn from the whole workflow", () => {
    for (const dir of runs) {
      const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as BenchResults;
      const report = readFileSync(join(dir, 'report.md'), 'utf8');
      expect(report, relative(ROOT, dir)).toContain(positionsTable(r));
    }
  });
});
