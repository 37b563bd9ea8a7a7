import type Database from 'better-sqlite3';
import { FlowScoutError } from '../errors/index.js';

/**
 * The store's schema, versioned: each migration runs once, in order, inside
 * a transaction, and is recorded in `schema_migrations`. A database written by a newer FlowScout
 * (a version this code does not know) is refused with a clear message instead of being misread.
 */

/** One schema step. */
export interface Migration {
  version: number;
  description: string;
  sql: string;
}

/** Every schema step, in order. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'runs, candidates, iterations, evaluations, node memo',
    sql: `
      CREATE TABLE runs (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        status TEXT NOT NULL,
        stop_reason TEXT,
        seed INTEGER NOT NULL,
        strategy TEXT NOT NULL,
        config TEXT NOT NULL,
        policy_label TEXT NOT NULL,
        judge_label TEXT NOT NULL,
        optimizer_label TEXT NOT NULL,
        records_file TEXT,
        out_dir TEXT,
        iterations_done INTEGER NOT NULL DEFAULT 0,
        since_improvement INTEGER NOT NULL DEFAULT 0,
        best_candidate TEXT,
        usage TEXT,
        result TEXT
      );
      CREATE TABLE candidates (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        parent TEXT,
        iteration INTEGER NOT NULL,
        workflow TEXT,
        hash TEXT,
        plan TEXT,
        summary TEXT,
        opt_reward REAL,
        opt_tc REAL,
        opt_es REAL,
        feedback TEXT,
        val_score REAL,
        val_tc REAL,
        val_es REAL,
        visits INTEGER NOT NULL DEFAULT 0,
        w REAL NOT NULL DEFAULT 0,
        q REAL NOT NULL DEFAULT 0,
        error TEXT,
        duplicate_of TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, id)
      );
      CREATE INDEX candidates_hash ON candidates (run_id, hash);
      CREATE TABLE iterations (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        iteration INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (run_id, iteration)
      );
      CREATE TABLE evaluations (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        candidate_id TEXT NOT NULL,
        split TEXT NOT NULL,
        record_id TEXT NOT NULL,
        tc REAL NOT NULL,
        es REAL NOT NULL,
        dims TEXT NOT NULL,
        answer TEXT NOT NULL,
        calls TEXT NOT NULL,
        error TEXT,
        PRIMARY KEY (run_id, candidate_id, split, record_id)
      );
      CREATE TABLE node_memo (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        observation TEXT NOT NULL,
        PRIMARY KEY (run_id, key)
      );
    `,
  },
  {
    version: 2,
    description:
      'per-record traces of evaluated candidates, the records of each run, the process that owns a running run',
    sql: `
      ALTER TABLE evaluations ADD COLUMN trace BLOB;
      ALTER TABLE runs ADD COLUMN owner TEXT;
      CREATE TABLE run_records (
        run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        record_id TEXT NOT NULL,
        split TEXT NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (run_id, record_id)
      );
    `,
  },
  {
    version: 3,
    description: 'the inputs a run is bound to (hashes), and the lock of the process driving a run',
    sql: `
      ALTER TABLE runs ADD COLUMN inputs TEXT;
      CREATE TABLE run_locks (
        run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        acquired_at TEXT NOT NULL,
        heartbeat_at TEXT NOT NULL
      );
    `,
  },
  {
    version: 4,
    description: 'served runs (flowscout serve): one trace per answered request',
    sql: `
      CREATE TABLE served_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at TEXT NOT NULL,
        workflow TEXT NOT NULL,
        workflow_hash TEXT,
        transport TEXT NOT NULL,
        policy_label TEXT NOT NULL,
        query TEXT NOT NULL,
        status TEXT NOT NULL,
        answer TEXT NOT NULL,
        error TEXT,
        duration_ms REAL NOT NULL,
        trace TEXT NOT NULL
      );
      CREATE INDEX served_runs_by_workflow ON served_runs (workflow_hash, created_at);
    `,
  },
  {
    version: 5,
    description: "served runs' fitness and health against the workflow, scored as each run is stored",
    sql: `
      ALTER TABLE served_runs ADD COLUMN fitness REAL;
      ALTER TABLE served_runs ADD COLUMN health REAL;
    `,
  },
];

/** The newest schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Brings the database to SCHEMA_VERSION; refuses a database from a newer version. */
export function migrate(db: Database.Database, file: string): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  const current = row.v ?? 0;
  if (current > SCHEMA_VERSION) {
    throw new FlowScoutError({
      code: 'STORE_ERROR',
      message: `the store ${file} has schema version ${current}, newer than this FlowScout understands (${SCHEMA_VERSION})`,
      hint: 'Upgrade FlowScout, or pass another file with --db.',
      location: { file },
    });
  }
  const insert = db.prepare('INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)');
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      insert.run(m.version, m.description, new Date().toISOString());
    })();
  }
}
