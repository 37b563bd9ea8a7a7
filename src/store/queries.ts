import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import { FlowScoutError } from '../errors/index.js';
import { decodeColumn, decodeRow, encodeRow, encodeValue, insertSql, selectList } from './columns.js';
import { CANDIDATES, EVALUATIONS, ITERATIONS, NODE_MEMO, RUN_LOCKS, RUN_RECORDS, RUNS, SERVED_RUNS } from './tables.js';
import type {
  CandidateRow,
  EvaluationRow,
  IterationCommit,
  RunLock,
  RunRecordRow,
  RunRow,
  ServedRunRow,
} from './types.js';

/**
 * The store's reads and writes (see open-store.ts), built from each entity's column table
 * (tables.ts): texts and JSON columns are written through `scrub`; every row read back is parsed
 * with zod (a row that does not parse is a STORE_ERROR naming the store, table, row and JSON path). `commitIteration` writes everything one search iteration produced in one
 * transaction, so a crash leaves either the whole iteration or none of it.
 */
export interface StoreQueries {
  createRun(run: Omit<RunRow, 'createdAt' | 'updatedAt'>): RunRow;
  /** The run, or NOT_FOUND naming the known runs. */
  getRun(id: string): RunRow;
  listRuns(): RunRow[];
  updateRun(id: string, patch: IterationCommit['run']): void;
  /** The run's candidates in creation order. */
  loadCandidates(runId: string): CandidateRow[];
  loadIterations(runId: string): Array<{ iteration: number; data: Record<string, unknown> }>;
  loadEvaluations(runId: string, candidateId: string): EvaluationRow[];
  /** One record's stored trace under a candidate, or undefined when none was stored. */
  loadRecordTrace(runId: string, candidateId: string, split: string, recordId: string): unknown;
  /** The records the run evaluates on (empty for runs stored before traces were kept). */
  loadRunRecords(runId: string): RunRecordRow[];
  /** Every memo entry of the run (loaded once at start or resume). */
  loadMemo(runId: string): Array<{ key: string; observation: unknown }>;
  commitIteration(runId: string, commit: IterationCommit): void;
  /** The lock of the process driving the run, if any. */
  getLock(runId: string): RunLock | undefined;
  /**
   * Takes the run's lock for `holder` in one transaction: free, or held by a holder `isStale` says is
   * gone, it is taken (the stale holder is returned as `replaced`); held by a live holder, it is not
   * (that holder is returned as `heldBy`).
   */
  acquireLock(
    runId: string,
    holder: { pid: number; host: string },
    isStale: (lock: RunLock) => boolean,
  ): { heldBy?: RunLock; replaced?: RunLock };
  /** Refreshes the heartbeat of the lock held by `pid`. */
  touchLock(runId: string, pid: number): void;
  /** Releases the lock if `pid` holds it. */
  releaseLock(runId: string, pid: number): void;
  /** Records one request `flowscout serve` answered; returns its id. */
  recordServedRun(run: Omit<ServedRunRow, 'id' | 'createdAt'>): number;
  /** Served runs, newest first (optionally of one workflow hash). */
  listServedRuns(opts?: { workflowHash?: string; limit?: number }): ServedRunRow[];
}

type Row = Record<string, unknown>;

/** The store's statements over an open database; `file` names the store in the error of a row that does not parse. */
export function createStoreQueries(
  db: Database.Database,
  scrub: (text: string) => string,
  file = ':memory:',
): StoreQueries {
  const ctx = { file };
  const now = () => new Date().toISOString();

  const insertRun = db.prepare(insertSql(RUNS));
  const upsertCandidate = db.prepare(`${insertSql(CANDIDATES, { extra: ['run_id', 'created_at'] })}
    ON CONFLICT (run_id, id) DO UPDATE SET visits = excluded.visits, w = excluded.w, q = excluded.q,
    val_score = excluded.val_score, val_tc = excluded.val_tc, val_es = excluded.val_es`);
  const insertEval = db.prepare(insertSql(EVALUATIONS, { verb: 'INSERT OR REPLACE', extra: ['run_id'] }));
  const insertRecord = db.prepare(insertSql(RUN_RECORDS, { verb: 'INSERT OR IGNORE', extra: ['run_id'] }));
  const owner = () => JSON.stringify({ pid: process.pid, host: hostname() });
  const insertMemo = db.prepare(insertSql(NODE_MEMO, { verb: 'INSERT OR IGNORE', extra: ['run_id'] }));
  const insertServed = db.prepare(insertSql(SERVED_RUNS, { omit: ['id'] }));
  const insertIteration = db.prepare(insertSql(ITERATIONS, { verb: 'INSERT OR REPLACE', extra: ['run_id'] }));
  const insertLock = db.prepare(insertSql(RUN_LOCKS, { verb: 'INSERT OR REPLACE', extra: ['run_id'] }));

  const toRun = (r: Row): RunRow => decodeRow(RUNS, r, ctx);
  const getRun = (id: string): RunRow => {
    const row = db.prepare(`SELECT ${selectList(RUNS)} FROM runs WHERE id = ?`).get(id) as Row | undefined;
    if (row) return toRun(row);
    const known = (
      db.prepare('SELECT id FROM runs ORDER BY created_at DESC LIMIT 10').all() as Array<{ id: string }>
    ).map((r) => r.id);
    throw new FlowScoutError({
      code: 'NOT_FOUND',
      message: `no run '${id}' in the store`,
      hint: known.length
        ? `Known runs (newest first): ${known.join(', ')}. \`flowscout runs list\` shows them all.`
        : 'The store has no runs yet; start one with `flowscout search`.',
    });
  };

  const updateRun = (id: string, patch: IterationCommit['run']): void => {
    const cols: Record<string, unknown> = { [RUNS.columns.updatedAt.sql]: now() };
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) continue;
      const c = RUNS.columns[k as keyof RunRow];
      cols[c.sql] = encodeValue(c, v, scrub);
    }
    if (patch.status === 'running') cols[RUNS.columns.owner.sql] = owner();
    const set = Object.keys(cols)
      .map((k) => `${k} = @${k}`)
      .join(', ');
    db.prepare(`UPDATE runs SET ${set} WHERE id = @id`).run({ ...cols, id });
  };

  const commit = db.transaction((runId: string, c: IterationCommit) => {
    const created = now();
    for (const cand of c.candidates)
      upsertCandidate.run({ ...encodeRow(CANDIDATES, cand, scrub), run_id: runId, created_at: created });
    for (const e of c.evaluations ?? []) insertEval.run({ ...encodeRow(EVALUATIONS, e, scrub), run_id: runId });
    for (const r of c.records ?? []) insertRecord.run({ ...encodeRow(RUN_RECORDS, r, scrub), run_id: runId });
    for (const m of c.memo ?? []) insertMemo.run({ ...encodeRow(NODE_MEMO, m, scrub), run_id: runId });
    if (c.iteration) insertIteration.run({ ...encodeRow(ITERATIONS, c.iteration, scrub), run_id: runId });
    updateRun(runId, c.run);
  });

  const getLock = (runId: string): RunLock | undefined => {
    const r = db.prepare(`SELECT ${selectList(RUN_LOCKS)} FROM run_locks WHERE run_id = ?`).get(runId) as
      Row | undefined;
    return r ? decodeRow(RUN_LOCKS, r, ctx) : undefined;
  };
  const acquire = db.transaction(
    (runId: string, holder: { pid: number; host: string }, isStale: (lock: RunLock) => boolean) => {
      const held = getLock(runId);
      if (held && !(held.pid === holder.pid && held.host === holder.host) && !isStale(held)) return { heldBy: held };
      const at = now();
      insertLock.run({
        ...encodeRow(RUN_LOCKS, { pid: holder.pid, host: holder.host, acquiredAt: at, heartbeatAt: at }, scrub),
        run_id: runId,
      });
      return held && held.pid !== holder.pid ? { replaced: held } : {};
    },
  );

  return {
    getLock,
    acquireLock: (runId, holder, isStale) => acquire.immediate(runId, holder, isStale),
    touchLock: (runId, pid) =>
      void db.prepare('UPDATE run_locks SET heartbeat_at = ? WHERE run_id = ? AND pid = ?').run(now(), runId, pid),
    releaseLock: (runId, pid) => void db.prepare('DELETE FROM run_locks WHERE run_id = ? AND pid = ?').run(runId, pid),
    createRun(run) {
      const at = now();
      // `inputs` and `result` are written by `updateRun` (as before: the insert leaves them empty).
      const { inputs: _inputs, result: _result, ...rest } = run;
      insertRun.run({
        ...encodeRow(RUNS, { ...rest, createdAt: at, updatedAt: at }, scrub),
        owner: run.status === 'running' ? owner() : null,
      });
      if (run.inputs) updateRun(run.id, { inputs: run.inputs });
      return getRun(run.id);
    },
    getRun,
    listRuns: () =>
      (db.prepare(`SELECT ${selectList(RUNS)} FROM runs ORDER BY created_at DESC, id`).all() as Row[]).map(toRun),
    updateRun,
    loadCandidates: (runId) =>
      (
        db.prepare(`SELECT ${selectList(CANDIDATES)} FROM candidates WHERE run_id = ? ORDER BY seq`).all(runId) as Row[]
      ).map((r) => decodeRow(CANDIDATES, r, ctx)),
    loadIterations: (runId) =>
      (
        db
          .prepare(`SELECT ${selectList(ITERATIONS)} FROM iterations WHERE run_id = ? ORDER BY iteration`)
          .all(runId) as Row[]
      ).map((r) => decodeRow(ITERATIONS, r, ctx)),
    loadEvaluations: (runId, candidateId) =>
      (
        db
          .prepare(
            `SELECT ${selectList(EVALUATIONS, ['trace'])} FROM evaluations WHERE run_id = ? AND candidate_id = ? ORDER BY split, record_id`,
          )
          .all(runId, candidateId) as Row[]
      ).map((r) => decodeRow(EVALUATIONS, r, ctx)),
    loadRecordTrace: (runId, candidateId, split, recordId) => {
      const row = db
        .prepare(
          `SELECT ${EVALUATIONS.key.join(', ')}, trace FROM evaluations WHERE run_id = ? AND candidate_id = ? AND split = ? AND record_id = ?`,
        )
        .get(runId, candidateId, split, recordId) as Row | undefined;
      return row ? decodeColumn(EVALUATIONS, 'trace', row, ctx) : undefined;
    },
    loadRunRecords: (runId) =>
      (
        db
          .prepare(`SELECT ${selectList(RUN_RECORDS)} FROM run_records WHERE run_id = ? ORDER BY rowid`)
          .all(runId) as Row[]
      ).map((r) => decodeRow(RUN_RECORDS, r, ctx)),
    loadMemo: (runId) =>
      (db.prepare(`SELECT ${selectList(NODE_MEMO)} FROM node_memo WHERE run_id = ?`).all(runId) as Row[]).map((r) =>
        decodeRow(NODE_MEMO, r, ctx),
      ),
    commitIteration: (runId, c) => commit(runId, c),
    recordServedRun(run) {
      const info = insertServed.run({ ...encodeRow(SERVED_RUNS, { ...run, createdAt: now() }, scrub) });
      return Number(info.lastInsertRowid);
    },
    listServedRuns(opts = {}) {
      const limit = Math.max(1, Math.floor(opts.limit ?? 100));
      const cols = selectList(SERVED_RUNS);
      const rows = (
        opts.workflowHash === undefined
          ? db.prepare(`SELECT ${cols} FROM served_runs ORDER BY id DESC LIMIT ?`).all(limit)
          : db
              .prepare(`SELECT ${cols} FROM served_runs WHERE workflow_hash = ? ORDER BY id DESC LIMIT ?`)
              .all(opts.workflowHash, limit)
      ) as Row[];
      return rows.map((r) => decodeRow(SERVED_RUNS, r, ctx));
    },
  };
}
