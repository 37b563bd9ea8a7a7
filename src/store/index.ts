/** SQLite persistence of search runs, candidates, evaluations and the node memo cache. */
export { openStore, DEFAULT_DB_PATH, type OpenStoreOptions, type Store } from './open-store.js';
export { MIGRATIONS, SCHEMA_VERSION, migrate, type Migration } from './migrations.js';
export type { StoreQueries } from './queries.js';
export type * from './types.js';
