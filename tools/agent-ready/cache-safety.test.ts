/**
 * Cache safety: the interleaved requests catch a cache that ignores `Vary` in both directions (browsers
 * getting markdown, agents getting HTML), and the header checks catch what lets a cache go wrong.
 */
import { describe, expect, it } from 'vitest';
import { CACHE_SAFETY, CACHE_BUSTER, INTERLEAVED_CLIENTS, ROUNDS, variantOf } from './rubrics/cache-safety.ts';
import { scan } from './scan.ts';
import { FIXTURE_PAGES, pageHtml } from './test/fixture-pages.ts';
import { FIXTURE_ORIGIN, goodRoutes, memoryFetch, type Routes } from './test/good-site.ts';
import { cachedByUrl } from './test/poor-site.ts';
import type { CheckResult } from './types.ts';

const O = FIXTURE_ORIGIN;

async function cacheSafety(routes: Routes, log?: Request[]): Promise<Record<string, CheckResult>> {
  const report = await scan({ baseUrl: O, fetch: memoryFetch(routes, log) }, [CACHE_SAFETY]);
  return Object.fromEntries(report.rubrics[0]!.checks.map((c) => [c.id, c]));
}

/** The good site with every page behind a cache that keys on the URL alone. */
function behindNaiveCache(prime?: string): Routes {
  const routes = goodRoutes(O);
  for (const page of FIXTURE_PAGES) routes.set(page.path, cachedByUrl(routes.get(page.path)!));
  if (prime) {
    const home = routes.get('/')!;
    void home(new Request(`${O}/`, { headers: { accept: prime } }));
  }
  return routes;
}

describe('interleaved requests', () => {
  it('the origin alone serves every client its variant, twelve requests per page, with the exact Claude Code and Cursor headers', async () => {
    const log: Request[] = [];
    const checks = await cacheSafety(goodRoutes(O), log);
    expect(checks['interleaved-requests']).toMatchObject({ status: 'pass', pages: { passed: 3, applicable: 3 } });
    const accepts = log.filter((r) => r.url === `${O}/`).map((r) => r.headers.get('accept'));
    expect(accepts).toEqual(expect.arrayContaining(['text/markdown, text/html, */*', 'text/markdown, text/plain;q=0.9, */*;q=0.8']));
    expect(INTERLEAVED_CLIENTS.length * ROUNDS).toBe(12);
    expect(checks['interleaved-requests']!.evidence!.filter((l) => l.startsWith('#'))).toHaveLength(12);
  });

  it('a cache that stored the markdown first hands it to the browser', async () => {
    const checks = await cacheSafety(behindNaiveCache());
    expect(checks['interleaved-requests']!.status).toBe('fail');
    expect(checks['interleaved-requests']!.reason).toBe(
      '0 of 3 sampled page(s) pass; /: #2 the browser got markdown after a markdown agent request; #4 the browser got markdown after a Claude Code request',
    );
    expect(checks['interleaved-requests']!.evidence).toContain(
      '#2 browser (Accept: text/html,application/xhtml+xml,applicat…) → 200 text/markdown (markdown)',
    );
  });

  it('a cache that stored the HTML first hands it to agents, and the cache-busted request still proves the origin negotiates', async () => {
    const log: Request[] = [];
    const checks = await cacheSafety(behindNaiveCache('text/html'), log);
    expect(checks['interleaved-requests']!.reason).toMatch(
      /^0 of 3 sampled page\(s\) pass; \/: #1 markdown agent got html; #5 Cursor got html after a browser request/,
    );
    expect(log.some((r) => new URL(r.url).searchParams.has(CACHE_BUSTER) && r.headers.get('accept') === 'text/markdown')).toBe(true);
  });

  it('a site without a markdown variant has nothing to poison', async () => {
    const routes = goodRoutes(O);
    for (const page of FIXTURE_PAGES) {
      const html = pageHtml(O, page).replace(/<link rel="alternate"[^>]*>/, '');
      routes.set(page.path, () => new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
      routes.delete(page.path === '/' ? '/index.md' : `${page.path}.md`);
    }
    const checks = await cacheSafety(routes);
    for (const id of ['interleaved-requests', 'vary-accept', 'content-location', 'alternate-link'])
      expect(checks[id], id).toMatchObject({ status: 'neutral', reason: expect.stringMatching(/^not applicable/) });
  });
});

describe('what lets a cache go wrong', () => {
  it('vary-accept: the markdown variant without Vary', async () => {
    const routes = goodRoutes(O);
    const home = routes.get('/')!;
    routes.set('/', async (req) => {
      const res = await home(req);
      if (!res.headers.get('content-type')!.startsWith('text/markdown')) return res;
      const headers = new Headers(res.headers);
      headers.delete('vary');
      return new Response(res.body, { headers });
    });
    expect((await cacheSafety(routes))['vary-accept']).toMatchObject({
      status: 'fail',
      reason: '2 of 3 sampled page(s) pass; /: the markdown variant has no Vary: Accept (Vary: Accept)',
    });
  });

  it('content-location: the markdown answer names the page URL, which serves HTML', async () => {
    const routes = goodRoutes(O);
    const guide = routes.get('/docs/guide')!;
    routes.set('/docs/guide', async (req) => {
      const res = await guide(req);
      const headers = new Headers(res.headers);
      if (headers.get('content-location')) headers.set('content-location', '/docs/guide');
      return new Response(res.body, { headers });
    });
    expect((await cacheSafety(routes))['content-location']).toMatchObject({
      status: 'fail',
      reason: '2 of 3 sampled page(s) pass; /docs/guide: the markdown response says Content-Location: /docs/guide, which serves html',
    });
  });

  it('alternate-link: the advertised markdown is missing', async () => {
    const routes = goodRoutes(O);
    routes.delete('/docs/glossary.md');
    expect((await cacheSafety(routes))['alternate-link']).toMatchObject({
      status: 'fail',
      reason: '2 of 3 sampled page(s) pass; /docs/glossary: alternate /docs/glossary.md → 404 text/plain',
    });
  });

  it('variantOf tells markdown, HTML and anything else apart', () => {
    const fetched = (type: string, text: string, status = 200) => ({
      url: O,
      status,
      headers: new Headers({ 'content-type': type }),
      bytes: new Uint8Array(),
      text,
      ms: 1,
      redirects: [],
    });
    expect(variantOf(fetched('text/markdown; charset=utf-8', '# T'))).toBe('markdown');
    expect(variantOf(fetched('text/markdown', '<!doctype html><html>'))).toBe('html');
    expect(variantOf(fetched('text/html', 'x'))).toBe('html');
    expect(variantOf(fetched('text/plain', '# T'))).toBe('other');
    expect(variantOf(fetched('text/markdown', '# T', 404))).toBe('other');
  });
});

describe('a site built for another origin than the one scanned (stranger s10b, finding 8)', () => {
  const BUILT = 'http://localhost:8888';

  it('alternate-link names the other origin, and the summary does not call caching unsafe', async () => {
    // The pages link their twins with absolute URLs, as a built site does.
    const routes = goodRoutes(BUILT);
    for (const { path } of FIXTURE_PAGES) {
      const page = routes.get(path)!;
      routes.set(path, async (req) => {
        const res = await page(req);
        if (!res.headers.get('content-type')?.includes('html')) return res;
        const html = (await res.text()).replace('type="text/markdown" href="/', `type="text/markdown" href="${BUILT}/`);
        return new Response(html, { status: res.status, headers: res.headers });
      });
    }
    const serve = memoryFetch(routes);
    // Served at the scanned origin; nothing answers at the origin the site was built for.
    const servedElsewhere: typeof fetch = (input, init) =>
      new URL(new Request(input, init).url).origin === O ? serve(input, init) : Promise.reject(new TypeError('fetch failed'));
    const report = await scan({ baseUrl: O, fetch: servedElsewhere }, [CACHE_SAFETY]);
    const rubric = report.rubrics[0]!;
    const alternate = rubric.checks.find((c) => c.id === 'alternate-link')!;
    expect(alternate).toMatchObject({ status: 'fail', otherOrigin: BUILT });
    expect(alternate.reason).toMatch(
      new RegExp(
        `^0 of 1 sampled page\\(s\\) pass; /: alternate ${BUILT}/index\\.md → fetch failed: it is on ${BUILT}, not the scanned ${O}`,
      ),
    );
    expect(alternate.fix).toBe(
      `Link each page's markdown on the origin it is served at, not ${BUILT}: build the site for the origin it is served at.`,
    );
    expect(rubric.summary).toEqual({
      headline: `not judged: alternate-link fails because the site names another origin, ${BUILT} (was it built for the scanned one?), not because of caching; interleaved-requests, vary-accept, content-location pass`,
      safe: null,
    });
  });

  it('a real caching fault is still "unsafe", with the origin named apart', () => {
    const result = (id: string, status: CheckResult['status'], otherOrigin?: string): CheckResult => ({
      id,
      title: id,
      status,
      reason: '',
      scored: true,
      ...(otherOrigin ? { otherOrigin } : {}),
    });
    expect(
      CACHE_SAFETY.summarize([
        result('interleaved-requests', 'fail'),
        result('vary-accept', 'pass'),
        result('alternate-link', 'fail', BUILT),
      ]),
    ).toEqual({
      headline: `unsafe: interleaved-requests; alternate-link fails because the site names another origin, ${BUILT} (was it built for the scanned one?)`,
      safe: false,
    });
  });

  it('an alternate on another origin that serves markdown passes (a docs CDN)', async () => {
    const routes = goodRoutes(O);
    const cdn = 'https://cdn.fixture.example';
    const page = routes.get('/docs/glossary')!;
    routes.set('/docs/glossary', async (req) => {
      const res = await page(req);
      if (!res.headers.get('content-type')?.includes('html')) return res;
      const html = (await res.text()).replace(/href="[^"]*\/docs\/glossary\.md"/, `href="${cdn}/docs/glossary.md"`);
      const headers = new Headers(res.headers);
      headers.delete('link');
      return new Response(html, { status: res.status, headers });
    });
    const serve = memoryFetch(routes);
    const checks = Object.fromEntries(
      (await scan({ baseUrl: O, fetch: (input, init) => serve(input, init) }, [CACHE_SAFETY])).rubrics[0]!.checks.map((c) => [c.id, c]),
    );
    expect(checks['alternate-link']).toMatchObject({ status: 'pass' });
    expect(checks['alternate-link']!.otherOrigin).toBeUndefined();
  });
});
