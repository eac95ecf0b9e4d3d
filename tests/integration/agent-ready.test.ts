/**
 * The agent-readiness checker against the real local runtime (the production build through
 * Netlify's emulation), served on TEST_PORT because the test build bakes absolute URLs for
 * TEST_ORIGIN. Every scored check must pass, the A2A agent card and the signed Web Bot Auth key
 * directory included, which makes the site level 5 (Web Bot Auth + all four integration documents +
 * auth metadata). DNS-AID is informational: localhost has no public DNS.
 */
import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks } from '../../tools/agent-ready/registry.ts';
import { buildReport } from '../../tools/agent-ready/score.ts';
import type { CheckResult } from '../../tools/agent-ready/types.ts';
import { startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { createWebMcpProbe } from '../../tools/agent-ready/node/webmcp-probe.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { testBlobsDir } from '../support/runtime.ts';
import { serveOnTestPort, TEST_PORT_WAIT_MS } from '../support/test-port.ts';

let runtime: LocalRuntime | undefined;
let server: Server | undefined;
const webMcp = createWebMcpProbe();
let results: CheckResult[] = [];

beforeAll(async () => {
  runtime = await startRuntime({ blobsDir: testBlobsDir() });
  ({ server } = await serveOnTestPort(runtime));
  results = await runChecks({ baseUrl: TEST_ORIGIN, fetch, probeWebMcp: webMcp.probe });
}, TEST_PORT_WAIT_MS + 300_000);

afterAll(async () => {
  await webMcp.close();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
  await runtime?.stop();
  if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
});

/** The two documents other branches add to the site (helper-a2a, helper-wba). */
const NEW_DOCUMENTS = ['a2aAgentCard', 'webBotAuth'];

describe('agent readiness of the real site', () => {
  it('passes every other check; DNS-AID is not checked on localhost', () => {
    const notPassing = results
      .filter((r) => r.status !== 'pass' && !NEW_DOCUMENTS.includes(r.id))
      .map((r) => `${r.id} [${r.status}]: ${r.reason}`);
    expect(notPassing).toEqual([
      'dnsAid [neutral]: not checked: localhost is not a public DNS name (DNS-AID records live in public, DNSSEC-signed DNS)',
    ]);
  });

  it('publishes a valid A2A agent card and a valid Web Bot Auth key directory', () => {
    expect(results.filter((r) => NEW_DOCUMENTS.includes(r.id)).map((r) => `${r.id} [${r.status}]: ${r.reason}`)).toEqual([
      expect.stringMatching(/^a2aAgentCard \[pass\]: \/\.well-known\/agent-card\.json: /),
      expect.stringMatching(/^webBotAuth \[pass\]: \/\.well-known\/http-message-signatures-directory: \d+ Ed25519 key\(s\), /),
    ]);
  });

  it('scores 100', () => {
    expect(buildReport(TEST_ORIGIN, results).score).toBe(100);
  });

  it('reaches level 5, Agent-Native', () => {
    const report = buildReport(TEST_ORIGIN, results);
    expect({ level: report.level, next: report.nextLevel }).toEqual({ level: 5, next: null });
  });

  it('WebMCP sees the tools the site registers', () => {
    expect(results.find((r) => r.id === 'webMcp')?.reason).toBe('/ registers 2 WebMCP tool(s): search_articles, get_article');
  });
});
