import { defineConfig } from 'vitest/config';

/**
 * The package's own test run (`npm test` in this folder): its unit tests in-process, the CLI over loopback.
 * Inside the repository the root configuration runs the same files as part of `npm test`.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**'],
    // Time limits catch hangs, not speed: the CLI tests start Chromium on a loaded machine.
    testTimeout: 90_000,
  },
});
