import { defineConfig } from 'vitest/config';

/**
 * `npm run test:electron` (test/electron/run.ts): the real app in real Electron, one app at a time. Not part of
 * `npm test`. The packaged-app check joins only when ATELIER_PACKAGED_APP names an unpacked build.
 */
export default defineConfig({
  test: {
    include: ['test/electron/**/*.test.ts'],
    exclude: process.env['ATELIER_PACKAGED_APP'] ? [] : ['test/electron/packaged.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
