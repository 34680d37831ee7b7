import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/summary-reporter.js';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/faults/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    environment: 'node',
    // Two cores here: forks keep native modules (better-sqlite3, sharp) isolated per file.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default', new SummaryReporter()],
  },
});
