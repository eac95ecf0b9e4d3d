import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'netlify/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/**/*.test.ts'],
    globalSetup: ['tests/global-setup.ts'],
    reporters: ['default', './tests/summary-reporter.ts'],
    // Integration tests make dozens of sequential requests, each a fresh function worker in the
    // emulation (~0.5 s, several seconds on a loaded two-core machine): time limits catch hangs, not speed.
    testTimeout: 90_000,
    hookTimeout: 180_000,
    // One file at a time: every local runtime (@netlify/dev) rebuilds the function bundles under the
    // shared .netlify/functions-serve, so two at once can delete each other's files mid-request.
    fileParallelism: false,
  },
});
