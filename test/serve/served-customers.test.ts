import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workflow } from '../../src/graph/schema.js';
import { openStore } from '../../src/store/open-store.js';
import { cli } from '../support/cli-io.js';
import { spawnCli, type ChildCli } from '../support/child-cli.js';
import { sendRaw } from '../support/http-send.js';

/**
 * A customer-service workflow served to customers it never saw: G0 mined from tau-bench retail's
 * gold runs of tasks 0–39 (test/fixtures/agent-logs/tau-bench-retail/), served over HTTP with
 * replay of those runs' recorded results and a store, answers the first messages of tasks 107–114.
 * No answer names a node of the workflow; a run that served nothing is not `ok` and says so in the
 * customer's words; `/metrics` counts the runs with their fitness; the store keeps each run's
 * fitness and health, and `conformance` reads them back.
 */
const ROOT = join(import.meta.dirname, '../..');
const RUNS = join(ROOT, 'test/fixtures/agent-logs/tau-bench-retail/gold-runs.json');
const dir = mkdtempSync(join(tmpdir(), 'flowscout-served-customers-'));
const db = join(dir, 'served.db');
const g0 = join(dir, 'g0.json');
const runs = JSON.parse(readFileSync(RUNS, 'utf8')) as Array<{
  task_id: number;
  traj: Array<{ role: string; content: string }>;
}>;
const customers = runs.filter((r) => r.task_id >= 107).map((r) => r.traj.find((m) => m.role === 'user')!.content);

let serve: ChildCli | undefined;
let url = '';
let workflow: Workflow;

beforeAll(async () => {
  const imported = await cli([
    'import',
    'auto',
    RUNS,
    '--where',
    'task_id<40',
    '--where',
    'reward=1',
    '--group',
    'task_id',
    '--out',
    join(dir, 'train'),
  ]);
  expect(imported.status, imported.err).toBe(0);
  const mined = await cli(['mine', join(dir, 'train/records.jsonl'), '--format', 'workflow', '--out', g0]);
  expect(mined.status, mined.err).toBe(0);
  workflow = JSON.parse(readFileSync(g0, 'utf8')) as Workflow;
  serve = spawnCli(['serve', g0, '--tools', join(dir, 'train/tools.config.json'), '--http', '--port', '0', '--db', db]);
  url = (await serve.waitFor(/HTTP: POST (http:\/\/127\.0\.0\.1:\d+)\/run/))[1]!;
});

afterAll(async () => {
  await serve?.stop();
});

describe('eight unseen customers', () => {
  it('are answered without naming a node of the workflow; what served nothing is not ok and says what was asked', async () => {
    expect(customers).toHaveLength(8);
    const internal = workflow.nodes.map((n) => n.id).filter((id) => /[_\d-]/.test(id));
    expect(internal.length).toBeGreaterThan(3);
    let ok = 0;
    for (const query of customers) {
      const r = await sendRaw(url, 'POST', '/run', JSON.stringify({ query }));
      expect([200, 502]).toContain(r.status);
      const answer = r.json.answer as string;
      const said = `${answer}\n${(r.json.error as { message?: string } | undefined)?.message ?? ''}`;
      for (const id of internal) expect(said).not.toContain(id);
      expect(said).not.toMatch(/\bstep\s*#?\d+\b/i);
      if (r.status === 200) {
        ok++;
        expect(r.json.status).toBe('ok');
        expect((r.json.calls as Array<{ status: string }>).some((c) => c.status === 'ok')).toBe(true);
      } else {
        expect(r.json.status).toBe('error');
        // Nothing was served: the answer says what was asked, in the customer's words.
        expect(answer).toMatch(/^I could not get your request done: “/);
        for (const part of r.json.unserved as string[]) expect(query).toContain(part.replace(/[.?!]+$/, ''));
      }
    }
    // Replay answers only the calls the training runs made: most unseen requests are served nothing.
    expect(ok).toBeLessThan(8);
  });

  it('/metrics answers Prometheus text with the served runs and their fitness and health', async () => {
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const w = `workflow="${workflow.name}"`;
    const total = ['ok', 'error'].map((s) =>
      Number(new RegExp(`flowscout_runs_total\\{${w},status="${s}"\\} (\\d+)`).exec(text)![1]),
    );
    expect(total[0]! + total[1]!).toBe(8);
    expect(text).toContain(`flowscout_run_fitness_count{${w}} 8`);
    expect(text).toContain(`flowscout_run_health_count{${w}} 8`);
    expect(text).toMatch(new RegExp(`flowscout_drift\\{${w},kind="any"\\} [01]`));
  });

  it('the store keeps each run scored as it was stored, with the status its customer was told', async () => {
    const store = openStore(db, { readOnly: true });
    try {
      const rows = store.listServedRuns({ limit: 100 });
      expect(rows).toHaveLength(8);
      for (const row of rows) {
        expect(row.fitness).toBeGreaterThanOrEqual(0);
        expect(row.fitness).toBeLessThanOrEqual(1);
        expect(row.health).toBeGreaterThan(0);
        expect(row.health).toBeLessThanOrEqual(1);
      }
    } finally {
      store.close();
    }
    const conf = await cli(['conformance', db, '--against', g0, '--json']);
    expect(conf.status, conf.err).toBe(0);
    const doc = JSON.parse(conf.out) as { runs: Array<{ id: string; fitness: number; health: number }> };
    const store2 = openStore(db, { readOnly: true });
    const stored = new Map(store2.listServedRuns({ limit: 100 }).map((r) => [`served-${r.id}`, r]));
    store2.close();
    // The same figures whether scored as served or read back later.
    for (const r of doc.runs) {
      expect(r.fitness).toBeCloseTo(stored.get(r.id)!.fitness!, 12);
      expect(r.health).toBeCloseTo(stored.get(r.id)!.health!, 12);
    }
  });
});
