/**
 * `npm run deploy:check`: Netlify's real build pipeline (@netlify/build, offline) over the test
 * build must deploy the routes the local runtime serves, with every function archive complete, and
 * the comparison itself must notice a drift. Offline and bounded: the pipeline reuses the current
 * build (its build command is scripts/build.ts) and skips edge-function bundling, which needs the
 * network. It touches only .netlify/functions, .netlify/v1 (restored by the build command) and a
 * temporary folder; no runtime reads those (scripts/runtime/deploy-blobs.ts seeds from generated/).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deployCheck, manifestDifferences, type ManifestFunction, runFromArchive } from '../../scripts/deploy-check.ts';

const search: ManifestFunction = {
  name: 'api-search',
  schedule: null,
  routes: [{ pattern: '/api/search', match: '/api/search', methods: [], preferStatic: false }],
  excludedRoutes: [],
};
const sweep: ManifestFunction = { name: 'oauth-sweep', schedule: '@hourly', routes: [], excludedRoutes: [] };

describe('deploy check', () => {
  it('names every drift between the deployed manifest and the runtime table', () => {
    expect(manifestDifferences([search, sweep], [search, sweep])).toEqual([]);
    expect(manifestDifferences([search], [search, sweep])).toEqual(['oauth-sweep: served by the runtime, not deployed by Netlify']);
    expect(manifestDifferences([search, sweep], [search])).toEqual(['oauth-sweep: deployed by Netlify, unknown to the runtime']);
    expect(manifestDifferences([{ ...sweep, schedule: '@daily' }], [sweep])).toEqual([
      'oauth-sweep.schedule: Netlify "@daily", runtime "@hourly"',
    ]);
    const moved = { ...search, routes: [{ ...search.routes[0]!, pattern: '/api/find', match: '/api/find' }] };
    expect(manifestDifferences([moved], [search])[0]).toMatch(/^api-search\.routes: Netlify .*\/api\/find.*runtime .*\/api\/search/);
    expect(manifestDifferences([{ ...search, excludedRoutes: [{ pattern: '/api/x', match: '/api/x' }] }], [search])[0]).toMatch(
      /^api-search\.excludedRoutes/,
    );
  });

  it("a function that fails from its archive is reported with its own error's first lines (the message naming the variable)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deploy-check-'));
    try {
      mkdirSync(path.join(dir, 'netlify', 'functions'), { recursive: true });
      // As a function whose configuration is read at import: a malformed OAUTH_SIGNING_KEYS stops it there.
      const message = 'Invalid environment variable OAUTH_SIGNING_KEYS: OAUTH_SIGNING_KEYS is not JSON';
      writeFileSync(
        path.join(dir, 'netlify', 'functions', 'health.mjs'),
        `const keys = () => { throw new Error(${JSON.stringify(message)}); };\nkeys();\nexport default () => new Response('ok');\n`,
      );
      expect(await runFromArchive(dir, 'health')).toBe(`health: run from its archive, it failed: Error: ${message}`);
      // An answer that is not the expected one is reported with its status and body.
      writeFileSync(path.join(dir, 'netlify', 'functions', 'health.mjs'), `export default () => new Response('down', { status: 503 });\n`);
      expect(await runFromArchive(dir, 'health')).toBe('health: run from its archive, it failed: 503 down');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Netlify's offline build deploys what the runtime serves: same routes, complete archives, every body as a deploy blob", async () => {
    const result = await deployCheck();
    expect(result.lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
    expect(result.ok).toBe(true);
    const functionCount = readdirSync(path.join(import.meta.dirname, '../../netlify/functions')).filter((f) => f.endsWith('.mts')).length;
    expect(result.lines.join('\n')).toContain(`functions manifest = runtime route table: ${functionCount} functions`);
    expect(result.lines.join('\n')).toMatch(
      /mcp: archive holds generated\/data\/search\/\*, generated\/data\/catalog\/\* \([\d.]+ MB zipped\); answered when run from it/,
    );
    expect(result.lines.join('\n')).toMatch(/edge functions: skipped/);
  }, 300_000);
});
