/**
 * The agent-readiness checker (the `agent-ready-check` package, tools/agent-ready) against the real local
 * runtime, served on TEST_PORT because the test build bakes absolute URLs for TEST_ORIGIN: every rubric
 * from one scan, with `--behaviour` (MCP in both eras, OAuth registration, token and revocation, A2A) and
 * WebMCP in Chromium. Every applicable check must pass, but for the site gaps listed below, which the
 * checker found and the site still has to close (each names the rubric's check; issue 30's report).
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

/**
 * Checks the site does not pass yet although they apply to it: `rubric check` → what is missing. They are
 * the site's to fix (src/), not the checker's; remove an entry when the site closes it.
 */
const KNOWN_SITE_GAPS: Record<string, string> = {
  'mintlify llms-txt-directive-format': 'llms.txt has no "## Docs" or "## Documentation" section heading',
  'afdocs llms-txt-links-resolve': 'llms.txt links /mcp, which answers GET with 405',
  'afdocs llms-txt-directive': 'HTML pages link llms.txt only in the footer, not near the top',
  'afdocs llms-txt-coverage': 'llms.txt lists about a fifth of the sitemap pages (no Chinese pages, listings or tags)',
  'afdocs markdown-content-parity': 'the home page twin lacks about half of the home page content blocks',
  'agent-readability llms-txt.md-extensions': 'llms.txt also links non-markdown resources (llms-full.txt, the API catalog, /mcp)',
  'agent-readability sitemap-md.exists': 'no /sitemap.md',
  'agent-readability html.meta-description': 'tag listing pages have a meta description under 50 characters',
  'agent-readability html.json-ld': 'tag listing pages carry no JSON-LD',
  'afdocs content-start-position': 'on tag listing pages the <h1> starts about 20 % into the page text (the header chrome comes first)',
  'agent-readability html.text-ratio': 'a tag listing page with few articles is about 10 % text (15 % needed)',
  'agent-readability html.json-ld.date-modified': 'the JSON-LD has no dateModified',
  'agent-readability html.json-ld.breadcrumb': 'the JSON-LD has no BreadcrumbList',
  'agent-readability html.glossary-link': 'pages link no glossary or terminology page',
  'agent-readability markdown.frontmatter': 'twins carry no YAML front matter (title, description, doc_version, last_updated)',
  'agent-readability markdown.sitemap-section': 'twins have no "## Sitemap" section',
};

const id = (rubric: string, check: string): string => `${rubric} ${check}`;

describe('agent readiness of the real site, every rubric', () => {
  it('passes every applicable check of every rubric but the known site gaps', () => {
    const notPassing = report.rubrics.flatMap((r) =>
      r.checks.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${id(r.id, c.id)}: ${c.reason}`),
    );
    expect(notPassing.map((line) => line.split(':')[0]).sort()).toEqual(Object.keys(KNOWN_SITE_GAPS).sort());
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
      'agent-readability sitemap-md.has-structure',
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
