/**
 * The agent-readiness checker (the `agent-ready-check` package, tools/agent-ready) against the real local
 * runtime, served on TEST_PORT because the test build bakes absolute URLs for TEST_ORIGIN: every rubric
 * from one scan, with `--behaviour` (MCP in both eras, OAuth registration, token and revocation, A2A) and
 * WebMCP in Chromium. Every applicable check must pass.
 */
import { rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScanReport, scan } from 'agent-ready-check';
import { createWebMcpProbe } from 'agent-ready-check/node';
import { startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { testBlobsDir } from '../support/runtime.ts';
import { serveOnTestPort, TEST_PORT_WAIT_MS } from '../support/test-port.ts';

let runtime: LocalRuntime | undefined;
let server: Server | undefined;
const webMcp = createWebMcpProbe();
let report: ScanReport;

beforeAll(async () => {
  runtime = await startRuntime({ blobsDir: testBlobsDir() });
  ({ server } = await serveOnTestPort(runtime));
  report = await scan({ baseUrl: TEST_ORIGIN, fetch, probeWebMcp: webMcp.probe, behaviour: true });
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

const id = (rubric: string, check: string): string => `${rubric} ${check}`;

describe('agent readiness of the real site, every rubric', () => {
  it('passes every applicable check of every rubric', () => {
    const notPassing = report.rubrics.flatMap((r) =>
      r.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${id(r.id, c.id)}: ${c.reason}`),
    );
    expect(notPassing).toEqual([]);
  });

  it('leaves neutral only what does not apply, cannot be seen on localhost, or needs Lighthouse', () => {
    const neutral = report.rubrics.flatMap((r) => r.checks.filter((c) => c.status === 'neutral').map((c) => id(r.id, c.id)));
    expect(neutral).toEqual([
      'isitagentready dnsAid',
      'lighthouse agent-accessibility-tree',
      'lighthouse webmcp-form-coverage',
      'lighthouse webmcp-schema-validity',
      'lighthouse cumulative-layout-shift',
      'afdocs section-header-quality',
      'afdocs auth-alternative-access',
      'agentready-org AR-DISC-06',
      'agentready-org AR-CONT-04',
      'agentready-org AR-CAPA-03',
      'agentready-org AR-CAPA-06',
      'agentready-org AR-CAPA-09',
      'agentready-org AR-COMM-01',
      'agentready-org AR-COMM-02',
      'agentready-org AR-COMM-03',
      'agentready-org AR-COMM-04',
      'agentready-org AR-COMM-05',
      'agent-readability code.language-tags',
      'agent-readability api.schema-link',
    ]);
  });

  it('isitagentready: level 5 and 100; WebMCP sees the tools the site registers', () => {
    const rubric = report.rubrics.find((r) => r.id === 'isitagentready')!;
    expect(rubric.summary).toMatchObject({ level: 5, score: 100, nextLevel: null });
    expect(rubric.checks.find((c) => c.id === 'webMcp')?.reason).toBe('/ registers 2 WebMCP tool(s): search_articles, get_article');
  });

  it('AgentReady.org: conformant, with MCP exercised in both eras', () => {
    expect(report.rubrics.find((r) => r.id === 'agentready-org')!.summary).toMatchObject({ conformant: true, failedMusts: [] });
  });

  it('behaviour: MCP in both eras, OAuth registration with cleanup, A2A, twins all work', () => {
    const behaviour = report.rubrics.find((r) => r.id === 'behaviour')!;
    expect(behaviour.checks.map((c) => [c.id, c.status])).toEqual([
      ['mcp-session', 'pass'],
      ['mcp-tool-call', 'pass'],
      ['oauth-registration', 'pass'],
      ['oauth-token', 'pass'],
      ['oauth-cleanup', 'pass'],
      ['a2a-send-message', 'pass'],
      ['markdown-twins', 'pass'],
    ]);
    expect(behaviour.checks[0]!.reason).toMatch(/answers 2025-11-25 .* and 2026-07-28/);
  });

  it('cache safety: browsers always get HTML and agents markdown, with Vary and alternate links', () => {
    const cache = report.rubrics.find((r) => r.id === 'cache-safety')!;
    expect(cache.checks.map((c) => [c.id, c.status])).toEqual([
      ['interleaved-requests', 'pass'],
      ['vary-accept', 'pass'],
      ['content-location', 'pass'],
      ['alternate-link', 'pass'],
    ]);
  });
});
