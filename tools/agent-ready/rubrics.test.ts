/**
 * Every rubric from one scan, against the two fixture sites: the good site passes every applicable check of
 * every rubric; the poor site fails each rubric where its published definition says it should, and every
 * failure carries a fix. One mutation per defect shows each check notices exactly what it is about.
 */
import { describe, expect, it } from 'vitest';
import { type RubricReport, RUBRICS, scan, type ScanReport } from './scan.ts';
import { doc, FIXTURE_ORIGIN, goodRoutes, json, memoryFetch, ROBOTS, type Routes, TOOL_NAME } from './test/good-site.ts';
import { FIXTURE_PAGES, pageHtml, pageMarkdown } from './test/fixture-pages.ts';
import { poorRoutes } from './test/poor-site.ts';
import type { CheckContext, CheckResult, WebMcpProbe } from './types.ts';

const O = FIXTURE_ORIGIN;

async function scanOf(
  routes: Routes,
  extra: Partial<CheckContext> = {},
  probe: WebMcpProbe = async () => [TOOL_NAME],
): Promise<ScanReport> {
  return scan({ baseUrl: O, fetch: memoryFetch(routes), probeWebMcp: probe, behaviour: true, ...extra });
}

const rubric = (report: ScanReport, id: string): RubricReport => report.rubrics.find((r) => r.id === id)!;
const result = (report: ScanReport, rubricId: string, checkId: string): CheckResult =>
  rubric(report, rubricId).checks.find((c) => c.id === checkId)!;
const notPassing = (report: ScanReport): string[] =>
  report.rubrics.flatMap((r) => r.checks.filter((c) => c.status !== 'pass').map((c) => `${r.id} ${c.id} [${c.status}]`));

describe('the good fixture site', () => {
  it('passes every applicable check of every rubric; what is left is not applicable or needs Lighthouse', async () => {
    const report = await scanOf(goodRoutes(O));
    expect(report.rubrics.map((r) => r.id)).toEqual(RUBRICS.map((r) => r.id));
    expect(report.counts.fail + report.counts.warn).toBe(0);
    expect(notPassing(report)).toEqual([
      'isitagentready dnsAid [neutral]',
      'lighthouse agent-accessibility-tree [neutral]',
      'lighthouse webmcp-form-coverage [neutral]',
      'lighthouse webmcp-schema-validity [neutral]',
      'lighthouse cumulative-layout-shift [neutral]',
      'afdocs section-header-quality [neutral]',
      'afdocs auth-alternative-access [neutral]',
      'agentready-org AR-DISC-06 [neutral]',
      'agentready-org AR-CONT-04 [neutral]',
      'agentready-org AR-CAPA-03 [neutral]',
      'agentready-org AR-CAPA-06 [neutral]',
      'agentready-org AR-CAPA-09 [neutral]',
      'agentready-org AR-COMM-01 [neutral]',
      'agentready-org AR-COMM-02 [neutral]',
      'agentready-org AR-COMM-03 [neutral]',
      'agentready-org AR-COMM-04 [neutral]',
      'agentready-org AR-COMM-05 [neutral]',
      'agent-readability api.schema-link [neutral]',
    ]);
    for (const r of report.rubrics.flatMap((x) => x.checks).filter((c) => c.status === 'neutral'))
      expect(r.reason).toMatch(/^(not applicable|not evaluated|not checked|skipped)/);
  });

  it('each rubric sums up as its definition does', async () => {
    const report = await scanOf(goodRoutes(O));
    expect(rubric(report, 'isitagentready').summary).toMatchObject({ level: 5, score: 100, nextLevel: null });
    expect(rubric(report, 'lighthouse').summary).toMatchObject({ passed: 2, evaluated: 2 });
    expect(rubric(report, 'mintlify').summary).toMatchObject({ score: 100, unevaluatedPoints: 0 });
    expect(rubric(report, 'afdocs').summary).toMatchObject({ fail: 0, warn: 0 });
    expect(rubric(report, 'agentready-org').summary).toMatchObject({ conformant: true, failedMusts: [], shouldsUnmet: [] });
    expect(rubric(report, 'agent-readability').summary).toMatchObject({ score: 100 });
    expect(rubric(report, 'cache-safety').summary).toMatchObject({ safe: true });
    expect(rubric(report, 'behaviour').summary).toMatchObject({ failed: [] });
  });

  it('every check keeps its source id, a definition link, and every rubric its version', async () => {
    const report = await scanOf(goodRoutes(O));
    for (const r of report.rubrics) {
      expect(r.version).toMatch(/\d/);
      for (const c of r.checks) expect(c.definition, `${r.id} ${c.id}`).toMatch(/^(https:\/\/|README\.md#)/);
    }
    expect(rubric(report, 'agentready-org').checks.map((c) => c.id)).toHaveLength(30);
    expect(rubric(report, 'agentready-org').checks.every((c) => /^AR-(DISC|CONT|CAPA|IDEN|COMM)-\d\d$/.test(c.id) && c.strength)).toBe(
      true,
    );
    expect(rubric(report, 'afdocs').checks).toHaveLength(22);
    expect(rubric(report, 'agent-readability').checks).toHaveLength(38);
    expect(rubric(report, 'lighthouse').checks.map((c) => c.id)).toEqual([
      'agent-accessibility-tree',
      'webmcp-form-coverage',
      'webmcp-registered-tools',
      'webmcp-schema-validity',
      'cumulative-layout-shift',
      'llms-txt',
      'ard-schema',
    ]);
  });

  it('without --behaviour every request is a GET and the checks that would send more are not evaluated', async () => {
    const log: Request[] = [];
    const report = await scan({ baseUrl: O, fetch: memoryFetch(goodRoutes(O), log) });
    expect([...new Set(log.map((r) => r.method))]).toEqual(['GET']);
    expect(result(report, 'mintlify', 'mcp-server').reason).toMatch(/^not evaluated: needs --behaviour/);
    expect(rubric(report, 'mintlify').summary).toMatchObject({ score: 80, unevaluatedPoints: 20 });
    expect(result(report, 'agentready-org', 'AR-CAPA-01').reason).toMatch(/^not evaluated: an MCP server is advertised/);
    expect(rubric(report, 'agentready-org').summary).toMatchObject({ conformant: false, unevaluatedMusts: ['AR-CAPA-01'] });
  });

  it('fetches each document once, however many rubrics read it', async () => {
    const log: Request[] = [];
    await scan({ baseUrl: O, fetch: memoryFetch(goodRoutes(O), log) });
    const key = (r: Request) => `${r.method} ${r.url} ${r.headers.get('accept') ?? ''}`;
    const repeated = [...new Set(log.map(key))].filter((k) => log.filter((r) => key(r) === k).length > 1);
    // Only the cache-safety interleaving asks the same question more than once, on purpose, of the pages.
    expect(repeated.length).toBeGreaterThan(0);
    expect(repeated.filter((k) => !FIXTURE_PAGES.some((p) => k.startsWith(`GET ${O}${p.path} `)))).toEqual([]);
    expect(log.filter((r) => r.url === `${O}/robots.txt`)).toHaveLength(1);
  });
});

/** The poor fixture's verdicts under each rubric: every non-pass check named, with a fix. */
describe('the poor fixture site', () => {
  it('fails the isitagentready checks as the scanner publishes them: level 0, with each check the published rule decides', async () => {
    const report = await scanOf(poorRoutes(O), {}, async () => []);
    const verdicts = Object.fromEntries(rubric(report, 'isitagentready').checks.map((c) => [c.id, c.status]));
    // Published rules (isitagentready.com llms-full.txt; docs in README.md): robots.txt is 200 text/plain with User-agent
    // lines; it names GPTBot (a scanned AI crawler) but carries no Content-Signal; no Sitemap line and every fallback
    // path is an HTML soft 404; / sends no Link header and answers Accept: text/markdown with the cached HTML; every
    // discovery document is an HTML soft 404; no valid key directory (neutral); the page registers no WebMCP tool.
    expect(verdicts).toEqual({
      robotsTxt: 'pass',
      robotsTxtAiRules: 'pass',
      contentSignals: 'fail',
      sitemap: 'fail',
      linkHeaders: 'fail',
      markdownNegotiation: 'fail',
      llmsTxt: 'fail',
      apiCatalog: 'fail',
      oauthDiscovery: 'fail',
      oauthProtectedResource: 'fail',
      authMd: 'fail',
      mcpServerCard: 'fail',
      a2aAgentCard: 'fail',
      agentSkills: 'fail',
      ard: 'fail',
      webBotAuth: 'neutral',
      webMcp: 'fail',
      dnsAid: 'neutral',
    });
    // L1 needs 2 of robotsTxt, sitemap, linkHeaders; only robotsTxt passes. Score: 2 of 15 scored, non-neutral.
    expect(rubric(report, 'isitagentready').summary).toMatchObject({ level: 0, score: 13 });
  });

  it.each([
    ['lighthouse', ['llms-txt', 'ard-schema']],
    [
      'mintlify',
      [
        'llms-txt-valid-structure',
        'llms-txt-links-resolve',
        'llms-txt-links-point-to-markdown',
        'llms-txt-directive-format',
        'llms-full-txt',
        'skill-md',
        'markdown-content-negotiation',
        'plaintext-content-negotiation',
        'mcp-server',
        'robots-txt',
        'sitemap',
        'structured-data',
      ],
    ],
    [
      'afdocs',
      [
        'llms-txt-valid',
        'llms-txt-links-markdown',
        'llms-txt-directive',
        'markdown-url-support',
        'content-negotiation',
        'rendering-strategy',
        'http-status-codes',
        'cache-header-hygiene',
      ],
    ],
    ['agentready-org', ['AR-CAPA-08']],
    [
      'agent-readability',
      [
        'robots-txt.allows-ai-bots',
        'sitemap-xml.exists',
        'sitemap-md.exists',
        'agents-md.exists',
        'html.canonical-link',
        'html.meta-description',
        'html.og-title',
        'html.og-description',
        'html.lang-attribute',
        'html.json-ld',
        'html.headings',
        'html.text-ratio',
        'html.glossary-link',
        'markdown.mirror-suffix',
        'markdown.alternate-link',
        'markdown.content-negotiation',
        'discovery.indexed',
      ],
    ],
    ['cache-safety', ['interleaved-requests', 'vary-accept', 'alternate-link']],
    ['behaviour', ['markdown-twins']],
  ])('%s: the failures and their fixes', async (rubricId, failing) => {
    const report = await scanOf(poorRoutes(O), {}, async () => []);
    const checks = rubric(report, rubricId).checks;
    expect(checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(failing);
    for (const c of checks.filter((x) => x.status === 'fail' || x.status === 'warn'))
      expect(c.fix, `${rubricId} ${c.id}`).toMatch(/^[A-Z].{10,}/);
  });

  it('AgentReady.org: SHOULDs warn, MAYs stay neutral, conditional MUSTs without their surface are not applicable', async () => {
    const report = await scanOf(poorRoutes(O), {}, async () => []);
    const org = rubric(report, 'agentready-org');
    expect(org.summary).toMatchObject({
      conformant: false,
      failedMusts: ['AR-CAPA-08'],
      shouldsUnmet: ['AR-DISC-02', 'AR-CONT-01', 'AR-IDEN-01'],
    });
    expect(result(report, 'agentready-org', 'AR-CAPA-08').reason).toBe('OpenAPI 3.0.3, not 3.1 (https://fixture.example/openapi.json)');
    expect(result(report, 'agentready-org', 'AR-CAPA-04').reason).toBe('not applicable: no A2A agent card (no agent-to-agent surface)');
    expect(result(report, 'agentready-org', 'AR-DISC-04').reason).toMatch(/^not implemented \(MAY\)/);
  });

  it('the rubrics disagree where their definitions do: one robots.txt, three verdicts', async () => {
    const report = await scanOf(poorRoutes(O), {}, async () => []);
    // isitagentready and AgentReady.org want a group naming an AI crawler; Agent Rank and the Agent Readability Spec want none blocked.
    expect(result(report, 'isitagentready', 'robotsTxtAiRules').status).toBe('pass');
    expect(result(report, 'agentready-org', 'AR-DISC-01').status).toBe('pass');
    expect(result(report, 'mintlify', 'robots-txt').reason).toBe('robots.txt blocks GPTBot from /');
    expect(result(report, 'agent-readability', 'robots-txt.allows-ai-bots').reason).toBe('robots.txt disallows / for GPTBot');
  });
});

/** One defect in the good site, and the check of each rubric that must catch it. */
type Mutation = [
  rubric: string,
  check: string,
  what: string,
  mutate: (routes: Routes) => void | Promise<void>,
  status: string,
  reason: RegExp,
];

const page = (path: string) => FIXTURE_PAGES.find((p) => p.path === path)!;
const withHtml = (routes: Routes, path: string, html: string): void => {
  const negotiated = routes.get(path)!;
  routes.set(path, async (req) => {
    const res = await negotiated(req);
    return res.headers.get('content-type')!.startsWith('text/html') ? new Response(html, { headers: res.headers }) : res;
  });
};
const text = (body: string) => doc(body, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'max-age=300' });

/** A cache that ignores Vary: every page answers its markdown, whatever the request asks for. */
const markdownToBrowsers = (r: Routes): void => {
  for (const p of FIXTURE_PAGES) r.set(p.path, doc(pageMarkdown(O, p), { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' }));
};

/** robots.txt of 3 MB: its groups first, then comments (RFC 9309 §2.5: crawlers parse at least the first 500 KiB). */
const hugeRobots = (r: Routes): void => {
  r.set('/robots.txt', doc(`${ROBOTS(O)}\n${'# padding\n'.repeat(300_000)}`, { 'content-type': 'text/plain; charset=utf-8' }));
};

const MUTATIONS: Mutation[] = [
  [
    'isitagentready',
    'linkHeaders',
    'the home page links a target on another origin',
    (r) => {
      const home = r.get('/')!;
      r.set('/', async (req) => {
        const res = await home(req);
        const headers = new Headers(res.headers);
        headers.set('link', `${headers.get('link')}, <https://elsewhere.example/llms.txt>; rel="describedby"`);
        return new Response(res.body, { status: res.status, headers });
      });
    },
    'pass',
    /every same-origin target answers 200 \(1 on another origin, not fetched\)$/,
  ],
  [
    'agent-readability',
    'llms-txt.exists',
    'llms.txt and llms-full.txt are soft 404s',
    (r) => {
      const page = doc('<!doctype html><html><body><h1>Not found</h1></body></html>', { 'content-type': 'text/html' });
      r.set('/llms.txt', page);
      r.set('/llms-full.txt', page);
    },
    'fail',
    /answers 2xx with a text file \(GET \/llms\.txt → 200 text\/html: an HTML page\)$/,
  ],
  [
    'afdocs',
    'cache-header-hygiene',
    'llms.txt is a soft 404 (an HTML page without cache headers)',
    (r) => void r.set('/llms.txt', doc('<!doctype html><html><body><h1>Not found</h1></body></html>', { 'content-type': 'text/html' })),
    'pass',
    /^\d+ of \d+ agent resource\(s\) pass; \/(?!llms)/,
  ],
  [
    'afdocs',
    'llms-txt-exists',
    'llms.txt is served as application/octet-stream',
    async (r) => {
      const body = await (await r.get('/llms.txt')!(new Request(`${O}/llms.txt`))).text();
      r.set('/llms.txt', doc(body, { 'content-type': 'application/octet-stream' }));
    },
    'fail',
    /^not found \(GET \/llms\.txt → 200 application\/octet-stream/,
  ],
  ['isitagentready', 'robotsTxt', 'robots.txt is 3 MB', hugeRobots, 'pass', /group\(s\).* in its first 500 KiB/],
  ['mintlify', 'robots-txt', 'robots.txt is 3 MB', hugeRobots, 'pass', /none of \d+ AI agents is blocked from \//],
  [
    'mintlify',
    'robots-txt',
    'robots.txt cannot be fetched',
    (r) =>
      void r.set('/robots.txt', () => {
        throw new Error('connection reset');
      }),
    'neutral',
    /^could not read robots\.txt \(GET \/robots\.txt: connection reset\)$/,
  ],
  [
    'afdocs',
    'redirect-behavior',
    'a page redirects to itself',
    (r) => void r.set('/docs/guide', () => new Response(null, { status: 302, headers: { location: '/docs/guide' } })),
    'fail',
    /\/docs\/guide: the redirects never reach a page \(more than 5 redirects\)/,
  ],
  [
    'afdocs',
    'auth-gate-detection',
    'a page redirects to itself',
    (r) => void r.set('/docs/guide', () => new Response(null, { status: 302, headers: { location: '/docs/guide' } })),
    'pass',
    /^2 of 2 sampled page\(s\)/,
  ],
  [
    'agent-readability',
    'http.content-type-html',
    'browsers get the markdown (a cache ignoring Vary)',
    markdownToBrowsers,
    'fail',
    /GET \/ → 200 text\/markdown to a browser's request: not an HTML page/,
  ],
  [
    'agent-readability',
    'html.canonical-link',
    'browsers get the markdown (a cache ignoring Vary)',
    markdownToBrowsers,
    'fail',
    /0 of 3 sampled page\(s\) pass; .*not an HTML page/,
  ],
  [
    'afdocs',
    'rendering-strategy',
    'browsers get the markdown (a cache ignoring Vary)',
    markdownToBrowsers,
    'fail',
    /text\/markdown to a browser's request: not an HTML page/,
  ],
  [
    'lighthouse',
    'llms-txt',
    'llms.txt has no link',
    (r) => void r.set('/llms.txt', text('# Fixture\n\nDocumentation for the Fixture API, for agents and people.\n')),
    'fail',
    /does not appear to contain any links/,
  ],
  [
    'lighthouse',
    'llms-txt',
    'llms.txt answers 500',
    (r) => void r.set('/llms.txt', doc('boom', { 'content-type': 'text/plain' }, 500)),
    'fail',
    /^Failed with HTTP status 500$/,
  ],
  ['lighthouse', 'llms-txt', 'llms.txt is missing (404)', (r) => void r.delete('/llms.txt'), 'neutral', /not applicable/],
  [
    'lighthouse',
    'ard-schema',
    'an entry type is not a discovery type',
    async (r) => {
      const body = await (await r.get('/.well-known/ai-catalog.json')!(new Request(`${O}/.well-known/ai-catalog.json`))).json();
      body.entries[0].type = 'application/json';
      r.set('/.well-known/ai-catalog.json', json(body, { 'access-control-allow-origin': '*' }));
    },
    'warn',
    /type "application\/json" is not a standard discovery type/,
  ],
  [
    'lighthouse',
    'ard-schema',
    'the catalog has an unknown root member',
    async (r) => {
      const body = await (await r.get('/.well-known/ai-catalog.json')!(new Request(`${O}/.well-known/ai-catalog.json`))).json();
      r.set('/.well-known/ai-catalog.json', json({ ...body, collections: [] }, { 'access-control-allow-origin': '*' }));
    },
    'fail',
    /unknown root member "collections"/,
  ],
  [
    'mintlify',
    'llms-txt-directive-format',
    'llms.txt has no ## Docs section',
    async (r) => {
      const body = await (await r.get('/llms.txt')!(new Request(`${O}/llms.txt`))).text();
      r.set('/llms.txt', text(body.replace('## Docs', '## Pages')));
    },
    'fail',
    /no "## Docs" or "## Documentation" heading/,
  ],
  [
    'mintlify',
    'llms-txt-size',
    'llms.txt is 60,000 characters',
    async (r) => {
      const body = await (await r.get('/llms.txt')!(new Request(`${O}/llms.txt`))).text();
      r.set('/llms.txt', text(`${body}\n${'x'.repeat(60_000)}\n`));
    },
    'warn',
    /truncation risk above 50,000/,
  ],
  [
    'mintlify',
    'llms-full-txt-size',
    'llms-full.txt is tiny',
    (r) => void r.set('/llms-full.txt', text('# Fixture\n\n## Short\n')),
    'fail',
    /must be 500 to 5,000,000/,
  ],
  [
    'mintlify',
    'plaintext-content-negotiation',
    'Accept: text/plain gets HTML',
    (r) => {
      const negotiated = r.get('/')!;
      r.set('/', (req) =>
        negotiated(
          new Request(req, {
            headers: { accept: /^text\/plain/.test(req.headers.get('accept') ?? '') ? 'text/html' : (req.headers.get('accept') ?? '') },
          }),
        ),
      );
    },
    'fail',
    /expected a non-HTML text\/\* type/,
  ],
  [
    'mintlify',
    'tool-count',
    'tools/list is empty',
    (r) => {
      const mcp = r.get('/mcp')!;
      r.set('/mcp', async (req) => {
        const res = await mcp(req);
        const body = await res
          .clone()
          .json()
          .catch(() => null);
        return body?.result?.tools
          ? new Response(JSON.stringify({ ...body, result: { ...body.result, tools: [] } }), { headers: res.headers })
          : res;
      });
    },
    'fail',
    /tools\/list: no tools/,
  ],
  [
    'afdocs',
    'llms-txt-links-resolve',
    'an llms.txt link is broken',
    async (r) => {
      const body = await (await r.get('/llms.txt')!(new Request(`${O}/llms.txt`))).text();
      r.set('/llms.txt', text(`${body}- [Gone](${O}/docs/gone.md): removed\n`));
    },
    'fail',
    /3 of 4 \(75 %\) sampled same-origin links answer 200; \/docs\/gone\.md → 404/,
  ],
  [
    'afdocs',
    'llms-txt-directive',
    'the pages do not point to llms.txt',
    (r) => {
      for (const p of FIXTURE_PAGES) withHtml(r, p.path, pageHtml(O, p).replace(/<p class="visually-hidden">.*<\/p>/, ''));
    },
    'fail',
    /no link to llms\.txt in the served HTML/,
  ],
  [
    'afdocs',
    'content-start-position',
    'a long navigation precedes the content',
    (r) => {
      withHtml(
        r,
        '/docs/guide',
        pageHtml(O, page('/docs/guide')).replace('<main>', `<nav>${'<a href="/x">Menu entry</a> '.repeat(120)}</nav><main>`),
      );
    },
    'fail',
    /\/docs\/guide: the <h1> starts \d+ % into the page text/,
  ],
  [
    'afdocs',
    'markdown-content-parity',
    'the twin of the guide lost its sections',
    (r) => {
      r.set(
        '/docs/guide.md',
        doc('---\ntitle: Getting started\n---\n\n# Getting started\n\nInstall it.\n', {
          'content-type': 'text/markdown',
          'cache-control': 'max-age=60',
        }),
      );
    },
    'fail',
    /\/docs\/guide: \d+ of \d+ \(\d+ %\) HTML content blocks missing from \/docs\/guide\.md/,
  ],
  [
    'afdocs',
    'markdown-code-fence-validity',
    'a twin leaves a fence open',
    async (r) => {
      const body = await (await r.get('/docs/guide.md')!(new Request(`${O}/docs/guide.md`))).text();
      r.set('/docs/guide.md', doc(body.replace(/```\n\nSee/, '\nSee'), { 'content-type': 'text/markdown', 'cache-control': 'max-age=60' }));
    },
    'fail',
    /unclosed code fence: \/docs\/guide\.md line \d+ \(```\)/,
  ],
  [
    'afdocs',
    'cache-header-hygiene',
    'llms.txt is cached for a week',
    async (r) => {
      const body = await (await r.get('/llms.txt')!(new Request(`${O}/llms.txt`))).text();
      r.set('/llms.txt', doc(body, { 'content-type': 'text/plain', 'cache-control': 'public, max-age=604800' }));
    },
    'fail',
    /\/llms\.txt: max-age=604800 \(over 24 hours\) without revalidation/,
  ],
  [
    'afdocs',
    'http-status-codes',
    'unknown paths answer 200',
    (r) => void r.set('*', doc('<html><body>Not here</body></html>', { 'content-type': 'text/html' })),
    'fail',
    /→ 200 \(a soft 404\)/,
  ],
  [
    'afdocs',
    'llms-txt-coverage',
    'llms.txt lists one of three pages',
    async (r) => {
      r.set('/llms.txt', text(`# Fixture\n\n> Docs.\n\n## Docs\n\n- [Home](${O}/index.md): home\n`));
    },
    'fail',
    /llms\.txt links 1 of 3 \(33 %\) sitemap pages/,
  ],
  [
    'agentready-org',
    'AR-IDEN-05',
    'the server drops PKCE',
    async (r) => {
      const body = await (await r.get('/.well-known/oauth-authorization-server')!(new Request(`${O}/x`))).json();
      delete body.code_challenge_methods_supported;
      r.set('/.well-known/oauth-authorization-server', json(body));
    },
    'fail',
    /code_challenge_methods_supported is null/,
  ],
  [
    'agentready-org',
    'AR-CAPA-01',
    'the MCP server is down',
    (r) => void r.set('/mcp', () => new Response('down', { status: 503 })),
    'fail',
    /initialize: answered 503/,
  ],
  [
    'agent-readability',
    'markdown.frontmatter',
    'a twin has no front matter',
    async (r) => {
      const body = await (await r.get('/docs/glossary.md')!(new Request(`${O}/x`))).text();
      r.set(
        '/docs/glossary.md',
        doc(body.replace(/^---[\s\S]*?---\n/, ''), { 'content-type': 'text/markdown', link: `<${O}/docs/glossary>; rel="canonical"` }),
      );
    },
    'fail',
    /\/docs\/glossary: no YAML front matter/,
  ],
  [
    'agent-readability',
    'sitemap-xml.has-lastmod',
    'the sitemap has no lastmod',
    async (r) => {
      const body = await (await r.get('/sitemap.xml')!(new Request(`${O}/x`))).text();
      r.set('/sitemap.xml', doc(body.replace(/<lastmod>[^<]*<\/lastmod>/g, ''), { 'content-type': 'application/xml' }));
    },
    'fail',
    /3 of 3 entries lack <lastmod>, 0 have an invalid date/,
  ],
  [
    'agent-readability',
    'html.glossary-link',
    'the pages do not link the glossary',
    (r) => {
      for (const p of FIXTURE_PAGES)
        withHtml(r, p.path, pageHtml(O, p).replace(/<a href="\/docs\/glossary">Glossary<\/a>/, 'the terms page'));
    },
    'fail',
    /no link text mentions a glossary or terminology/,
  ],
  [
    'agent-readability',
    'code.language-tags',
    'a code block has no language',
    (r) => {
      withHtml(r, '/docs/guide', pageHtml(O, page('/docs/guide')).replace('class="language-sh"', ''));
    },
    'fail',
    /\/docs\/guide: 1 of 1 code blocks have no language-\* class/,
  ],
];

describe('mutations: one defect, caught by the check that is about it', () => {
  it.each(MUTATIONS)('%s %s: %s', async (rubricId, checkId, _what, mutate, status, reason) => {
    const routes = goodRoutes(O);
    await mutate(routes);
    const report = await scanOf(routes);
    const checked = result(report, rubricId, checkId);
    expect(checked.status).toBe(status);
    expect(checked.reason).toMatch(reason);
    expect(checked.reason).not.toMatch(/\n/);
    if (status !== 'pass') expect(checked.fix).toMatch(/^[A-Z].{10,}/);
  });
});

describe('a rubric with nothing to judge says so', () => {
  it('cache-safety is "not evaluated", not "safe", when no sampled page negotiates markdown', async () => {
    const { CACHE_SAFETY } = await import('./rubrics/cache-safety.ts');
    const neutral = CACHE_SAFETY.checks.map((c) => ({
      id: c.id,
      title: c.title,
      status: 'neutral' as const,
      reason: 'not applicable',
      scored: true,
    }));
    expect(CACHE_SAFETY.summarize(neutral)).toEqual({ headline: 'not evaluated: no sampled page negotiates markdown', safe: null });
    expect(CACHE_SAFETY.summarize(neutral.map((r, i) => (i ? r : { ...r, status: 'pass' as const })))).toEqual({
      headline: 'safe to cache',
      safe: true,
    });
  });
});
