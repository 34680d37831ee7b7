import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/summary-reporter.js';

export default defineConfig({
  test: {
    environment: 'node',
    // Forks keep native modules (better-sqlite3, sharp) isolated per file.
    pool: 'forks',
    // Most files wait on sockets, timers and child processes, not the CPU: three at once on two cores halves the run
    // (vitest's default here would be one). No test may depend on the machine's speed, so they stay correct.
    maxWorkers: 3,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default', new SummaryReporter()],
    // Two projects so the renderer build runs only in a run with an e2e file: vitest starts a project's global setup
    // only when one of its files is in the run. Both run together, in the one pool.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/faults/**/*.test.ts'],
        },
      },
      // One Vite build for every e2e file of the run (test/e2e/global-setup.ts); `buildRenderer()` hands it out.
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/e2e/global-setup.ts'] },
      },
    ],
  },
});
