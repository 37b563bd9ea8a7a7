import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { FlowScoutError, isFlowScoutError } from '../errors/index.js';
import { fileSystemError, sqliteError } from '../errors/to-flowscout-error.js';
import { scrubSecrets, secretsFromEnv } from '../llm/secrets.js';
import { migrate } from './migrations.js';
import { createStoreQueries, type StoreQueries } from './queries.js';

/**
 * The search store: one SQLite file (better-sqlite3, WAL mode) holding
 * runs, candidates, per-iteration rows, per-record evaluations and the node memo cache, so a run can
 * be listed, shown and resumed after a crash. Every text written passes through `scrub` (API keys
 * from the environment and key-shaped strings are redacted), so no key is ever stored.
 */

/** Where the store lives unless `--db` says otherwise. */
export const DEFAULT_DB_PATH = '.flowscout/flowscout.db';

/** How the store is opened. */
export interface OpenStoreOptions {
  /** Redacts secrets from every text written (default: the keys in process.env and key-shaped strings). */
  scrub?: (text: string) => string;
  /** Open an existing file only (for `runs list/show`): a missing file is NOT_FOUND instead of being created. */
  mustExist?: boolean;
}

/** An open store. Close it when done. */
export interface Store extends StoreQueries {
  readonly file: string;
  close(): void;
}

/** better-sqlite3, loaded when a store is first opened (commands without a store, and `--help`, never load it). */
function loadSqlite(): typeof Database {
  return createRequire(import.meta.url)('better-sqlite3') as typeof Database;
}

/** Opens (creating if needed) the store at `file` and brings its schema up to date. */
export function openStore(file: string = DEFAULT_DB_PATH, opts: OpenStoreOptions = {}): Store {
  const path = file === ':memory:' ? file : resolve(file);
  if (path !== ':memory:') {
    if (!existsSync(path)) {
      if (opts.mustExist) {
        throw new FlowScoutError({ code: 'NOT_FOUND', message: `no FlowScout store at ${path}`, hint: 'Run `flowscout search` first, or pass the store file with --db.', location: { file: path } });
      }
      try {
        mkdirSync(dirname(path), { recursive: true });
      } catch (e) {
        throw (e instanceof Error && fileSystemError(e, dirname(path))) || e;
      }
    }
  }
  let db: Database.Database | undefined;
  try {
    db = new (loadSqlite())(path);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, path);
  } catch (e) {
    db?.close();
    if (isFlowScoutError(e)) throw e;
    throw unreadable(path, e);
  }
  const scrub = opts.scrub ?? ((text: string) => scrubSecrets(text, secretsFromEnv(process.env)));
  const queries = guarded(createStoreQueries(db, scrub), path);
  const handle = db;
  return { ...queries, file: path, close: () => handle.close() };
}

/**
 * Every query with SQLite's own failures turned into named errors: a page that is damaged, a disk
 * that is full, a file that became read-only surface as STORE_ERROR / FILE_ACCESS naming the store
 * and what to do, not as "a bug".
 */
function guarded(queries: StoreQueries, path: string): StoreQueries {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(queries) as Array<[string, (...args: unknown[]) => unknown]>) {
    out[name] = (...args: unknown[]) => {
      try {
        return fn(...args);
      } catch (e) {
        if (isFlowScoutError(e) || !(e instanceof Error)) throw e;
        throw sqliteError(e, path) ?? fileSystemError(e, path) ?? e;
      }
    };
  }
  return out as unknown as StoreQueries;
}

function unreadable(path: string, e: unknown): FlowScoutError {
  const code = (e as { code?: string }).code ?? '';
  if (e instanceof Error && code !== 'SQLITE_NOTADB') {
    const named = sqliteError(e, path) ?? fileSystemError(e, path);
    if (named) return named;
  }
  const reason = code === 'SQLITE_NOTADB' ? 'it is not a SQLite database' : code === 'SQLITE_CORRUPT' ? 'it is corrupt' : e instanceof Error ? e.message : String(e);
  return new FlowScoutError({
    code: 'STORE_ERROR',
    message: `cannot open the FlowScout store ${path}: ${reason}`,
    hint: 'Pass another file with --db (a new file is created), or move this one away.',
    location: { file: path },
  });
}
