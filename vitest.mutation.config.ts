/**
 * The Vitest project `unit` alone, for mutation testing (stryker.config.mjs, `npm run mutation`):
 * the in-process tests, without the test build (they read no build output) or the other projects.
 */
import { defineConfig } from 'vitest/config';
import { UNIT_FILES } from './vitest.config.ts';

export default defineConfig({
  test: {
    name: 'unit',
    environment: 'node',
    include: UNIT_FILES,
    // As in vitest.config.ts: time limits catch hangs; Stryker's own timeout judges each mutant.
    testTimeout: 90_000,
    hookTimeout: 180_000,
    isolate: false,
  },
});
