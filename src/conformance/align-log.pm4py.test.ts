import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEventLog } from '../mining/event-log/read-event-log.js';
import { parseProcessTree } from '../mining/process-tree/parse.js';
import { alignEventLog } from './align-log.js';

/**
 * Alignments against PM4Py 2.7.11's own (test/fixtures/conformance/README.md): for every case, each
 * variant's optimal cost and fitness, the model's cheapest complete run, `percFitTraces` and
 * `averageFitness` equal PM4Py's to 1e-6. The cases are those of pm4py-cases.json, the input
 * scripts/pm4py-alignments.py computed the fixture from.
 */
const repo = resolve(import.meta.dirname, '../..');

interface Pm4pyCase {
  name: string;
  log: string;
  tree: string;
  cheapestRun: number;
  traces: number;
  percFitTraces: number;
  averageFitness: number;
  /** [sha256 of the activities joined by NUL (16 hex digits), count, cost, fitness] */
  variants: [string, number, number, number][];
}

const fixture = JSON.parse(readFileSync(join(repo, 'test/fixtures/conformance/pm4py-alignments.json'), 'utf8')) as {
  pm4py: string;
  cases: Pm4pyCase[];
  notFinished: { name: string }[];
};
const inputs = JSON.parse(readFileSync(join(repo, 'test/fixtures/conformance/pm4py-cases.json'), 'utf8')) as {
  name: string;
  log: string;
}[];
const key = (activities: string[]) => createHash('sha256').update(activities.join('\u0000')).digest('hex').slice(0, 16);

describe('alignments equal PM4Py 2.7.11', () => {
  it('has cases of every kind, computed by PM4Py 2.7.11 from the listed inputs', () => {
    expect(fixture.pm4py).toMatch(/^2\.7\.11(\.|$)/);
    // Every input case is aligned, or listed as one PM4Py did not finish; none is left out silently.
    expect([...fixture.cases, ...fixture.notFinished].map((c) => c.name).sort()).toEqual(
      inputs.map((c) => c.name).sort(),
    );
    for (const c of fixture.cases) expect(c.log).toBe(inputs.find((i) => i.name === c.name)!.log);
    const names = fixture.cases.map((c) => c.name);
    expect(names.filter((n) => n.includes('against the im tree of')).length).toBeGreaterThanOrEqual(4);
    expect(names.filter((n) => n.includes('hand-written tree')).length).toBeGreaterThanOrEqual(3);
    expect(names.filter((n) => n.includes('another model')).length).toBeGreaterThanOrEqual(2);
    // PM4Py could not align the flower-like log against its own tree in the time limit (README):
    // it is an input, listed as not finished.
    expect(inputs.map((c) => c.name)).toContain('flower-300.xes / im');
    const deviating = fixture.cases.flatMap((c) => c.variants).filter((v) => v[2] > 0);
    expect(deviating.length).toBeGreaterThan(1000);
  });

  it.each(fixture.cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { log } = await readEventLog(join(repo, c.log));
    const result = alignEventLog(log, parseProcessTree(c.tree));
    expect(result.cheapestRun).toBe(c.cheapestRun);
    expect(result.traces).toBe(c.traces);
    const ours = new Map(result.variants.map((v) => [key(v.activities), v]));
    expect(ours.size).toBe(c.variants.length);
    for (const [hash, count, cost, fitness] of c.variants) {
      const v = ours.get(hash);
      expect(v, `variant ${hash}`).toBeDefined();
      expect(v!.count).toBe(count);
      expect(v!.cost, v!.activities.join(', ')).toBe(cost);
      expect(v!.fitness).toBeCloseTo(fitness, 6);
    }
    expect(result.percFitTraces).toBeCloseTo(c.percFitTraces, 6);
    expect(result.averageFitness).toBeCloseTo(c.averageFitness, 6);
  });
});
