import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';

/**
 * Drift on a customer-service agent's runs split by task: tau-bench retail's gold runs
 * (test/fixtures/agent-logs/tau-bench-retail/, 48 tasks), imported with their outcome, searched on
 * offline with the split by task, so the best workflow's profile holds its validation runs — tasks
 * it was not learned from. The test split's runs (other unseen tasks) read "no drift"; another
 * domain's runs (the bundled TRAJECT-Bench Travel records) read "the process changed".
 */
const ROOT = join(import.meta.dirname, '../..');
const RUNS = join(ROOT, 'test/fixtures/agent-logs/tau-bench-retail/gold-runs.json');
const dir = mkdtempSync(join(tmpdir(), 'flowscout-drift-real-'));
const best = join(dir, 'search/best.workflow.json');

interface DriftJson {
  drift: boolean;
  processChanged: boolean;
  runsFailMore: boolean;
  comparedWith: string;
  reasons: string[];
  next: string;
  baseline: { runs: number };
  measures: { runs: number };
}

async function drift(runs: string): Promise<DriftJson> {
  const r = await cli(['drift', best, '--runs', runs, '--json']);
  expect(r.status, r.err).toBe(0);
  return JSON.parse(r.out) as DriftJson;
}

beforeAll(async () => {
  const all = join(dir, 'all');
  const imported = await cli(['import', 'auto', RUNS, '--where', 'reward=1', '--group', 'task_id', '--out', all]);
  expect(imported.status, imported.err).toBe(0);
  const searched = await cli([
    'search',
    '--records',
    join(all, 'records.jsonl'),
    '--tools',
    join(all, 'tools.config.json'),
    '--iterations',
    '1',
    '--seed',
    '0',
    '--db',
    join(dir, 'search.db'),
    '--out',
    join(dir, 'search'),
  ]);
  expect(searched.status, searched.err).toBe(0);
  expect((await cli(['import', 'traject', '--domain', 'Travel', '--out', join(dir, 'travel')])).status).toBe(0);
});

describe('drift on runs split by task', () => {
  it("compares the unseen tasks' successful runs with the validation tasks' and says no drift", async () => {
    const r = await drift(join(dir, 'search/test.records.jsonl'));
    expect(r.comparedWith).toBe('heldOut');
    expect(r.baseline.runs).toBe(10);
    expect(r.measures.runs).toBe(14);
    expect(r.drift, r.reasons.join('; ')).toBe(false);
    expect(r.next).toMatch(/^Nothing to do/);
  });

  it("says the process changed for another domain's runs", async () => {
    const r = await drift(join(dir, 'travel/records.jsonl'));
    expect(r).toMatchObject({ drift: true, processChanged: true });
    expect(r.reasons.some((x) => x.startsWith('averageFitness '))).toBe(true);
  });
});
