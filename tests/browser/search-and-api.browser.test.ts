/**
 * The search page and the API reference in real Chromium, over the test build served on a free port
 * (the pages' scripts follow relative links only):
 * search finds at least what `GET /api/search` finds (in the browser's copy of the index, through the
 * API, and through the Pagefind fallback), `?q=` and the filters live in the URL, snippets and facets
 * read as text; the reference has its sidebar, tabs and a copy button that copies the curl command,
 * renders no markdown as literal backticks, and axe finds nothing in light and dark.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AXE_RUN_ONLY, type AxeReport, launchBrowser, runAxe, useColorScheme, useServedSite } from '../support/browser.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const site = useServedSite({ port: 0 });

const queries = (
  JSON.parse(readFileSync(path.join(ROOT, 'tests', 'fixtures', 'search-queries.json'), 'utf8')) as {
    queries: { q: string; kind: string }[];
  }
).queries;
const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as {
  categories: { slug: string; name: string }[];
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Console errors and warnings, uncaught exceptions, CSP violations. */
  problems: string[];
}

async function open(options: { colorScheme?: 'light' | 'dark'; width?: number; block?: string[] } = {}): Promise<Opened> {
  const context = await browser.newContext({
    baseURL: site.origin,
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: options.width ?? 1280, height: 900 },
  });
  for (const pattern of options.block ?? []) await context.route(pattern, (route) => route.abort());
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // A blocked request is this test's doing, not the page's.
    if ((message.type() === 'error' || message.type() === 'warning') && !/ERR_FAILED|Failed to load resource/.test(message.text()))
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.addInitScript(() =>
    addEventListener('securitypolicyviolation', (e) => console.error(`CSP: ${e.violatedDirective} ${e.blockedURI}`)),
  );
  return { context, page, problems };
}

const pathOf = (url: string): string => new URL(url, site.origin).pathname.replace(/(.)\/$/, '$1');

/** Every hit of the API (its maximum limit), as paths. */
async function apiPaths(q: string): Promise<string[]> {
  const results = (await (await fetch(site.url(`/api/search?${new URLSearchParams({ q, limit: '50' })}`))).json()) as { url: string }[];
  return results.map((r) => pathOf(r.url));
}

/** Waits until the page shows the results of `q` and returns their paths and the engine that answered. */
async function shown(page: Page, q: string): Promise<{ paths: string[]; engine: string }> {
  await page.waitForFunction(
    (query) => {
      const root = document.querySelector<HTMLElement>('[data-search-config]');
      return root?.dataset.state === 'done' && root.dataset.query === query;
    },
    q.trim(),
    { timeout: 15_000 },
  );
  const hrefs = await page.locator('.search-result h2 a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  return { paths: hrefs.map(pathOf), engine: (await page.locator('[data-search-config]').getAttribute('data-engine')) ?? '' };
}

describe('search page', () => {
  it('honours ?q= on load and finds every hit the API finds for "私有化部署"', async () => {
    const { context, page, problems } = await open();
    await page.goto('/search?q=私有化部署');
    const { paths } = await shown(page, '私有化部署');
    const api = await apiPaths('私有化部署');
    expect(api.length).toBeGreaterThanOrEqual(7);
    expect(paths).toEqual(api);
    expect(await page.inputValue('#search-input')).toBe('私有化部署');
    expect(await page.locator('[data-search-status]').textContent()).toBe(`${api.length} results for “私有化部署”`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps the URL up to date while typing, and clears it with the query', async () => {
    const { context, page, problems } = await open();
    await page.goto('/search');
    await page.locator('#search-input').pressSequentially('vLLM Kubernetes', { delay: 30 });
    const { paths } = await shown(page, 'vLLM Kubernetes');
    expect(paths).toContain('/blog/vllm-kubernetes-on-prem-deployment');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('vLLM Kubernetes');
    // A shared URL opens the same results.
    const { context: other, page: shared } = await open();
    await shared.goto(page.url());
    expect((await shown(shared, 'vLLM Kubernetes')).paths).toEqual(paths);
    await other.close();
    await page.fill('#search-input', '');
    await expect.poll(() => new URL(page.url()).search).toBe('');
    expect(await page.locator('.search-result').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it(`finds at least the API's hits for all ${queries.length} queries (zh, en, mixed) with the index in the page`, async () => {
    const { context, page, problems } = await open();
    await page.goto('/search');
    await page.waitForSelector('[data-search-config][data-index="ready"]');
    const missing: string[] = [];
    for (const { q } of queries) {
      await page.fill('#search-input', q);
      const { paths, engine } = await shown(page, q);
      expect(engine, q).toBe('local');
      const api = await apiPaths(q);
      const lost = api.filter((p) => !paths.includes(p));
      if (lost.length) missing.push(`${q}: ${lost.join(', ')}`);
    }
    expect(missing).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("finds at least the API's hits for the Chinese queries through the API when the index is not shipped", async () => {
    const { context, page, problems } = await open({ block: ['**/search/index/*'] });
    const zh = queries.filter((query) => query.kind === 'zh');
    // The first query from the URL, the others typed into the same page (no index: each goes to the API).
    await page.goto(`/search?${new URLSearchParams({ q: zh[0]!.q })}`);
    for (const [i, { q }] of zh.entries()) {
      if (i > 0) await page.fill('#search-input', q);
      const { paths, engine } = await shown(page, q);
      expect(engine, q).toBe('api');
      expect(paths, q).toEqual(await apiPaths(q));
    }
    expect(await page.evaluate(() => document.querySelector<HTMLElement>('[data-search-config]')?.dataset.index)).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('falls back to the Pagefind index when neither the index copy nor the API answers', async () => {
    const { context, page, problems } = await open({ block: ['**/search/index/*', '**/api/search*'] });
    await page.goto('/search?q=speculative decoding');
    const { paths, engine } = await shown(page, 'speculative decoding');
    expect(engine).toBe('pagefind');
    expect(paths).toContain('/blog/speculative-decoding-faster-inference');
    expect(await page.locator('[data-search-status]').textContent()).toMatch(/offline index/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows snippets without front matter, marks whole words only, and names the facets in words', async () => {
    const { context, page, problems } = await open();
    await page.goto('/search?q=LLM deploy');
    await shown(page, 'LLM deploy');
    const excerpts = await page.locator('.result-excerpt').allTextContents();
    expect(excerpts.length).toBeGreaterThan(2);
    for (const text of excerpts) expect(text).not.toMatch(/^---|\b(title|date|category|tags):\s/m);
    // Each <mark> of Latin text starts and ends at a word boundary.
    const cut = await page.locator('.search-result mark').evaluateAll((marks) =>
      marks
        .filter((mark) => /[A-Za-z]/.test(mark.textContent ?? ''))
        .filter(
          (mark) =>
            /[\p{L}\p{N}]$/u.test(mark.previousSibling?.textContent ?? '') || /^[\p{L}\p{N}]/u.test(mark.nextSibling?.textContent ?? ''),
        )
        .map((mark) => `${mark.previousSibling?.textContent?.slice(-5)}[${mark.textContent}]${mark.nextSibling?.textContent?.slice(0, 5)}`),
    );
    expect(cut).toEqual([]);
    expect(await page.locator('.search-result mark').count()).toBeGreaterThan(0);

    const labels = (await page.locator('.search-filters label').allTextContents()).map((l) => l.replace(/\s*\(\d+\)\s*$/, '').trim());
    const categoryNames = catalog.categories.map((c) => c.name);
    const slugs = catalog.categories.map((c) => c.slug).filter((slug) => !categoryNames.includes(slug));
    expect(labels.some((label) => categoryNames.includes(label))).toBe(true);
    for (const slug of slugs) expect(labels).not.toContain(slug);
    expect(labels).toEqual(expect.arrayContaining(['中文', 'English']));

    // A facet filters the list and goes into the URL.
    const before = await page.locator('.search-result').count();
    await page.getByRole('radio', { name: /^中文/ }).check();
    await expect.poll(() => new URL(page.url()).searchParams.get('lang')).toBe('zh');
    const after = await page.locator('.search-result').count();
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before);
    expect(await page.locator('.search-result h2 a:not([lang="zh-CN"])').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** One visit of a page audited with axe: the page's text (for /docs/api), then axe in light and in dark. */
interface AuditedPage {
  target: string;
  /** The text outside <pre> blocks, and the count of inline code in descriptions. */
  bodyText: string;
  inlineCode: number;
  /** The body's computed background in each scheme. */
  background: Record<'light' | 'dark', string>;
  axe: Record<'light' | 'dark', AxeReport>;
}

/**
 * Each audited page is loaded once, in the light scheme, and switched to dark for the dark audit
 * (the dark scheme changes only the `prefers-color-scheme` CSS): /docs/api, with its 10,000
 * elements, is the costliest page to load. The tests below share the visits.
 */
let audits: Promise<AuditedPage[]> | undefined;
function auditedPages(): Promise<AuditedPage[]> {
  audits ??= (async () => {
    const seen: AuditedPage[] = [];
    // One page goes from target to target (a context each would start a renderer each time).
    const { context, page } = await open();
    for (const target of ['/docs/api', '/developers', '/search?q=私有化部署']) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(target);
      if (target.startsWith('/search')) await shown(page, '私有化部署');
      else await page.waitForSelector('.copy-button:not([hidden])');
      const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const visit: AuditedPage = {
        target,
        ...(await page.evaluate(() => {
          const clone = document.body.cloneNode(true) as HTMLElement;
          for (const pre of clone.querySelectorAll('pre')) pre.remove();
          return { bodyText: clone.textContent ?? '', inlineCode: document.querySelectorAll('.api-content p code').length };
        })),
        background: { light: await background(), dark: '' },
        axe: { light: await runAxe(page, AXE_RUN_ONLY.light) } as AuditedPage['axe'],
      };
      await useColorScheme(page, 'dark');
      visit.background.dark = await background();
      visit.axe.dark = await runAxe(page, AXE_RUN_ONLY.dark);
      seen.push(visit);
    }
    await context.close();
    return seen;
  })();
  return audits;
}

describe('API reference', () => {
  it('has a sidebar linking every operation, and its links lead to the operation', async () => {
    const { context, page, problems } = await open();
    await page.goto('/docs/api');
    const nav = page.getByRole('navigation', { name: 'API reference' });
    await expect.poll(() => nav.isVisible()).toBe(true);
    const operations = await page.locator('section.operation').evaluateAll((sections) => sections.map((s) => s.id));
    expect(operations.length).toBeGreaterThanOrEqual(15);
    const links = await nav.locator('a').evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).hash.slice(1)));
    for (const id of operations) expect(links).toContain(id);
    await nav.locator('a[href="#token"]').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#token');
    // The operation lands just below the sticky site header, not under it.
    const top = await page.locator('#token').evaluate((el) => el.getBoundingClientRect().top);
    const headerBottom = await page.locator('.site-header').evaluate((el) => el.getBoundingClientRect().bottom);
    expect(top).toBeGreaterThanOrEqual(headerBottom);
    expect(top - headerBottom).toBeLessThan(80);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('copies the curl command with the copy button, and the tabs switch every sample', async () => {
    const { context, page, problems } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    await page.goto('/docs/api');
    const samples = page.locator('#searchArticles [data-samples]').first();
    const curl = (await samples.locator('.sample[data-lang="curl"] pre').textContent())!;
    expect(curl).toMatch(/^curl -sS -G 'http:\/\/localhost:8899\/api\/search' \\\n {2}--data-urlencode 'q=私有化部署 LLM'/);
    await samples.locator('.sample-tabs .copy-button').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(curl);
    expect(await samples.locator('.sample-tabs .copy-button').textContent()).toBe('Copied');

    await samples.getByRole('tab', { name: 'Python' }).click();
    expect(await samples.locator('.sample[data-lang="python"]').isVisible()).toBe(true);
    expect(await samples.locator('.sample[data-lang="curl"]').isVisible()).toBe(false);
    // The choice holds for the other operations' samples.
    expect(await page.locator('#mcp .sample[data-lang="python"]').first().isVisible()).toBe(true);
    await samples.locator('.sample-tabs .copy-button').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^import requests\n/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows no literal backticks: descriptions are rendered', { timeout: 300_000 }, async () => {
    const { bodyText, inlineCode } = (await auditedPages()).find((visit) => visit.target === '/docs/api')!;
    expect(bodyText.includes('`')).toBe(false);
    expect(inlineCode).toBeGreaterThan(50);
  });

  for (const scheme of ['light', 'dark'] as const) {
    // The dark scheme changes only colours (prefers-color-scheme CSS): its pass runs the colour rules.
    it(`has no axe violations on /docs/api, /developers and /search with results, ${scheme} scheme`, { timeout: 300_000 }, async () => {
      const report: string[] = [];
      for (const { target, background, axe } of await auditedPages()) {
        expect(axe[scheme].passes.length, `axe ran on ${target}`).toBeGreaterThan(0);
        if (scheme === 'dark') expect(background.dark, `${target}: audited in the dark scheme`).not.toBe(background.light);
        for (const violation of axe[scheme].violations)
          report.push(
            `${target}: ${violation.id} [${violation.impact}] ${violation.nodes.length}× ${violation.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(' | ')}`,
          );
      }
      expect(report).toEqual([]);
    });
  }

  it('starts with the contents closed on a phone, and opens them on demand', async () => {
    const { context, page } = await open({ width: 390 });
    await page.goto('/docs/api');
    const details = page.locator('details.api-nav');
    expect(await details.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(await page.getByRole('navigation', { name: 'API reference' }).isVisible()).toBe(false);
    await page.locator('details.api-nav > summary').click();
    expect(await page.getByRole('navigation', { name: 'API reference' }).isVisible()).toBe(true);
    await context.close();
  });

  // Lighthouse counts a script that rearranges the page after the first paint as layout shift (it
  // held agentic browsing at 0.78 once on /docs/api): the HTML and CSS alone must already draw what
  // the scripts leave, the whole of /docs/api and the first screen of every page type with a script.
  const LAYOUT_PAGES = ['/docs/api', '/', '/blog', 'article', 'zh-article', 'solution', 'product', '/search', '/contact', '/developers'];
  for (const width of [390, 1280]) {
    it(`draws the same layout before the scripts run as after, ${width} px wide`, { timeout: 300_000 }, async () => {
      const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as {
        articles: { lang: string; path: string }[];
        solutions: { path: string }[];
        products: { path: string }[];
      };
      const named: Record<string, string> = {
        article: catalog.articles.find((a) => a.lang === 'en')!.path,
        'zh-article': catalog.articles.find((a) => a.lang === 'zh')!.path,
        solution: catalog.solutions[0]!.path,
        product: catalog.products[0]!.path,
      };
      const layout = (page: Page, wholePage: boolean) =>
        page.evaluate((whole) => {
          const boxes = [...document.querySelectorAll('main *, footer')].map((el) => ({ el, box: el.getBoundingClientRect() }));
          // Where each box starts, and its height when it ends on the first screen (a box that reaches
          // below it may grow there without moving anything the reader sees).
          return boxes
            .filter(({ box }) => box.height > 0 && (whole || box.top < innerHeight))
            .map(
              ({ el, box }) =>
                `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} ${Math.round(box.top + scrollY)},${Math.round(box.left)} ${whole || box.bottom <= innerHeight ? Math.round(box.height) : 'below'}`,
            );
        }, wholePage);
      const withoutScripts = await open({ width, block: ['**/_astro/*.js'] });
      const { context, page, problems } = await open({ width });
      const moved: string[] = [];
      for (const name of LAYOUT_PAGES) {
        const target = named[name] ?? name;
        await withoutScripts.page.goto(target);
        const drawn = await layout(withoutScripts.page, target === '/docs/api');
        await page.goto(target);
        await page.waitForLoadState('networkidle');
        const after = await layout(page, target === '/docs/api');
        expect(drawn.length, target).toBeGreaterThan(10);
        const changed = after.filter((line, i) => line !== drawn[i]);
        if (changed.length || after.length !== drawn.length)
          moved.push(`${target}: ${drawn.length} → ${after.length} boxes; ${changed.slice(0, 3).join(' | ')}`);
      }
      expect(moved).toEqual([]);
      expect(problems).toEqual([]);
      await Promise.all([context.close(), withoutScripts.context.close()]);
    });
  }

  it('shows every sample under its label when scripting is off', async () => {
    const context = await browser.newContext({ baseURL: site.origin, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/docs/api');
    const samples = page.locator('#searchArticles [data-samples]').first();
    for (const label of ['curl', 'JavaScript', 'Python']) {
      expect(await samples.locator('.sample-label', { hasText: label }).isVisible()).toBe(true);
    }
    expect(await samples.locator('.sample pre').evaluateAll((pres) => pres.filter((pre) => pre.checkVisibility()).length)).toBe(3);
    expect(await samples.getByRole('tablist').isVisible()).toBe(false);
    await context.close();
  });
});
