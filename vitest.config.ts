import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 900_000,
    hookTimeout: 900_000,
    pool: 'forks',
    // A real redis-server for the distributed-evaluation tests (or FLOWSCOUT_TEST_REDIS_URL).
    globalSetup: ['./test/support/redis-global-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
