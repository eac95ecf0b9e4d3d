/**
 * The agent-readiness checker against the real local runtime (the production build through
 * Netlify's emulation), served on TEST_PORT because the test build bakes absolute URLs for
 * TEST_ORIGIN. Every check must pass, Web Bot Auth included (the site signs its webhooks and feed
 * fetches and publishes its key directory), so with the auth metadata the level is 5.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks } from '../../src/core/agent-ready/registry.ts';
import { buildReport } from '../../src/core/agent-ready/score.ts';
import type { CheckResult } from '../../src/core/agent-ready/types.ts';
import { serve, startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { createWebMcpProbe } from '../../scripts/webmcp-probe.ts';
import { TEST_ORIGIN, TEST_PORT } from '../support/origin.ts';
import { testBlobsDir } from '../support/runtime.ts';

/** How long to wait for another test run to release TEST_PORT. */
const PORT_WAIT_MS = 120_000;
const PORT_RETRY_MS = 2_000;

/** Resolves once TEST_PORT can be bound (another agent's run may hold it briefly). */
async function waitForFreePort(port: number): Promise<void> {
  const deadline = Date.now() + PORT_WAIT_MS;
  for (;;) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return;
    if (Date.now() > deadline) throw new Error(`port ${port} still busy after ${PORT_WAIT_MS} ms`);
    await sleep(PORT_RETRY_MS);
  }
}

let runtime: LocalRuntime | undefined;
let server: Server | undefined;
const webMcp = createWebMcpProbe();
let results: CheckResult[] = [];

beforeAll(async () => {
  runtime = await startRuntime({ blobsDir: testBlobsDir() });
  await waitForFreePort(TEST_PORT);
  ({ server } = await serve(runtime, TEST_PORT));
  results = await runChecks({ baseUrl: TEST_ORIGIN, fetch, probeWebMcp: webMcp.probe });
}, 300_000);

afterAll(async () => {
  await webMcp.close();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
  await runtime?.stop();
  if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
});

describe('agent readiness of the real site', () => {
  it('passes every check, Web Bot Auth included', () => {
    const notPassing = results.filter((r) => r.status !== 'pass').map((r) => `${r.id} [${r.status}]: ${r.reason}`);
    expect(notPassing).toEqual([]);
  });

  it('scores 100 at level 5', () => {
    const report = buildReport(TEST_ORIGIN, results);
    expect({ score: report.score, level: report.level }).toEqual({ score: 100, level: 5 });
  });

  it('WebMCP sees the tools the site registers', () => {
    expect(results.find((r) => r.id === 'webMcp')?.reason).toBe('/ registers 2 WebMCP tool(s): search_articles, get_article');
  });
});
