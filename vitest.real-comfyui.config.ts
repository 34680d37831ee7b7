import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/summary-reporter.js';
import StrictReporter from './test/real-comfyui/strict-reporter.js';

// The real ComfyUI suite (`npm run test:real-comfyui`): one real server on a CPU, so files run one after another
// with generous timeouts; never part of `vitest run`, which must pass without the kit.
export default defineConfig({
  test: {
    include: ['test/real-comfyui/**/*.test.ts'],
    globalSetup: ['test/real-comfyui/global-setup.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
    passWithNoTests: false,
    reporters: ['default', new SummaryReporter(), new StrictReporter()],
  },
});
