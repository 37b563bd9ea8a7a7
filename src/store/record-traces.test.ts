import { mkdtempSync, readFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.js';
import { openStore } from './open-store.js';

/**
 * Schema version 2: each evaluated record's trace (deflated) and the run's records, so the web UI
 * can show a record under any candidate without running anything; and the process that owns a
 * running run, so a reader can tell a crashed run from a live one.
 */
const tmp = () => mkdtempSync(join(tmpdir(), 'flowscout-store-traces-'));
const run = {
  id: 'run-t',
  status: 'running' as const,
  seed: 1,
  strategy: 'mcts',
  config: {},
  policyLabel: 'offline policy (no LLM)',
  judgeLabel: 'offline lexical judge',
  optimizerLabel: 'rule-based optimizer (offline)',
  iterationsDone: 0,
  sinceImprovement: 0,
};

describe('record traces in the store', () => {
  it('round-trips a trace one record at a time, compressed, and keeps the run records', () => {
    const file = join(tmp(), 'db.sqlite');
    const store = openStore(file);
    store.createRun(run);
    const output = 'the same long tool output '.repeat(400);
    const trace = {
      status: 'ok',
      observations: [
        {
          nodeId: 'step_1',
          kind: 'tool',
          status: 'ok',
          input: 'q',
          output,
          calls: [{ tool: 't', args: { a: 1 }, status: 'ok', output, origin: 'replay' }],
        },
      ],
      detail: { matched: [[0, 0]], missing: [], extra: [] },
    };
    store.commitIteration('run-t', {
      candidates: [{ id: 'c0', seq: 0, parent: null, iteration: 0, visits: 1, w: 0.5, q: 0.5 }],
      evaluations: [
        {
          candidateId: 'c0',
          split: 'val',
          recordId: 'r1',
          tc: 1,
          es: 0.5,
          dims: {},
          answer: 'a',
          calls: [{ tool: 't', args: { a: 1 } }],
          trace,
        },
      ],
      records: [
        {
          recordId: 'r1',
          split: 'val',
          record: { id: 'r1', query: 'where?', reference: 'here', calls: [{ tool: 't', args: { a: 1 } }] },
        },
      ],
      run: {},
    });
    expect(store.loadRecordTrace('run-t', 'c0', 'val', 'r1')).toEqual(trace);
    expect(store.loadRecordTrace('run-t', 'c0', 'val', 'nope')).toBeUndefined();
    // loadEvaluations stays light: the trace is read only on request.
    expect(store.loadEvaluations('run-t', 'c0')[0]).not.toHaveProperty('trace');
    expect(store.loadRunRecords('run-t')).toEqual([
      {
        recordId: 'r1',
        split: 'val',
        record: { id: 'r1', query: 'where?', reference: 'here', calls: [{ tool: 't', args: { a: 1 } }] },
      },
    ]);
    store.close();
    const db = new Database(file, { readonly: true });
    const stored = db.prepare('SELECT length(trace) AS n FROM evaluations').get() as { n: number };
    db.close();
    expect(stored.n).toBeLessThan(JSON.stringify(trace).length / 10);
  });

  it('records which process marked a run running', () => {
    const store = openStore(join(tmp(), 'db.sqlite'));
    expect(store.createRun(run).owner).toEqual({ pid: process.pid, host: hostname() });
    store.close();
  });

  it('redacts secrets inside a trace before compressing it', () => {
    const file = join(tmp(), 'db.sqlite');
    const key = 'sk-test-TRACESECRET0123456789';
    const store = openStore(file, { scrub: (t) => t.split(key).join('[redacted]') });
    store.createRun(run);
    store.commitIteration('run-t', {
      candidates: [],
      evaluations: [
        {
          candidateId: 'c0',
          split: 'opt',
          recordId: 'r1',
          tc: 0,
          es: 0,
          dims: {},
          answer: '',
          calls: [],
          trace: { error: `401 with ${key}` },
        },
      ],
      run: {},
    });
    expect(store.loadRecordTrace('run-t', 'c0', 'opt', 'r1')).toEqual({ error: '401 with [redacted]' });
    store.close();
    expect(readFileSync(file).includes(key)).toBe(false);
  });

  it('upgrades a version-1 store in place, keeping its runs', () => {
    const file = join(tmp(), 'old.sqlite');
    const db = new Database(file);
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    db.exec(MIGRATIONS[0]!.sql);
    db.prepare("INSERT INTO schema_migrations VALUES (1, 'v1', 'then')").run();
    db.prepare(
      "INSERT INTO runs (id, created_at, updated_at, status, seed, strategy, config, policy_label, judge_label, optimizer_label) VALUES ('old', 'a', 'b', 'done', 0, 'mcts', '{}', 'p', 'j', 'o')",
    ).run();
    db.close();
    const store = openStore(file, { mustExist: true });
    expect(store.listRuns().map((r) => r.id)).toEqual(['old']);
    expect(store.loadRunRecords('old')).toEqual([]);
    store.close();
  });
});
