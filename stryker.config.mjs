// @ts-check
/**
 * Mutation testing of the privilege and safety boundaries (`npm run mutation`; docs/mutation-testing.md):
 * StrykerJS plants small bugs in the OAuth server, the kernel and the MCP server and runs the in-process
 * tests (the Vitest project `unit`, vitest.mutation.config.ts) against each; a bug no test notices survives.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  // The OpenAPI fragments (oauth/openapi.ts, kernel/openapi.ts) are descriptions, checked against the answers by
  // tests/integration/openapi-responses.test.ts, not by in-process tests: their string mutants say nothing about behaviour.
  mutate: ['src/core/oauth/**/!(*.test|openapi).ts', 'src/core/kernel/**/!(*.test|openapi).ts', 'src/core/mcp/server.ts'],
  coverageAnalysis: 'perTest',
  // Two cores, shared: one test runner per core.
  concurrency: 2,
  // Only mutants whose code or covering tests changed since the last run are tested again.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, reportTests: false, reportMutants: false, reportScoreTable: true },
  thresholds: { high: 90, low: 85, break: null },
  // A loaded machine runs a covering test several times slower than the dry run measured.
  timeoutMS: 20_000,
  // The sandbox needs the sources and tests, not the build output or benchmark corpora.
  ignorePatterns: ['dist', 'generated', '.netlify', '.astro', 'bench/.corpus', 'bench/.out', 'tests/.tmp', 'reports', '.stryker-tmp*'],
  tempDirName: '.stryker-tmp',
};
