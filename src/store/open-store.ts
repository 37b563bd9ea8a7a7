import { accessSync, constants, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type Database from 'better-sqlite3';
import { FlowScoutError, isFlowScoutError } from '../errors/index.js';
import { fileSystemError, sqliteError } from '../errors/to-flowscout-error.js';
import { scrubSecrets, secretsFromEnv } from '../llm/secrets.js';
import { migrate, SCHEMA_VERSION } from './migrations.js';
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
  /**
   * Open for reading only (`runs list/show`, `ui`): nothing is written, so a store on a read-only
   * disk, or a file the user may not write, can be read. Implies `mustExist`. A store written by an
   * older FlowScout is brought up to date first when its file can be written.
   */
  readOnly?: boolean;
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
    if (existsSync(path) && statSync(path).isDirectory()) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `the store ${path} is a directory, not a file`,
        hint: `Pass the store's file with --db, for example --db ${join(file, 'flowscout.db')}.`,
        location: { file: path },
      });
    }
    if (!existsSync(path)) {
      if (opts.mustExist || opts.readOnly) {
        throw new FlowScoutError({
          code: 'NOT_FOUND',
          message: `no FlowScout store at ${path}`,
          hint: 'Run `flowscout search` first, or pass the store file with --db.',
          location: { file: path },
        });
      }
      try {
        mkdirSync(dirname(path), { recursive: true });
      } catch (e) {
        throw (e instanceof Error && fileSystemError(e, dirname(path))) || e;
      }
    }
  }
  let db: Database.Database | undefined;
  if (opts.readOnly && path !== ':memory:') db = openReadOnly(path);
  try {
    if (db) {
      db.pragma('busy_timeout = 5000');
    } else {
      db = new (loadSqlite())(path);
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      migrate(db, path);
    }
  } catch (e) {
    db?.close();
    if (isFlowScoutError(e)) throw e;
    throw unreadable(path, e);
  }
  const scrub = opts.scrub ?? ((text: string) => scrubSecrets(text, secretsFromEnv(process.env)));
  const queries = guarded(createStoreQueries(db, scrub, path), path);
  const handle = db;
  return { ...queries, file: path, close: () => handle.close() };
}

/**
 * The store opened for reading, or undefined when it must be opened for writing first (a store of an
 * older schema that this process may bring up to date). SQLite reads a WAL store through a shared-memory
 * file beside it; on a read-only disk (or a folder the user may not write) that file cannot be made,
 * so the store's bytes are read into memory and opened there — exact when no write-ahead log is
 * pending, which is the case on a disk nobody can write to.
 */
function openReadOnly(path: string): Database.Database | undefined {
  const Sqlite = loadSqlite();
  let db: Database.Database | undefined;
  try {
    db = new Sqlite(path, { readonly: true, fileMustExist: true });
    return upToDateOrUpgrade(db, path);
  } catch (e) {
    db?.close();
    if (isFlowScoutError(e)) throw e;
    const code = String((e as { code?: unknown }).code ?? '');
    if (!code.startsWith('SQLITE_READONLY') && code !== 'SQLITE_CANTOPEN') throw unreadable(path, e);
  }
  const wal = `${path}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new FlowScoutError({
      code: 'FILE_ACCESS',
      message: `the store ${path} has unfinished writes in ${wal}, and its folder cannot be written`,
      hint: 'Open it once where its folder is writable (any `flowscout runs list` does), or copy the store and both files beside it to a writable folder.',
      location: { file: path },
    });
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw (e instanceof Error && fileSystemError(e, path)) || e;
  }
  // Bytes 18-19 say "WAL"; an in-memory copy has no log, so it reads as a rollback-journal file.
  if (bytes.length >= 20) bytes[18] = bytes[19] = 1;
  try {
    db = new Sqlite(bytes, { readonly: true });
    return upToDateOrUpgrade(db, path);
  } catch (e) {
    db?.close();
    if (isFlowScoutError(e)) throw e;
    throw unreadable(path, e);
  }
}

/** `db` when its schema is current; otherwise it is closed and the store is opened to be brought up to date. */
function upToDateOrUpgrade(db: Database.Database, path: string): Database.Database | undefined {
  if (schemaVersion(db, path) >= SCHEMA_VERSION) return db;
  db.close();
  return writableToUpgrade(path);
}

/** The store's schema version; a version newer than this code knows is refused (as `migrate` does). */
function schemaVersion(db: Database.Database, path: string): number {
  const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (!table) return 0;
  const version = (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  if (version > SCHEMA_VERSION) {
    throw new FlowScoutError({
      code: 'STORE_ERROR',
      message: `the store ${path} has schema version ${version}, newer than this FlowScout understands (${SCHEMA_VERSION})`,
      hint: 'Upgrade FlowScout, or pass another file with --db.',
      location: { file: path },
    });
  }
  return version;
}

/** A store of an older schema: undefined (open it for writing, which migrates) when its file can be written. */
function writableToUpgrade(path: string): undefined {
  try {
    accessSync(path, constants.W_OK);
    accessSync(dirname(path), constants.W_OK);
    return undefined;
  } catch {
    throw new FlowScoutError({
      code: 'STORE_ERROR',
      message: `the store ${path} was written by an older FlowScout and cannot be brought up to date here (it is read-only)`,
      hint: 'Copy it to a writable folder and open the copy once (e.g. `flowscout runs list --db <copy>`).',
      location: { file: path },
    });
  }
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
  const reason =
    code === 'SQLITE_NOTADB'
      ? 'it is not a SQLite database'
      : code === 'SQLITE_CORRUPT'
        ? 'it is corrupt'
        : e instanceof Error
          ? e.message
          : String(e);
  return new FlowScoutError({
    code: 'STORE_ERROR',
    message: `cannot open the FlowScout store ${path}: ${reason}`,
    hint: 'Pass another file with --db (a new file is created), or move this one away.',
    location: { file: path },
  });
}
