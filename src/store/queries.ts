import { hostname } from 'node:os';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { FlowScoutError } from '../errors/index.js';
import type { CandidateRow, EvaluationRow, IterationCommit, RunLock, RunRecordRow, RunRow, ServedRunRow } from './types.js';

/**
 * The store's reads and writes (see open-store.ts). JSON columns are written through `scrub` and
 * parsed back on read. `commitIteration` writes everything one search iteration produced in one
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
  acquireLock(runId: string, holder: { pid: number; host: string }, isStale: (lock: RunLock) => boolean): { heldBy?: RunLock; replaced?: RunLock };
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

/** The store's statements over an open database. */
export function createStoreQueries(db: Database.Database, scrub: (text: string) => string): StoreQueries {
  const json = (v: unknown): string | null => (v === undefined ? null : scrub(JSON.stringify(v)));
  const text = (v: string | undefined | null): string | null => (v === undefined || v === null ? null : scrub(v));
  const now = () => new Date().toISOString();

  const insertRun = db.prepare(`INSERT INTO runs (id, created_at, updated_at, status, stop_reason, seed, strategy, config, policy_label, judge_label,
    optimizer_label, records_file, out_dir, iterations_done, since_improvement, best_candidate, usage, owner)
    VALUES (@id, @created_at, @updated_at, @status, @stop_reason, @seed, @strategy, @config, @policy_label, @judge_label,
    @optimizer_label, @records_file, @out_dir, @iterations_done, @since_improvement, @best_candidate, @usage, @owner)`);
  const upsertCandidate = db.prepare(`INSERT INTO candidates (run_id, id, seq, parent, iteration, workflow, hash, plan, summary, opt_reward, opt_tc, opt_es,
    feedback, val_score, val_tc, val_es, visits, w, q, error, duplicate_of, created_at)
    VALUES (@run_id, @id, @seq, @parent, @iteration, @workflow, @hash, @plan, @summary, @opt_reward, @opt_tc, @opt_es,
    @feedback, @val_score, @val_tc, @val_es, @visits, @w, @q, @error, @duplicate_of, @created_at)
    ON CONFLICT (run_id, id) DO UPDATE SET visits = excluded.visits, w = excluded.w, q = excluded.q,
    val_score = excluded.val_score, val_tc = excluded.val_tc, val_es = excluded.val_es`);
  const insertEval = db.prepare(`INSERT OR REPLACE INTO evaluations (run_id, candidate_id, split, record_id, tc, es, dims, answer, calls, error, trace)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertRecord = db.prepare('INSERT OR IGNORE INTO run_records (run_id, record_id, split, record) VALUES (?, ?, ?, ?)');
  // A trace is JSON, scrubbed like every other text, then deflated: traces repeat their keys and
  // tool outputs, so they shrink several-fold.
  const blob = (v: unknown): Buffer | null => (v === undefined ? null : deflateRawSync(Buffer.from(json(v)!, 'utf8')));
  const owner = () => JSON.stringify({ pid: process.pid, host: hostname() });
  const insertMemo = db.prepare('INSERT OR IGNORE INTO node_memo (run_id, key, observation) VALUES (?, ?, ?)');
  const insertServed = db.prepare(`INSERT INTO served_runs (created_at, workflow, workflow_hash, transport, policy_label, query, status, answer, error, duration_ms, trace)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertIteration = db.prepare('INSERT OR REPLACE INTO iterations (run_id, iteration, data) VALUES (?, ?, ?)');

  const getRun = (id: string): RunRow => {
    const row = db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as Row | undefined;
    if (row) return toRun(row);
    const known = (db.prepare('SELECT id FROM runs ORDER BY created_at DESC LIMIT 10').all() as Array<{ id: string }>).map((r) => r.id);
    throw new FlowScoutError({
      code: 'NOT_FOUND',
      message: `no run '${id}' in the store`,
      hint: known.length ? `Known runs (newest first): ${known.join(', ')}. \`flowscout runs list\` shows them all.` : 'The store has no runs yet; start one with `flowscout search`.',
    });
  };

  const updateRun = (id: string, patch: IterationCommit['run']): void => {
    const cols: Record<string, unknown> = { updated_at: now() };
    if (patch.status !== undefined) cols.status = patch.status;
    if (patch.status === 'running') cols.owner = owner();
    if (patch.stopReason !== undefined) cols.stop_reason = text(patch.stopReason);
    if (patch.iterationsDone !== undefined) cols.iterations_done = patch.iterationsDone;
    if (patch.sinceImprovement !== undefined) cols.since_improvement = patch.sinceImprovement;
    if (patch.bestCandidate !== undefined) cols.best_candidate = patch.bestCandidate;
    if (patch.usage !== undefined) cols.usage = json(patch.usage);
    if (patch.outDir !== undefined) cols.out_dir = text(patch.outDir);
    if (patch.result !== undefined) cols.result = json(patch.result);
    if (patch.inputs !== undefined) cols.inputs = json(patch.inputs);
    const set = Object.keys(cols).map((k) => `${k} = @${k}`).join(', ');
    db.prepare(`UPDATE runs SET ${set} WHERE id = @id`).run({ ...cols, id });
  };

  const commit = db.transaction((runId: string, c: IterationCommit) => {
    const created = now();
    for (const cand of c.candidates) upsertCandidate.run(candidateParams(runId, cand, created, json, text));
    for (const e of c.evaluations ?? []) {
      insertEval.run(runId, e.candidateId, e.split, e.recordId, e.tc, e.es, json(e.dims), text(e.answer), json(e.calls), text(e.error), blob(e.trace));
    }
    for (const r of c.records ?? []) insertRecord.run(runId, r.recordId, r.split, json(r.record));
    for (const m of c.memo ?? []) insertMemo.run(runId, m.key, json(m.observation));
    if (c.iteration) insertIteration.run(runId, c.iteration.iteration, json(c.iteration.data));
    updateRun(runId, c.run);
  });

  const getLock = (runId: string): RunLock | undefined => {
    const r = db.prepare('SELECT pid, host, acquired_at, heartbeat_at FROM run_locks WHERE run_id = ?').get(runId) as Row | undefined;
    return r ? { pid: r.pid as number, host: r.host as string, acquiredAt: r.acquired_at as string, heartbeatAt: r.heartbeat_at as string } : undefined;
  };
  const acquire = db.transaction((runId: string, holder: { pid: number; host: string }, isStale: (lock: RunLock) => boolean) => {
    const held = getLock(runId);
    if (held && !(held.pid === holder.pid && held.host === holder.host) && !isStale(held)) return { heldBy: held };
    const at = now();
    db.prepare('INSERT OR REPLACE INTO run_locks (run_id, pid, host, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)').run(runId, holder.pid, holder.host, at, at);
    return held && held.pid !== holder.pid ? { replaced: held } : {};
  });

  return {
    getLock,
    acquireLock: (runId, holder, isStale) => acquire.immediate(runId, holder, isStale),
    touchLock: (runId, pid) => void db.prepare('UPDATE run_locks SET heartbeat_at = ? WHERE run_id = ? AND pid = ?').run(now(), runId, pid),
    releaseLock: (runId, pid) => void db.prepare('DELETE FROM run_locks WHERE run_id = ? AND pid = ?').run(runId, pid),
    createRun(run) {
      const at = now();
      insertRun.run({
        owner: run.status === 'running' ? owner() : null,
        id: run.id,
        created_at: at,
        updated_at: at,
        status: run.status,
        stop_reason: text(run.stopReason),
        seed: run.seed,
        strategy: run.strategy,
        config: json(run.config),
        policy_label: text(run.policyLabel),
        judge_label: text(run.judgeLabel),
        optimizer_label: text(run.optimizerLabel),
        records_file: text(run.recordsFile),
        out_dir: text(run.outDir),
        iterations_done: run.iterationsDone,
        since_improvement: run.sinceImprovement,
        best_candidate: run.bestCandidate ?? null,
        usage: json(run.usage),
      });
      if (run.inputs) updateRun(run.id, { inputs: run.inputs });
      return getRun(run.id);
    },
    getRun,
    listRuns: () => (db.prepare('SELECT * FROM runs ORDER BY created_at DESC, id').all() as Row[]).map(toRun),
    updateRun,
    loadCandidates: (runId) => (db.prepare('SELECT * FROM candidates WHERE run_id = ? ORDER BY seq').all(runId) as Row[]).map(toCandidate),
    loadIterations: (runId) =>
      (db.prepare('SELECT iteration, data FROM iterations WHERE run_id = ? ORDER BY iteration').all(runId) as Array<{ iteration: number; data: string }>).map((r) => ({
        iteration: r.iteration,
        data: JSON.parse(r.data) as Record<string, unknown>,
      })),
    loadEvaluations: (runId, candidateId) =>
      (
        db
          .prepare('SELECT candidate_id, split, record_id, tc, es, dims, answer, calls, error FROM evaluations WHERE run_id = ? AND candidate_id = ? ORDER BY split, record_id')
          .all(runId, candidateId) as Row[]
      ).map(toEvaluation),
    loadRecordTrace: (runId, candidateId, split, recordId) => {
      const row = db.prepare('SELECT trace FROM evaluations WHERE run_id = ? AND candidate_id = ? AND split = ? AND record_id = ?').get(runId, candidateId, split, recordId) as { trace: Buffer | null } | undefined;
      return row?.trace ? (JSON.parse(inflateRawSync(row.trace).toString('utf8')) as unknown) : undefined;
    },
    loadRunRecords: (runId) =>
      (db.prepare('SELECT record_id, split, record FROM run_records WHERE run_id = ? ORDER BY rowid').all(runId) as Array<{ record_id: string; split: RunRecordRow['split']; record: string }>).map((r) => ({
        recordId: r.record_id,
        split: r.split,
        record: JSON.parse(r.record) as unknown,
      })),
    loadMemo: (runId) =>
      (db.prepare('SELECT key, observation FROM node_memo WHERE run_id = ?').all(runId) as Array<{ key: string; observation: string }>).map((r) => ({
        key: r.key,
        observation: JSON.parse(r.observation) as unknown,
      })),
    commitIteration: (runId, c) => commit(runId, c),
    recordServedRun(run) {
      const info = insertServed.run(now(), text(run.workflow), run.workflowHash ?? null, run.transport, text(run.policyLabel), text(run.query), run.status, text(run.answer), text(run.error), run.durationMs, json(run.trace));
      return Number(info.lastInsertRowid);
    },
    listServedRuns(opts = {}) {
      const limit = Math.max(1, Math.floor(opts.limit ?? 100));
      const rows = (
        opts.workflowHash === undefined
          ? db.prepare('SELECT * FROM served_runs ORDER BY id DESC LIMIT ?').all(limit)
          : db.prepare('SELECT * FROM served_runs WHERE workflow_hash = ? ORDER BY id DESC LIMIT ?').all(opts.workflowHash, limit)
      ) as Row[];
      return rows.map(toServedRun);
    },
  };
}

function toServedRun(r: Row): ServedRunRow {
  return {
    id: r.id as number,
    createdAt: r.created_at as string,
    workflow: r.workflow as string,
    ...(r.workflow_hash !== null ? { workflowHash: r.workflow_hash as string } : {}),
    transport: r.transport as string,
    policyLabel: r.policy_label as string,
    query: r.query as string,
    status: r.status as ServedRunRow['status'],
    answer: r.answer as string,
    ...(r.error !== null ? { error: r.error as string } : {}),
    durationMs: r.duration_ms as number,
    trace: parse(r.trace),
  };
}

function candidateParams(runId: string, c: CandidateRow, created: string, json: (v: unknown) => string | null, text: (v: string | undefined) => string | null) {
  return {
    run_id: runId,
    id: c.id,
    seq: c.seq,
    parent: c.parent,
    iteration: c.iteration,
    workflow: json(c.workflow),
    hash: c.hash ?? null,
    plan: json(c.plan),
    summary: text(c.summary),
    opt_reward: c.optReward ?? null,
    opt_tc: c.optTc ?? null,
    opt_es: c.optEs ?? null,
    feedback: json(c.feedback),
    val_score: c.valScore ?? null,
    val_tc: c.valTc ?? null,
    val_es: c.valEs ?? null,
    visits: c.visits,
    w: c.w,
    q: c.q,
    error: text(c.error),
    duplicate_of: c.duplicateOf ?? null,
    created_at: created,
  };
}

const parse = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : undefined);
const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

function toRun(r: Row): RunRow {
  const run: RunRow = {
    id: r.id as string,
    createdAt: r.created_at as string,
    updatedAt: r.updated_at as string,
    status: r.status as RunRow['status'],
    seed: r.seed as number,
    strategy: r.strategy as string,
    config: parse(r.config) as Record<string, unknown>,
    policyLabel: r.policy_label as string,
    judgeLabel: r.judge_label as string,
    optimizerLabel: r.optimizer_label as string,
    iterationsDone: r.iterations_done as number,
    sinceImprovement: r.since_improvement as number,
  };
  const extra = { owner: parse(r.owner), stopReason: opt(r.stop_reason), recordsFile: opt(r.records_file), outDir: opt(r.out_dir), bestCandidate: opt(r.best_candidate), usage: parse(r.usage), result: parse(r.result), inputs: parse(r.inputs) };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (run as unknown as Row)[k] = v;
  return run;
}

function toCandidate(r: Row): CandidateRow {
  const c: CandidateRow = { id: r.id as string, seq: r.seq as number, parent: (r.parent as string | null) ?? null, iteration: r.iteration as number, visits: r.visits as number, w: r.w as number, q: r.q as number };
  const extra: Row = {
    workflow: parse(r.workflow),
    hash: opt(r.hash),
    plan: parse(r.plan),
    summary: opt(r.summary),
    optReward: opt(r.opt_reward),
    optTc: opt(r.opt_tc),
    optEs: opt(r.opt_es),
    feedback: parse(r.feedback),
    valScore: opt(r.val_score),
    valTc: opt(r.val_tc),
    valEs: opt(r.val_es),
    error: opt(r.error),
    duplicateOf: opt(r.duplicate_of),
  };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (c as unknown as Row)[k] = v;
  return c;
}

function toEvaluation(r: Row): EvaluationRow {
  const e: EvaluationRow = {
    candidateId: r.candidate_id as string,
    split: r.split as EvaluationRow['split'],
    recordId: r.record_id as string,
    tc: r.tc as number,
    es: r.es as number,
    dims: parse(r.dims) as Record<string, number>,
    answer: r.answer as string,
    calls: parse(r.calls) as unknown[],
  };
  if (r.error !== null && r.error !== undefined) e.error = r.error as string;
  return e;
}
