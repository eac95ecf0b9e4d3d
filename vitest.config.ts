import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'netlify/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
    globalSetup: ['tests/global-setup.ts'],
    reporters: ['default', './tests/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    // Integration suites share one build and one port each; two cores run two files at a time.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
