import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/summary-reporter.js';

const UNIT_DIRS = ['test/unit', 'test/integration', 'test/faults'];
const unitFiles = UNIT_DIRS.flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join(dir, file).replaceAll('\\', '/')),
);
// A file that replaces modules or globals (vi.mock and kin) gets module instances of its own; every other unit file
// shares its worker's loaded modules with the files before it, which saves most of the run's import time.
const MOCKS = /\bvi\.(mock|doMock|spyOn|stubGlobal|stubEnv|resetModules)\(/;
const isolatedFiles = unitFiles.filter((file) => MOCKS.test(readFileSync(file, 'utf8')));

export default defineConfig({
  test: {
    environment: 'node',
    // Forks keep native modules (better-sqlite3, sharp) isolated per file.
    pool: 'forks',
    // Unit files mostly wait on sockets, timers and child processes, not the CPU: two at once on two cores (vitest's
    // default here would be one). The e2e project overrides it below.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ['default', new SummaryReporter()],
    // e2e is a project of its own so the renderer build runs only in a run with an e2e file: vitest starts a
    // project's global setup only when one of its files is in the run. It runs as a second group, after the unit files.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/faults/**/*.test.ts'],
          exclude: isolatedFiles,
          isolate: false,
        },
      },
      { extends: true, test: { name: 'unit-isolated', include: isolatedFiles } },
      // One Vite build for every e2e file of the run (test/e2e/global-setup.ts); `buildRenderer()` hands it out.
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          // After the unit files, one at a time: a browser driven alongside other work misses frames and clicks.
          sequence: { groupOrder: 1 },
          maxWorkers: 1,
          // A limit, not a measure (speed lives in bench/).
          testTimeout: 60_000,
        },
      },
    ],
  },
});
