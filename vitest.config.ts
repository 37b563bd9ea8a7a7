import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects, so that a developer can run the fast tests alone (`npm run test:unit`) and `npm test`
 * runs both (README, "Tests"):
 *
 * - `unit`: the code's own tests beside it under `src/`, and the architecture checks. They run in
 *   this process's children only: no CLI run, no other process, browser or Redis. Each test has 30 s.
 * - `e2e`: everything under `test/` but the architecture checks: the CLI as a user runs it
 *   (`test/cli/`), child processes (workers, servers, MCP servers over stdio), the web UI in a
 *   browser, Redis, the built package, the docs and the benchmarks' pinned figures. A test may take
 *   as long as a real search does.
 *
 * Where a test file lives says which project runs it: a test that starts the CLI or another process
 * belongs under `test/`.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/architecture/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // One test process per core: vitest's default keeps a core for itself, which on 2 cores runs
          // the unit files one at a time (3 min 34 s against 2 min 34 s here, with other work running).
          maxWorkers: availableParallelism(),
          // Temporary files under one folder, removed when the run ends.
          globalSetup: ['./test/support/temp-root-global-setup.ts'],
          // Before the end-to-end project (a project with its own maxWorkers needs its own group).
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          sequence: { groupOrder: 1 },
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/architecture/**'],
          testTimeout: 900_000,
          hookTimeout: 900_000,
          // A real redis-server for the distributed-evaluation tests (or FLOWSCOUT_TEST_REDIS_URL).
          globalSetup: ['./test/support/temp-root-global-setup.ts', './test/support/redis-global-setup.ts'],
        },
      },
    ],
  },
});
