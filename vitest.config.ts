import { defineConfig } from 'vitest/config';
import { Port8899Sequencer, PORT_8899_PROJECT } from './tests/port-8899-sequencer.ts';
import { TEST_PORT_WAIT_MS } from './tests/support/test-port.ts';

/**
 * Files that hold the test origin's port (8899: the test build bakes http://localhost:8899 into its
 * links and OAuth issuer, so link-following clients and browsers must reach that port): one at a
 * time, each waiting for the port (tests/support/test-port.ts), alongside the other files.
 */
const PORT_8899_FILES = [
  'tests/integration/a2a.test.ts',
  'tests/browser/oauth.browser.test.ts',
  'tests/browser/site-origin.browser.test.ts',
  // The reader-interface tests navigate with the test origin's absolute URLs (hreflang, page actions).
  'tests/browser/site-ui.browser.test.ts',
  'tests/integration/agent-journey.test.ts',
  'tests/integration/agent-ready.test.ts',
  'tests/integration/oauth-cimd.test.ts',
  'tests/integration/oauth-clients.test.ts',
  'tests/integration/oauth-conformance.test.ts',
  'tests/integration/oauth-refresh.test.ts',
  'tests/integration/web-bot-auth.test.ts',
];

/**
 * The in-process tests beside the code (core, Astro side, browser code, the functions' shared parts,
 * the build's pure parts, the audit tool): no build, no server, no child process. Pagefind's own
 * tests start its binary and stay in `parallel`. Integration tests stay isolated: they set keys and
 * environment per file (tried without isolation: 5 failures).
 */
export const UNIT_FILES = [
  'src/core/**/*.test.ts',
  // The chokidar workaround's test waits on a real file watcher's timing: it runs with the runtime tests.
  'src/astro/!(chokidar-dropped-changes).test.ts',
  'src/astro/integrations/*.test.ts',
  'src/browser/**/*.test.ts',
  'netlify/functions/_shared/*.test.ts',
  'scripts/build.test.ts',
  'scripts/runtime/compression.test.ts',
  'scripts/runtime/edge.test.ts',
  'scripts/runtime/npm-parent.test.ts',
  'scripts/runtime/workarounds.test.ts',
  'tools/agent-ready/*.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    // Builds the site for the test origin when stale, unless only the in-process project runs (tests/global-setup.ts).
    globalSetup: ['tests/global-setup.ts'],
    reporters: ['default', './tests/summary-reporter.ts'],
    // Time limits catch hangs, not speed: a loaded two-core machine can be many times slower.
    testTimeout: 90_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 30_000 } },
    // Both projects share one group (same groupOrder and maxWorkers), so the port files overlap with
    // the rest; this order keeps two of them from waiting on each other (tests/port-8899-sequencer.ts).
    sequence: { sequencer: Port8899Sequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT_FILES,
          // In-process tests of runtime-neutral code: one module graph per worker instead of one per
          // file (src/: 39.6 → 10.3 CPU-seconds, BENCHMARKS.md "Test suite"). They share no state
          // that outlives a test: they pass in any file order on one worker (--sequence.shuffle.files).
          isolate: false,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          // No build: the in-process tests need none, so `npm run test:unit` starts at once after any edit.
        },
      },
      {
        extends: true,
        test: {
          name: 'parallel',
          include: ['src/**/*.test.ts', 'netlify/**/*.test.ts', 'scripts/**/*.test.ts', 'tools/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: [...PORT_8899_FILES, ...UNIT_FILES],
          // Safe in parallel: every runtime is in-process or on a free port with its own Blobs folder
          // (tests/support/runtime.ts), and nothing writes per-request bundles any more (@netlify/dev
          // did, under the shared .netlify/functions-serve; only the parity test still starts it).
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: PORT_8899_PROJECT,
          include: PORT_8899_FILES,
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
          // A file's beforeAll may wait for the port while another file (or another run) holds it.
          hookTimeout: TEST_PORT_WAIT_MS + 180_000,
        },
      },
    ],
  },
});
