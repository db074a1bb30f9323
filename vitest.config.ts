import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two test files at a time at least: vitest's default (cores - 1) runs one at a time on a 2-core
// machine, where a file mostly waits on its database, timers and child processes (the whole suite
// 1,328 → 651 s on PGlite, 893 → 516 s on PostgreSQL, 27 November 2026). Every file has its own
// database (test/harness.ts), its own ports and folders, so files never meet.

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
