import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { createUiApp } from '../../src/ui/server/app.js';
import { runSearch, searchArgs, writeSearchFixture } from './ui-fixture.js';

/**
 * The UI's JSON API over a store made by a real short offline search (14 bundled TRAJECT-Bench
 * Finance records, 3 iterations): what each page would show, read with no model and no tool call.
 */
const fx = writeSearchFixture({ records: 14 });
const db = join(fx.dir, 'flowscout.db');
const spaDir = join(fx.dir, 'spa');
let store: Store;
let app: ReturnType<typeof createUiApp>;
const records = new Map(
  readFileSync(fx.records, 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          id: string;
          query: string;
          reference: string;
          calls: Array<{ tool: string; args: unknown }>;
        },
    )
    .map((r) => [r.id, r]),
);

const get = async <T = Record<string, any>>(path: string, status = 200): Promise<T> => {
  const res = await app.request(`http://127.0.0.1:4321${path}`);
  expect(res.status, `${path}: ${res.status}`).toBe(status);
  return (await res.json()) as T;
};

beforeAll(async () => {
  await runSearch(searchArgs(fx, db, { iterations: 3 }));
  mkdirSync(spaDir);
  writeFileSync(join(spaDir, 'index.html'), '<!doctype html><title>app</title>');
  store = openStore(db, { mustExist: true });
  app = createUiApp({
    store,
    spaDir,
    dbFlag: db,
    allowedHosts: ['127.0.0.1', 'localhost'],
    benchDirs: [join(import.meta.dirname, '..', '..', 'docs', 'results', 'offline-2026-11-30')],
  });
});

afterAll(() => store?.close());

describe('UI API over a real offline search', () => {
  it("lists the run as done (the CLI's word) and offline, with its labels, iterations and usage", async () => {
    const { runs } = await get('/api/runs');
    expect(runs).toHaveLength(1);
    const r = runs[0];
    expect(r).toMatchObject({
      status: 'done',
      offline: true,
      iterations: 3,
      maxIterations: 3,
      llmCalls: 0,
      policy: 'offline policy (no LLM)',
      data: fx.records,
    });
    expect(r.toolCalls).toBeGreaterThan(0);
    expect(r.resume).toBeUndefined();
    expect(typeof r.bestVal).toBe('number');
  });

  it('draws the tree: one root, every candidate with its parent, exactly one best, iterations for Fig. 5', async () => {
    const { runs } = await get('/api/runs');
    const v = await get(`/api/runs/${runs[0].id}`);
    expect(v.tree.filter((n: any) => n.parent === null).map((n: any) => n.id)).toEqual(['c0']);
    expect(v.tree).toHaveLength(4);
    expect(v.tree.filter((n: any) => n.best)).toHaveLength(1);
    expect(v.tree.find((n: any) => n.best).id).toBe(runs[0].bestCandidate);
    for (const n of v.tree.slice(1)) expect(v.tree.some((p: any) => p.id === n.parent)).toBe(true);
    expect(v.iterations.map((i: any) => i.iteration)).toEqual([1, 2, 3]);
  });

  it('shows a candidate: its scores agree with its per-record rows, and its diff against the parent', async () => {
    const { runs } = await get('/api/runs');
    const id = runs[0].id;
    const v = await get(`/api/runs/${id}`);
    const child = v.tree.find((n: any) => n.parent !== null && n.kind === 'ok');
    const c = await get(`/api/runs/${id}/candidates/${child.id}`);
    expect(c.workflow.nodes.length).toBeGreaterThan(0);
    expect(c.parentWorkflow.name).toBeTruthy();
    const diff = c.diff;
    const changes =
      diff.addedNodes.length +
      diff.removedNodes.length +
      diff.changedNodes.length +
      diff.addedEdges.length +
      diff.removedEdges.length +
      diff.changedEdges.length;
    expect(changes).toBeGreaterThan(0);
    expect(c.candidate.plan).toBeTruthy();
    const val = c.records.filter((r: any) => r.split === 'val');
    expect(val.length).toBe(c.scores.val.records);
    expect(c.scores.val.score).toBeCloseTo(child.valScore, 9);
    expect(Object.keys(c.scores.val.dims).sort()).toEqual(['clarity', 'completeness', 'correctness', 'relevance']);
  });

  it('shows a record under a candidate: the stored query and reference, and every call aligned once', async () => {
    const { runs } = await get('/api/runs');
    const id = runs[0].id;
    const c = await get(`/api/runs/${id}/candidates/c0`);
    for (const row of c.records) {
      const r = await get(`/api/runs/${id}/candidates/c0/records/${row.split}/${encodeURIComponent(row.recordId)}`);
      const rec = records.get(row.recordId)!;
      expect(r.query).toBe(rec.query);
      expect(r.reference).toBe(rec.reference);
      expect(r.tc).toBe(row.tc);
      // Its scores come from the offline policy, and the page is told so (it shows OFFLINE beside them).
      expect(r.offline).toBe(true);
      // Every reference call and every produced call appears on exactly one aligned line.
      const refs = r.alignment
        .filter((l: any) => l.reference)
        .map((l: any) => l.reference.index)
        .sort((a: number, b: number) => a - b);
      const prods = r.alignment
        .filter((l: any) => l.produced)
        .map((l: any) => l.produced.index)
        .sort((a: number, b: number) => a - b);
      expect(refs).toEqual([...rec.calls.keys()]);
      expect(prods).toEqual([...r.producedCalls.keys()]);
      const matches = r.alignment.filter((l: any) => l.kind === 'match').length;
      expect(matches).toBe(r.tcCounts.lcs);
      expect(r.tc).toBeCloseTo(
        Math.max(r.tcCounts.k, r.tcCounts.kHat) === 0 ? 1 : matches / Math.max(r.tcCounts.k, r.tcCounts.kHat),
        9,
      );
      expect(r.trace.observations.length).toBeGreaterThan(0);
    }
  });

  it('tells where each tool response came from: recorded calls replay as hits', async () => {
    const { runs } = await get('/api/runs');
    const id = runs[0].id;
    const c = await get(`/api/runs/${id}/candidates/c0`);
    const origins = new Set<string>();
    for (const row of c.records) {
      const r = await get(`/api/runs/${id}/candidates/c0/records/${row.split}/${encodeURIComponent(row.recordId)}`);
      for (const o of r.trace.observations)
        for (const call of o.calls ?? []) origins.add(`${call.origin}:${call.status}`);
    }
    expect(origins.has('replay:ok')).toBe(true);
  });

  it('calls a run whose process died while running interrupted, as `flowscout runs` does (by pid on this host, by heartbeat age on another), and prints the command that resumes it', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
    const { runs } = await get('/api/runs');
    const id = runs[0].id;
    const here = (await import('node:os')).hostname();
    const raw = new Database(db);
    // The lock a searching process holds (store/run-lock.ts): pid, host and heartbeat.
    const holdLock = (pid: number, host: string, heartbeatAgoMs: number) => {
      const at = new Date(Date.now() - heartbeatAgoMs).toISOString();
      raw
        .prepare(
          'INSERT OR REPLACE INTO run_locks (run_id, pid, host, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run(id, pid, host, at, at);
    };
    raw.prepare("UPDATE runs SET status = 'running' WHERE id = ?").run(id);
    try {
      holdLock(dead, here, 0);
      const after = (await get('/api/runs')).runs[0];
      expect(after.status).toBe('interrupted');
      expect(after.resume).toBe(`flowscout search --resume ${id} --db ${db}`);
      holdLock(process.pid, here, 0);
      expect((await get('/api/runs')).runs[0].status).toBe('running');
      // Another host's process cannot be asked: its heartbeat decides.
      holdLock(dead, 'another-host.example', 60_000);
      expect((await get('/api/runs')).runs[0].status).toBe('running');
      holdLock(dead, 'another-host.example', 60 * 60_000);
      expect((await get('/api/runs')).runs[0].status).toBe('interrupted');
      expect((await get(`/api/runs/${id}`)).run.status).toBe('interrupted');
      raw.prepare('DELETE FROM run_locks WHERE run_id = ?').run(id);
      expect((await get('/api/runs')).runs[0].status).toBe('interrupted');
    } finally {
      raw.prepare('DELETE FROM run_locks WHERE run_id = ?').run(id);
      raw.prepare("UPDATE runs SET status = 'done' WHERE id = ?").run(id);
      raw.close();
    }
  });

  it('answers unknown ids with 404 and what exists, and never serves files outside the app', async () => {
    const e = await get('/api/runs/run-nope', 404);
    expect(e.error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining("no run 'run-nope'") });
    const { runs } = await get('/api/runs');
    expect((await get(`/api/runs/${runs[0].id}/candidates/c99`, 404)).error.hint).toContain('c0');
    expect(await get('/api/nothing', 404)).toEqual({
      error: { code: 'NOT_FOUND', message: 'no API route /api/nothing' },
    });
    const page = await app.request('http://localhost/%2e%2e/%2e%2e/package.json');
    expect(await page.text()).toBe('<!doctype html><title>app</title>');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('refuses requests addressed to another host name (a DNS name pointed at 127.0.0.1)', async () => {
    const res = await app.request('http://evil.example:4321/api/runs');
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain('run-');
  });

  it('serves a benchmark report folder: report text and its SVG figures', async () => {
    const b = await get('/api/bench/0');
    expect(b.report).toContain('|');
    expect(b.figures.length).toBeGreaterThan(0);
    const svg = await app.request(`http://localhost/api/bench/0/figure/${b.figures[0]}`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect((await app.request('http://localhost/api/bench/0/figure/..%2Freport.md')).status).toBe(404);
    expect((await app.request('http://localhost/api/bench/7')).status).toBe(404);
  });
});
