import { mkdtempSync, openSync, readFileSync, statSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore } from './open-store.js';
import { SCHEMA_VERSION } from './migrations.js';
import { cli } from '../../test/support/cli-io.js';
import { acquireRunLock, displayStatus } from './run-lock.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'flowscout-store-'));

const baseRun = {
  id: 'run-1',
  status: 'running' as const,
  seed: 7,
  strategy: 'mcts',
  config: { iterations: 3 },
  policyLabel: 'offline policy (no LLM)',
  judgeLabel: 'offline lexical judge',
  optimizerLabel: 'rule-based optimizer (offline)',
  iterationsDone: 0,
  sinceImprovement: 0,
};

describe('openStore', () => {
  it('creates the file in WAL mode and round-trips a run, an iteration commit and the memo', () => {
    const file = join(tmp(), 'sub', 'flowscout.db');
    const store = openStore(file);
    store.createRun(baseRun);
    store.commitIteration('run-1', {
      candidates: [
        {
          id: 'c0',
          seq: 0,
          parent: null,
          iteration: 0,
          workflow: { name: 'g0' },
          hash: 'h0',
          optReward: 0.5,
          visits: 1,
          w: 0.5,
          q: 0.5,
          feedback: { patterns: ['x'] },
        },
        { id: 'c1', seq: 1, parent: 'c0', iteration: 1, error: 'boom', visits: 1, w: 0, q: 0 },
      ],
      evaluations: [
        {
          candidateId: 'c0',
          split: 'opt',
          recordId: 'r1',
          tc: 1,
          es: 0.5,
          dims: { clarity: 1 },
          answer: 'a',
          calls: [{ tool: 't' }],
        },
      ],
      memo: [{ key: 'k1', observation: { nodeId: 'n', status: 'ok' } }],
      iteration: { iteration: 1, data: { best: 0.4 } },
      run: { iterationsDone: 1, bestCandidate: 'c0', sinceImprovement: 1 },
    });
    // An update of visits/W/Q keeps the rest of the row.
    store.commitIteration('run-1', {
      candidates: [{ id: 'c0', seq: 0, parent: null, iteration: 0, visits: 2, w: 0.9, q: 0.45 }],
      run: { iterationsDone: 2 },
    });
    store.close();

    const again = openStore(file);
    const run = again.getRun('run-1');
    expect(run).toMatchObject({
      iterationsDone: 2,
      bestCandidate: 'c0',
      sinceImprovement: 1,
      config: { iterations: 3 },
    });
    const cands = again.loadCandidates('run-1');
    expect(cands.map((c) => c.id)).toEqual(['c0', 'c1']);
    expect(cands[0]).toMatchObject({
      visits: 2,
      w: 0.9,
      q: 0.45,
      workflow: { name: 'g0' },
      optReward: 0.5,
      feedback: { patterns: ['x'] },
    });
    expect(cands[1]).toMatchObject({ parent: 'c0', error: 'boom' });
    expect(again.loadMemo('run-1')).toEqual([{ key: 'k1', observation: { nodeId: 'n', status: 'ok' } }]);
    expect(again.loadIterations('run-1')).toEqual([{ iteration: 1, data: { best: 0.4 } }]);
    expect(again.loadEvaluations('run-1', 'c0')[0]).toMatchObject({ recordId: 'r1', calls: [{ tool: 't' }] });
    again.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('rolls back a whole iteration when any part of it fails', () => {
    const store = openStore(join(tmp(), 'db.sqlite'));
    store.createRun(baseRun);
    expect(() =>
      store.commitIteration('run-1', {
        candidates: [{ id: 'c0', seq: 0, parent: null, iteration: 0, visits: 1, w: 0, q: 0 }],
        // A NOT NULL column left null: the transaction fails.
        evaluations: [
          {
            candidateId: 'c0',
            split: 'opt',
            recordId: 'r',
            tc: null as unknown as number,
            es: 0,
            dims: {},
            answer: '',
            calls: [],
          },
        ],
        run: { iterationsDone: 1 },
      }),
    ).toThrow();
    expect(store.loadCandidates('run-1')).toEqual([]);
    expect(store.getRun('run-1').iterationsDone).toBe(0);
    store.close();
  });

  it('names the known runs when a run id does not exist', () => {
    const store = openStore(':memory:');
    store.createRun(baseRun);
    expect(() => store.getRun('nope')).toThrow(/no run 'nope' in the store[\s\S]*/);
    try {
      store.getRun('nope');
    } catch (e) {
      expect((e as { hint: string }).hint).toContain('run-1');
    }
    store.close();
  });

  it('refuses a file that is not a database, and one from a newer FlowScout', () => {
    const dir = tmp();
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'this is not sqlite at all, just text '.repeat(200));
    expect(() => openStore(junk)).toThrow(/cannot open the FlowScout store .*junk\.db: it is not a SQLite database/);

    const newer = join(dir, 'newer.db');
    openStore(newer).close();
    const raw = new Database(newer);
    raw
      .prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)')
      .run(SCHEMA_VERSION + 1, 'future', 'x');
    raw.close();
    expect(() => openStore(newer)).toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}, newer than this FlowScout understands \\(${SCHEMA_VERSION}\\)`),
    );
    expect(() => openStore(join(dir, 'absent.db'), { mustExist: true })).toThrow(/no FlowScout store at/);
  });

  it('redacts API keys from everything it writes', () => {
    const file = join(tmp(), 'db.sqlite');
    const key = 'sk-test-SECRET0123456789abcdef';
    const store = openStore(file, { scrub: (t) => t.split(key).join('[redacted]') });
    store.createRun({ ...baseRun, config: { note: `key ${key}` } });
    store.commitIteration('run-1', {
      candidates: [{ id: 'c0', seq: 0, parent: null, iteration: 0, error: `401 for ${key}`, visits: 0, w: 0, q: 0 }],
      run: {},
    });
    store.close();
    expect(readFileSync(file).includes(key)).toBe(false);
    expect(readFileSync(`${file}-wal`, { flag: 'a+' }).includes(key)).toBe(false);
  });
});

describe('a damaged store', () => {
  it('is a STORE_ERROR naming the file and how to save what is readable, from runs list/show and --resume (not "a bug")', async () => {
    const file = join(tmp(), 'damaged.db');
    const store = openStore(file);
    store.createRun(baseRun);
    const big = 'x'.repeat(3000);
    for (let i = 0; i < 40; i++)
      store.commitIteration('run-1', {
        candidates: [
          { id: `c${i}`, seq: i, parent: i ? 'c0' : null, iteration: i, summary: big, visits: 1, w: 0, q: 0 },
        ],
        run: { iterationsDone: i },
      });
    store.close();
    // Overwrite every page after the first (the schema) with garbage, as a failing disk would.
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(size - 4096, 0xa5), 0, size - 4096, 4096);
    closeSync(fd);
    for (const argv of [
      ['runs', 'list', '--db', file],
      ['runs', 'show', 'run-1', '--db', file],
      ['search', '--resume', 'run-1', '--db', file],
    ]) {
      const res = await cli(argv);
      expect(res.status, `${argv.join(' ')}: ${res.err}`).toBe(3);
      expect(res.err).toMatch(
        new RegExp(`^error \\[STORE_ERROR\\]: .*${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}.*damaged|malformed`),
      );
      expect(res.err).toContain('.recover');
      expect(res.err).not.toContain('This is a bug');
    }
  });
});

describe('run locks', () => {
  it('refuses a second holder while the first is alive, takes over a dead one, and shows a dead running run as interrupted', () => {
    const store = openStore(':memory:');
    store.createRun(baseRun);
    expect(displayStatus(store, store.getRun('run-1'))).toBe('interrupted');
    const held = acquireRunLock(store, 'run-1');
    expect(displayStatus(store, store.getRun('run-1'))).toBe('running');
    // The parent of this process is alive: its "lock" is live.
    expect(() => acquireRunLock(store, 'run-1', { pid: process.ppid })).toThrow(
      new RegExp(`run 'run-1' is being driven by another process \\(pid ${process.pid} on `),
    );
    held.release();
    // A pid that cannot exist: its lock is stale and is taken over.
    store.acquireLock('run-1', { pid: 2 ** 22 + 7, host: (process.env.HOSTNAME ?? '') || 'x' }, () => false);
    const again = acquireRunLock(store, 'run-1', { host: (process.env.HOSTNAME ?? '') || 'x' });
    expect(again.replaced?.pid).toBe(2 ** 22 + 7);
    again.release();
    expect(store.getLock('run-1')).toBeUndefined();
    store.close();
  });
});
