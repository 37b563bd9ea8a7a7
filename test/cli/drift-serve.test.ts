import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli-io.js';
import { readRecordsFile } from '../../src/records/read-records.js';
import type { TaskRecord } from '../../src/records/schema.js';

/**
 * A served workflow's stored runs feed `drift`: an offline search on the bundled Travel records
 * writes the best workflow with its profile (the learning records, and its own runs on D_val),
 * `flowscout serve --http --db` answers requests and stores each run, and `drift` reads the store.
 * Travel requests it never saw: no drift; Finance requests: drift.
 */
const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/flowscout.js');
const dir = mkdtempSync(join(tmpdir(), 'flowscout-drift-serve-'));
const WORKFLOW = join(dir, 'search/best.workflow.json');
const DB = join(dir, 'served.db');
let child: ChildProcess | undefined;
let url = '';
let travelTest: TaskRecord[] = [];
let finance: TaskRecord[] = [];

interface DriftJson {
  drift: boolean;
  reasons: string[];
  comparedWith: string | null;
  measures: { runs: number; averageFitness: number; failedCallRate: number };
}

beforeAll(async () => {
  for (const domain of ['Travel', 'Finance']) {
    expect((await cli(['import', 'traject', '--domain', domain, '--out', join(dir, domain)])).status).toBe(0);
  }
  const search = await cli([
    'search',
    '--records',
    join(dir, 'Travel/records.jsonl'),
    '--tools',
    join(dir, 'Travel/tools.config.json'),
    '--iterations',
    '2',
    '--db',
    join(dir, 'search.db'),
    '--out',
    join(dir, 'search'),
  ]);
  expect(search.status, search.err).toBe(0);
  travelTest = (await readRecordsFile(join(dir, 'search/test.records.jsonl'))).records;
  finance = (await readRecordsFile(join(dir, 'Finance/records.jsonl'))).records;
  child = spawn(
    process.execPath,
    [BIN, 'serve', WORKFLOW, '--tools', join(dir, 'Travel/tools.config.json'), '--http', '--port', '0', '--db', DB],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  url = await new Promise<string>((resolve, reject) => {
    child!.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /HTTP: POST (http:\/\/127\.0\.0\.1:\d+)\/run/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    child!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
});

afterAll(() => {
  child?.kill('SIGTERM');
});

async function ask(records: readonly TaskRecord[]): Promise<void> {
  for (const r of records) {
    const res = await fetch(`${url}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: r.query }),
    });
    // Answered: 200, or 502 for a run whose every tool call failed (a Finance request to the Travel
    // workflow); either way the run is stored.
    expect([200, 502]).toContain(res.status);
    await res.text();
  }
}

async function drift(...extra: string[]): Promise<DriftJson> {
  const r = await cli(['drift', WORKFLOW, '--runs', DB, '--json', ...extra]);
  expect(r.status, r.err).toBe(0);
  return JSON.parse(r.out) as DriftJson;
}

describe('drift on the runs a served workflow stored', () => {
  it('the searched workflow carries both baselines of its profile', () => {
    const w = JSON.parse(readFileSync(WORKFLOW, 'utf8')) as {
      meta: { conformance: { learning: { runs: number }; workflowRuns?: { runs: number } } };
    };
    expect(w.meta.conformance.learning.runs).toBeGreaterThan(0);
    expect(w.meta.conformance.workflowRuns?.runs).toBeGreaterThan(0);
  });

  it('no drift for Travel requests it never saw, drift once Finance requests come in', async () => {
    await ask(travelTest.slice(0, 12));
    const same = await drift();
    expect(same.measures.runs).toBe(12);
    expect(same.comparedWith).toBe('workflowRuns');
    expect(same.drift, same.reasons.join('; ')).toBe(false);

    await ask(finance.slice(0, 12));
    const all = await drift();
    expect(all.measures.runs).toBe(24);
    const recent = await drift('--last', '12');
    expect(recent.measures.runs).toBe(12);
    expect(recent.drift).toBe(true);
    expect(recent.measures.averageFitness).toBeLessThan(same.measures.averageFitness);
    expect(recent.reasons.some((r) => r.startsWith('averageFitness '))).toBe(true);
  });
});
