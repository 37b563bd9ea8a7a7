import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Workflow } from '../graph/schema.js';
import { formatProcessTree } from '../mining/process-tree/format.js';
import { parseProcessTree } from '../mining/process-tree/parse.js';
import { checkConformance } from './check.js';
import { observedRun, observedRunOfTools } from './observed-runs.js';

const repo = resolve(import.meta.dirname, '../..');
const branch = JSON.parse(
  readFileSync(join(repo, 'test/fixtures/workflows/valid/conditional-branch.json'), 'utf8'),
) as Workflow;

describe('checkConformance', () => {
  it("aligns runs with a workflow's own tree: a run it allows fits, a run with a call beyond it does not", () => {
    const r = checkConformance(branch, [
      observedRunOfTools('a', ['get_current_weather', 'get_forecast']),
      observedRunOfTools('b', ['get_current_weather']),
      observedRunOfTools('c', ['get_current_weather', 'get_forecast', 'get_forecast']),
    ]);
    expect(formatProcessTree(r.tree)).toBe("->( 'get_current_weather', X( 'get_forecast', tau ) )");
    expect(r.runs.map((x) => [x.id, x.fitness === 1, x.beyond])).toEqual([
      ['a', true, 0],
      ['b', true, 0],
      ['c', false, 1],
    ]);
    expect(r.log.traces).toBe(3);
    expect(r.log.variants.find((v) => v.activities.length === 3)?.deviations).toEqual([
      { kind: 'inserted', activity: 'get_forecast', position: 2 },
    ]);
  });

  it('aligns with a process tree as given, and a failed call lowers health, not fitness', () => {
    const tree = parseProcessTree("->( 'a', 'b' )");
    const r = checkConformance(tree, [
      observedRun('ok', [{ tool: 'a' }, { tool: 'b' }]),
      observedRun('failed', [{ tool: 'a', status: 'error' }, { tool: 'b' }]),
      observedRunOfTools('skipped', ['a']),
    ]);
    expect(r.tree).toEqual(tree);
    expect(r.runs.map((x) => [x.id, x.fitness === 1, x.health === 1])).toEqual([
      ['ok', true, true],
      ['failed', true, false],
      ['skipped', false, false],
    ]);
    expect(r.log.percFitTraces).toBeCloseTo(200 / 3, 6);
  });
});
