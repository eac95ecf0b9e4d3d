/**
 * The search page and the API reference in real Chromium, over the test build served on a free port
 * (the pages' scripts follow relative links only):
 * search finds at least what `GET /api/search` finds (in the browser's copy of the index, through the
 * API, and through the Pagefind fallback), `?q=` and the filters live in the URL, snippets and facets
 * read as text; the reference has its sidebar, tabs and a copy button that copies the curl command,
 * renders no markdown as literal backticks, and axe finds nothing in light and dark.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleManifest, markedForDelta, runPagefind } from '../../scripts/pagefind-index.ts';
import {
  AXE_RUN_ONLY,
  type AxeReport,
  countLayoutShifts,
  launchBrowser,
  runAxe,
  useColorScheme,
  useServedSite,
} from '../support/browser.ts';

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

/** Pages the search page finds by name (products and the reference, in either language), above the API's hits. */
const NAMED_PAGE = /^\/(?:zh\/)?(?:products|docs|developers)(?:\/|$)/;

describe('search page', () => {
  it('honours ?q= on load and finds every hit the API finds for "私有化部署"', async () => {
    const { context, page, problems } = await open();
    await page.goto('/search?q=私有化部署');
    const { paths } = await shown(page, '私有化部署');
    const api = await apiPaths('私有化部署');
    expect(api.length).toBeGreaterThanOrEqual(7);
    // The article hits are the API's; pages named by the query (products, the reference) come first.
    expect(paths.filter((p) => !NAMED_PAGE.test(p))).toEqual(api);
    expect(await page.inputValue('#search-input')).toBe('私有化部署');
    // The count is of everything shown: the named pages and the API's hits.
    expect(await page.locator('[data-search-status]').textContent()).toBe(`${paths.length} results for “私有化部署”`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a shared ?q= link does not move the page when its results arrive: CLS under 0.1 on a phone and a desktop, zh and en', async () => {
    for (const width of [390, 1280])
      for (const [target, q] of [
        ['/search?q=vllm', 'vllm'],
        [`/zh/search?q=${encodeURIComponent('微调')}`, '微调'],
      ] as const) {
        const { context, page } = await open({ width });
        const layoutShifts = await countLayoutShifts(page);
        await page.goto(target);
        await shown(page, q);
        // The passages under the first hits arrive after the list: they count too.
        await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-config]')?.dataset.passages === 'done');
        const { cls, shifts } = await layoutShifts();
        expect(cls, `${width} ${target}: ${shifts.join('; ')}`).toBeLessThan(0.1);
        // The topics gave way to the results; clearing the query brings them back.
        expect(await page.locator('.search-topics').isVisible(), target).toBe(false);
        await page.fill('#search-input', '');
        await expect.poll(() => page.locator('.search-topics').isVisible()).toBe(true);
        await context.close();
      }
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
      // The article hits are the API's; pages named by the query (products, the reference) come first.
      expect(
        paths.filter((p) => !NAMED_PAGE.test(p)),
        q,
      ).toEqual(await apiPaths(q));
    }
    expect(await page.evaluate(() => document.querySelector<HTMLElement>('[data-search-config]')?.dataset.index)).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('finds the products, the API reference and the developers hub by name', async () => {
    const { context, page, problems } = await open();
    for (const [query, first, type] of [
      ['gateway', '/products/llm-gateway', 'Product'],
      ['revoke token', '/docs/api/revoke', 'Page'],
      ['developers', '/developers', 'Page'],
    ] as const) {
      await page.goto(`/search?q=${encodeURIComponent(query)}`);
      const { paths } = await shown(page, query);
      expect(paths[0], query).toBe(first);
      expect(await page.locator('.search-result .result-meta').first().textContent()).toMatch(new RegExp(`^${type}`));
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('folds the filters into one row on a phone, in both themes, without widening the page', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page, problems } = await open({ width: 390, colorScheme: scheme });
      await page.goto('/search?q=LLM deploy');
      await shown(page, 'LLM deploy');
      const filters = page.locator('[data-search-filters]');
      await expect.poll(() => filters.isVisible()).toBe(true);
      expect(await filters.locator('fieldset').count()).toBe(2);
      const rows = await filters
        .locator('label, legend')
        .evaluateAll(
          (els) => new Set(els.map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2))).size,
        );
      expect(rows, 'one row of filters').toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
      // The row scrolls to its last filter, which the reader can still check.
      const last = filters.getByRole('radio').last();
      await last.check();
      expect(await last.isChecked()).toBe(true);
      expect(await last.evaluate((el) => el.getBoundingClientRect().right <= innerWidth)).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('says a query is too long instead of searching it (the API would refuse it; the offline index would answer noise)', async () => {
    const { context, page, problems } = await open();
    const long = 'a'.repeat(201);
    await page.goto(`/search?q=${long}`);
    const { paths } = await shown(page, long);
    expect(paths).toEqual([]);
    expect(await page.locator('[data-search-status]').textContent()).toBe('That is too long to search: use at most 200 characters.');
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
    // Each hit says what the API's hits say: kind, language, category and date.
    const hit = page.locator('.search-result').nth(paths.indexOf('/blog/speculative-decoding-faster-inference'));
    expect(await hit.locator('.result-meta').textContent()).toMatch(/^Article · English · .+ · \d{4}-\d{2}-\d{2}$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows no Pagefind result that holds none of the query, as the API finds none (stranger s9b, 4)', async () => {
    // Pagefind answered "axolotl" (in no page) with a dozen unrelated pages.
    for (const word of ['axolotl', 'banana']) expect(await apiPaths(word)).toEqual([]);
    const { context, page, problems } = await open({ block: ['**/search/index/*', '**/api/search*'] });
    for (const word of ['axolotl', 'banana']) {
      await page.goto(`/search?q=${word}`);
      const { paths, engine } = await shown(page, word);
      expect(engine).toBe('pagefind');
      expect(paths, word).toEqual([]);
    }
    // A typo the engine forgives still finds its article offline.
    await page.goto('/search?q=speculatve decoding');
    expect((await shown(page, 'speculatve decoding')).paths).toContain('/blog/speculative-decoding-faster-inference');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('finds an article by a tag word that is not in its body through the Pagefind fallback, as the API does', async () => {
    // "security" is only in the tag list of this article (content/articles/mcp-oauth-agent-integrations.md), not in its text.
    const tagged = '/blog/mcp-oauth-agent-integrations';
    expect(await apiPaths('security')).toContain(tagged);
    const { context, page, problems } = await open({ block: ['**/search/index/*', '**/api/search*'] });
    await page.goto('/search?q=security');
    const { paths, engine } = await shown(page, 'security');
    expect(engine).toBe('pagefind');
    expect(paths).toContain(tagged);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('after an incremental build, shows an edited page from the delta bundle and never its old copy in the base bundle', async () => {
    // What scripts/pagefind-index.ts writes when one page changed: the base bundle as it was, a delta bundle with the
    // page's new text (marked), and the page listed as superseded. Built here from the served page with new text.
    const edited = '/blog/speculative-decoding-faster-inference/';
    const html = await (await fetch(site.url(edited))).text();
    const newText = html.replace(
      /(<article[^>]*data-pagefind-body[^>]*>)[\s\S]*<\/article>/,
      '$1<h1>Zanzibarquokka notes</h1><p>Only zanzibarquokka sightings remain on this page.</p></article>',
    );
    expect(newText).not.toBe(html);
    const work = await mkdtemp(path.join(tmpdir(), 'pagefind-delta-'));
    try {
      await mkdir(path.join(work, 'site', edited), { recursive: true });
      await writeFile(path.join(work, 'site', edited, 'index.html'), markedForDelta(newText));
      await runPagefind(path.join(work, 'site'), path.join(work, 'delta'));
      const manifest = (await (await fetch(site.url('/pagefind/bundles.json'))).json()) as BundleManifest;
      const languages = Object.keys(JSON.parse(await readFile(path.join(work, 'delta', 'pagefind-entry.json'), 'utf8')).languages);
      const withDelta: BundleManifest = { bundles: [...manifest.bundles, { url: '/pagefind/delta/', languages }], superseded: [edited] };

      const { context, page, problems } = await open({ block: ['**/search/index/*', '**/api/search*'] });
      await context.route('**/pagefind/bundles.json', (route) => route.fulfill({ json: withDelta }));
      await context.route('**/pagefind/delta/**', async (route) => {
        const file = path.join(work, 'delta', new URL(route.request().url()).pathname.replace(/^\/pagefind\/delta\//, ''));
        await route.fulfill({ body: await readFile(file) });
      });
      // The old text's words: the base bundle still matches the page; the search page drops that result.
      await page.goto('/search?q=speculative decoding');
      const before = await shown(page, 'speculative decoding');
      expect(before.engine).toBe('pagefind');
      expect(before.paths.length).toBeGreaterThan(0);
      expect(before.paths).not.toContain(pathOf(edited));
      // The new text's word: only the delta bundle holds it, with its new title.
      await page.goto('/search?q=zanzibarquokka');
      const after = await shown(page, 'zanzibarquokka');
      expect(after.paths).toEqual([pathOf(edited)]);
      expect(await page.locator('.search-result h2').first().textContent()).toContain('Zanzibarquokka notes');
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });

  it('shows under a hit the passage it matched in, the words marked (typos and prefixes too), and links to its section', async () => {
    const { context, page, problems } = await open();
    const passagesShown = (): Promise<unknown> =>
      page.waitForFunction(() => document.querySelector<HTMLElement>('[data-search-config]')?.dataset.passages === 'done', undefined, {
        timeout: 15_000,
      });
    const section = '/blog/llm-gateway-token-budgets#why-request-counts-are-the-wrong-unit';
    // The word is in that section's body only: not in the title, the summary or the tags.
    for (const q of ['classification', 'clasification', 'classif']) {
      await page.goto(`/search?q=${encodeURIComponent(q)}`);
      await shown(page, q);
      await passagesShown();
      const hit = page.locator('.search-result', { has: page.locator('h2 a[href^="/blog/llm-gateway-token-budgets"]') });
      expect(await hit.locator('h2 a').getAttribute('href'), q).toBe(section);
      expect(await hit.locator('.result-section').textContent()).toBe('Why request counts are the wrong unit');
      expect(await hit.locator('.result-passage mark').allTextContents(), q).toContain('classification');
      expect(await hit.locator('.result-passage').textContent()).toContain('one request might be a 50-token classification');
    }
    // The link lands on the heading.
    await page.locator(`.search-result h2 a[href="${section}"]`).click();
    await page.waitForURL(`**${section}`);
    expect(await page.locator('#why-request-counts-are-the-wrong-unit').count()).toBe(1);
    // Chinese: the section with the most matches, its id as the page gives it.
    await page.goto(`/search?q=${encodeURIComponent('熔断')}`);
    await shown(page, '熔断');
    await passagesShown();
    const zh = page.locator('.search-result', { has: page.locator('h2 a[href^="/blog/llm-api-gateway-circuit-breaker-quota-zh"]') });
    const href = (await zh.locator('h2 a').getAttribute('href'))!;
    expect(decodeURIComponent(href)).toBe('/blog/llm-api-gateway-circuit-breaker-quota-zh#熔断与降级');
    expect(await zh.locator('.result-passage mark').first().textContent()).toBe('熔断');
    await page.goto(href);
    expect(await page.locator('[id="熔断与降级"]').count()).toBe(1);
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

  it('keeps the filters the reader chose when the query changes, in the list and in the URL', async () => {
    const { context, page, problems } = await open();
    await page.goto('/search?q=LLM deploy');
    await shown(page, 'LLM deploy');
    await page.getByRole('radio', { name: /^中文/ }).check();
    await expect.poll(() => new URL(page.url()).searchParams.get('lang')).toBe('zh');
    // Typing a new query: the Chinese filter stays chosen (it used to fall back to "all").
    await page.locator('#search-input').fill('LLM');
    await shown(page, 'LLM');
    expect(await page.getByRole('radio', { name: /^中文/ }).isChecked()).toBe(true);
    expect(await page.locator('.search-result').count()).toBeGreaterThan(0);
    expect(await page.locator('.search-result h2 a:not([lang="zh-CN"])').count()).toBe(0);
    await expect.poll(() => new URL(page.url()).search).toBe(`?${new URLSearchParams({ q: 'LLM', lang: 'zh' })}`);
    // A query found in an English article only: the filter stays in sight, checked, with its count (0), so the reader sees why.
    await page.locator('#search-input').fill('Medusa');
    await shown(page, 'Medusa');
    const chinese = page.getByRole('radio', { name: /^中文/ });
    expect(await chinese.isChecked()).toBe(true);
    const count = await page.locator('.search-result').count();
    expect(await page.locator('.search-filters label', { has: chinese }).textContent()).toMatch(new RegExp(`\\(${count}\\)\\s*$`));
    expect(await page.locator('[data-search-status]').textContent()).not.toBe('');
    await page
      .getByRole('radio', { name: /^(全部|All)/ })
      .first()
      .check();
    await expect.poll(() => new URL(page.url()).searchParams.get('lang')).toBe(null);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('search palette', () => {
  it('opens with Ctrl K or the header link, lists marked hits as you type, and Enter leads to the shareable search page', async () => {
    for (const [target, width, scheme] of [
      ['/', 1280, 'light'],
      ['/zh', 390, 'dark'],
    ] as const) {
      const { context, page, problems } = await open({ width, colorScheme: scheme });
      await page.goto(target);
      const dialog = page.locator('dialog[data-search-palette]');
      expect(await dialog.isVisible()).toBe(false);
      // The header's link shows its shortcut on a wide screen only, and keeps "Search" as its name.
      expect(await page.locator('[data-palette-open] kbd').isVisible()).toBe(width > 800);
      if (width > 800) expect(await page.locator('[data-palette-open] kbd').textContent()).toBe('Ctrl K');
      const named = page.getByRole('link', { name: target === '/zh' ? '搜索' : 'Search', exact: true });
      expect(await named.and(page.locator('[data-palette-open]')).count()).toBe(1);
      await page.keyboard.press('Control+k');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      const box = dialog.getByRole('searchbox');
      expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
      await box.fill('私有化部署');
      const hits = dialog.locator('.palette-results li:not(.palette-all) a');
      await expect.poll(() => hits.count()).toBeGreaterThan(0);
      expect(await hits.count()).toBeLessThanOrEqual(8);
      expect(await dialog.locator('.palette-results mark').count()).toBeGreaterThan(0);
      // ↓ moves from the box to the first hit, ↑ back.
      await box.press('ArrowDown');
      expect(await hits.first().evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.press('ArrowUp');
      expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
      const axe = await runAxe(page, AXE_RUN_ONLY[scheme]);
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.isVisible()).toBe(false);

      // Products and the reference are named above the article hits.
      await page.keyboard.press('Control+k');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await box.fill('gateway');
      await expect.poll(() => hits.first().getAttribute('href')).toBe('/products/llm-gateway');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.isVisible()).toBe(false);

      // The header link opens it too; Enter goes to the search page with the query in the URL.
      await page.locator('[data-palette-open]').click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await box.fill('vLLM');
      await box.press('Enter');
      const searchPage = target === '/zh' ? '/zh/search' : '/search';
      await page.waitForURL((url) => url.pathname === searchPage && url.searchParams.get('q') === 'vLLM');
      await shown(page, 'vLLM');
      // On the search page, Ctrl K focuses the page's own box.
      await page.locator('h1').click();
      await page.keyboard.press('Control+k');
      expect(await page.locator('#search-input').evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await dialog.isVisible()).toBe(false);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('shows under a hit the passage it matched in, the words marked (typos and prefixes too), and links to its section', async () => {
    /** The marked words of one hit's passage that the reader can see (not clipped by the line clamp), and where the hit leads. */
    const hitOf = async (page: Page, path: string, q: string) => {
      const dialog = page.locator('dialog[data-search-palette]');
      await dialog.getByRole('searchbox').fill(q);
      await page.waitForFunction(
        (query) => {
          const element = document.querySelector<HTMLElement>('dialog[data-search-palette]');
          return element?.dataset.passages === 'done' && element.querySelector<HTMLInputElement>('input[name="q"]')?.value === query;
        },
        q,
        { timeout: 15_000 },
      );
      const link = dialog.locator(`.palette-results a[href^="${path}"]`);
      return {
        link,
        href: decodeURIComponent((await link.getAttribute('href')) ?? ''),
        section: await link.locator('.palette-section').textContent(),
        passage: await link.locator('.palette-passage').textContent(),
        visibleMarks: await link.locator('.palette-passage').evaluate((passage) => {
          const box = passage.getBoundingClientRect();
          return [...passage.querySelectorAll('mark')]
            .filter((mark) => {
              const rect = mark.getBoundingClientRect();
              return rect.width > 0 && rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1;
            })
            .map((mark) => mark.textContent);
        }),
      };
    };
    for (const [width, scheme] of [
      [1280, 'light'],
      [390, 'dark'],
    ] as const) {
      const { context, page, problems } = await open({ width, colorScheme: scheme });
      await page.goto('/');
      await page.keyboard.press('Control+k');
      // The word is in that section's body only: not in the title, the summary or the tags.
      for (const q of ['classification', 'clasification', 'classif']) {
        const hit = await hitOf(page, '/blog/llm-gateway-token-budgets', q);
        expect(hit.href, `${q} at ${width}`).toBe('/blog/llm-gateway-token-budgets#why-request-counts-are-the-wrong-unit');
        expect(hit.section).toBe('Why request counts are the wrong unit');
        expect(hit.passage).toContain('50-token classification');
        expect(hit.visibleMarks, `${q} at ${width}`).toContain('classification');
      }
      const axe = await runAxe(page, AXE_RUN_ONLY[scheme]);
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);
      await page.keyboard.press('Escape');

      // Chinese, from the Chinese home: the section with the most matches; the hit lands on its heading.
      await page.goto('/zh');
      await page.keyboard.press('Control+k');
      const zh = await hitOf(page, '/blog/llm-api-gateway-circuit-breaker-quota-zh', '熔断');
      expect(zh.href).toBe('/blog/llm-api-gateway-circuit-breaker-quota-zh#熔断与降级');
      expect(zh.section).toBe('熔断与降级');
      expect(zh.visibleMarks[0]).toBe('熔断');
      await zh.link.click();
      await page.waitForURL((url) => decodeURIComponent(url.hash) === '#熔断与降级');
      expect(await page.locator('[id="熔断与降级"]').count()).toBe(1);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('is a plain link to the search page without scripting', async () => {
    const context = await browser.newContext({ baseURL: site.origin, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    // No shortcut to show: without scripting there is no palette.
    expect(await page.locator('[data-palette-open] kbd').isVisible()).toBe(false);
    await page.locator('[data-palette-open]').click();
    await page.waitForURL((url) => url.pathname === '/search');
    await context.close();
  });
});

/** One visit of a page audited with axe: the page's text (for the reference), then axe in light and in dark. */
interface AuditedPage {
  target: string;
  /** The text outside <pre> blocks, and the count of inline code in descriptions. */
  bodyText: string;
  inlineCode: number;
  /** The body's computed background in each scheme. */
  background: Record<'light' | 'dark', string>;
  axe: Record<'light' | 'dark', AxeReport>;
}

/** The reference's pages audited: the overview, two operations (the simplest and the longest), the single page. */
/** The example search of the served description (drawn from the content at build time): what the Try it form holds. */
async function exampleSearch(): Promise<{ q: string; lang?: string }> {
  const doc = (await (await fetch(`${site.origin}/openapi.json`)).json()) as {
    paths: Record<string, { get: { parameters: { name: string; example?: unknown }[] } }>;
  };
  return Object.fromEntries(doc.paths['/api/search']!.get.parameters.map((p) => [p.name, p.example])) as { q: string; lang?: string };
}

const REFERENCE_PAGES = ['/docs/api', '/docs/api/search-articles', '/docs/api/mcp', '/docs/api/all'];

/**
 * Each audited page is loaded once, in the light scheme, and switched to dark for the dark audit
 * (the dark scheme changes only the `prefers-color-scheme` CSS): /docs/api/all, with every
 * operation, is the costliest page to load. The tests below share the visits.
 */
let audits: Promise<AuditedPage[]> | undefined;
function auditedPages(): Promise<AuditedPage[]> {
  audits ??= (async () => {
    const seen: AuditedPage[] = [];
    // One page goes from target to target (a context each would start a renderer each time).
    const { context, page } = await open();
    for (const target of [...REFERENCE_PAGES, '/developers', '/search?q=私有化部署']) {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(target);
      if (target.startsWith('/search')) await shown(page, '私有化部署');
      else if (target !== '/docs/api') await page.waitForSelector('.copy-button:not([hidden])');
      // Axe reads every operation of the single page.
      await drawAll(page);
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

/** Draws every operation of the single page, which draws far ones only near the screen (content-visibility). */
function drawAll(page: Page): Promise<void> {
  return page.evaluate(() => {
    for (const el of document.querySelectorAll<HTMLElement>('.operation')) el.style.contentVisibility = 'visible';
  });
}

/** Elements under `selector` whose text wraps onto a second line (their client rects are on more than one line). */
function wrapped(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) =>
    els
      .filter((el) => (el as HTMLElement).checkVisibility())
      .filter((el) => new Set([...el.getClientRects()].map((r) => Math.round(r.top))).size > 1)
      .map((el) => el.textContent ?? ''),
  );
}

/** Pieces of paths (between the <wbr> break points, each a span) that break across lines: a path broken mid-word. */
function brokenPaths(page: Page): Promise<string[]> {
  return page
    .locator('.operation-path > span')
    .evaluateAll((els) =>
      (els.length === 0 ? [document.createElement('span')] : els)
        .filter((el) => !el.isConnected || new Set([...el.getClientRects()].map((r) => Math.round(r.top))).size > 1)
        .map((el) => el.textContent || '(no path pieces on the page)'),
    );
}

/**
 * Code (identifiers, headers, paths, media types, the "Try it" URL) broken across lines although it would fit on one
 * line of its block: a token split at its hyphen (`If-` / `None-Match`) or anywhere. Code longer than a line may wrap.
 */
function splitCode(page: Page): Promise<string[]> {
  return page.locator('main :not(pre) > code').evaluateAll((els) =>
    els
      .filter((el) => (el as HTMLElement).checkVisibility())
      .filter((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom))).size > 1;
      })
      .filter((el) => {
        let block = el.parentElement!;
        while (/^inline|^contents$/.test(getComputedStyle(block).display)) block = block.parentElement!;
        const style = getComputedStyle(block);
        const available = block.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
        const probe = el.cloneNode(true) as HTMLElement;
        Object.assign(probe.style, { position: 'absolute', visibility: 'hidden', whiteSpace: 'nowrap', display: 'inline-block' });
        el.parentElement!.append(probe);
        const width = probe.getBoundingClientRect().width;
        probe.remove();
        return width <= available;
      })
      .map((el) => el.textContent ?? ''),
  );
}

describe('API reference', () => {
  it('has a sidebar of every operation by summary and method, linking each page, with a filter box', async () => {
    const { context, page, problems } = await open();
    await page.goto('/docs/api/search-articles');
    const nav = page.getByRole('navigation', { name: 'API reference' });
    await expect.poll(() => nav.isVisible()).toBe(true);
    const current = nav.locator('a[aria-current="page"]');
    expect(await current.getAttribute('href')).toBe('/docs/api/search-articles');
    expect(await current.locator('.method').textContent()).toBe('GET');
    expect(await page.locator('h1').textContent()).toBe(
      await current.locator('.api-nav-label').evaluate((el) => el.firstChild?.textContent),
    );
    const links = await nav.locator('[data-api-item] a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(links.length).toBeGreaterThanOrEqual(15);
    for (const href of links) expect(href).toMatch(/^\/docs\/api\/[a-z0-9-]+$/);
    // Labels are summaries, shown whole; no badge or label word breaks.
    expect(await wrapped(page, '.api-nav .method')).toEqual([]);
    expect(
      await nav
        .locator('.api-nav-label')
        .evaluateAll((els) => els.filter((el) => (el.firstChild?.textContent ?? '').includes('/api/')).length),
    ).toBe(0);

    // The filter keeps the operations whose summary, method, path or group hold every word typed.
    const filter = page.getByRole('searchbox', { name: 'Filter operations' });
    await filter.fill('token');
    const shownItems = () =>
      nav
        .locator('[data-api-item]')
        .evaluateAll((els) => els.filter((el) => (el as HTMLElement).checkVisibility()).map((el) => el.textContent ?? ''));
    await expect.poll(async () => (await shownItems()).length).toBeGreaterThan(0);
    expect((await shownItems()).length).toBeLessThan(links.length);
    for (const text of await shownItems()) expect(text.toLowerCase()).toContain('token');
    await filter.fill('post oauth');
    for (const text of await shownItems()) expect(text).toMatch(/POST[\s\S]*\/oauth\//);
    await filter.fill('zzzz');
    expect(await shownItems()).toEqual([]);
    expect(await page.getByText('No operation matches.').isVisible()).toBe(true);
    await filter.fill('');
    expect((await shownItems()).length).toBe(links.length);

    // A link leads to the operation's page, marked current there.
    await nav.locator('a[href="/docs/api/mcp"]').click();
    await page.waitForURL((url) => url.pathname === '/docs/api/mcp');
    expect(await page.getByRole('navigation', { name: 'API reference' }).locator('a[aria-current="page"]').getAttribute('href')).toBe(
      '/docs/api/mcp',
    );
    expect(await page.locator('a[rel="prev"]').count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps every operation on the single page, where the sidebar leads to its section', async () => {
    const { context, page, problems } = await open();
    await page.goto('/docs/api/all');
    const nav = page.getByRole('navigation', { name: 'API reference' });
    const operations = await page.locator('section.operation').evaluateAll((sections) => sections.map((s) => s.id));
    expect(operations.length).toBeGreaterThanOrEqual(15);
    const links = await nav.locator('a').evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).hash.slice(1)));
    for (const id of operations) expect(links).toContain(id);
    await nav.locator('a[href="#token"]').click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#token');
    // The operation lands just below the sticky site header, not under it.
    await expect.poll(() => page.locator('#token').evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeGreaterThan(0);
    const top = await page.locator('#token').evaluate((el) => el.getBoundingClientRect().top);
    const headerBottom = await page.locator('.site-header').evaluate((el) => el.getBoundingClientRect().bottom);
    expect(top).toBeGreaterThanOrEqual(headerBottom);
    expect(top - headerBottom).toBeLessThan(80);
    // The overview's old anchors (/docs/api#token) still name the operation, which links its page.
    await page.goto('/docs/api#token');
    expect(await page.locator('#token a').getAttribute('href')).toBe('/docs/api/token');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('copies the curl command with the copy button, and the tab chosen holds on the next operation', async () => {
    const { context, page, problems } = await open();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    await page.goto('/docs/api/search-articles');
    const samples = page.locator('[data-samples][data-tabs]').first();
    const curl = (await samples.locator('.sample[data-lang="curl"] pre').textContent())!;
    const { q } = await exampleSearch();
    expect(curl.startsWith(`curl -sS -G 'http://localhost:8899/api/search' \\\n  --data-urlencode 'q=${q}'`), curl).toBe(true);
    await samples.locator('.sample-tabs .copy-button').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(curl);
    expect(await samples.locator('.sample-tabs .copy-button').textContent()).toBe('Copied');

    await samples.getByRole('tab', { name: 'Python' }).click();
    expect(await samples.locator('.sample[data-lang="python"]').isVisible()).toBe(true);
    expect(await samples.locator('.sample[data-lang="curl"]').isVisible()).toBe(false);
    await samples.locator('.sample-tabs .copy-button').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toMatch(/^import requests\n/);
    // The choice holds for the other operations' samples.
    await page.goto('/docs/api/mcp');
    await expect.poll(() => page.locator('.sample[data-lang="python"]').first().isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sets the request and response beside the text on a wide screen, below it on a phone', async () => {
    for (const width of [1440, 390]) {
      const { context, page } = await open({ width });
      await page.goto('/docs/api/search-articles');
      const text = (await page.locator('.op-text').boundingBox())!;
      const examples = (await page.locator('.op-examples').boundingBox())!;
      if (width === 1440) {
        expect(examples.x, 'examples to the right of the text').toBeGreaterThanOrEqual(text.x + text.width);
        expect(Math.abs(examples.y - text.y), 'side by side').toBeLessThan(5);
        // The example response is on the first screen beside the description.
        expect(await page.getByRole('heading', { name: 'Response', exact: true }).isVisible()).toBe(true);
      } else {
        expect(examples.y, 'examples below the text').toBeGreaterThanOrEqual(text.y + text.height);
        expect(examples.width).toBeGreaterThan(300);
      }
      await context.close();
    }
  });

  it('stacks parameters on a phone: no badge, "required" or example breaks mid-word, and paths break only before a slash', {
    timeout: 300_000,
  }, async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { context, page, problems } = await open({ width: 390, colorScheme: scheme });
      const report: string[] = [];
      for (const target of [
        '/docs/api/search-articles',
        '/docs/api/authorize',
        '/docs/api/authorization-server-metadata',
        '/docs/api/token',
        '/docs/api/mcp',
        '/docs/api/all',
      ]) {
        await page.goto(target);
        await drawAll(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
        if (overflow > 0) report.push(`${target}: ${overflow} px wider than the screen`);
        for (const selector of [
          '.method',
          '.field-required',
          '.field-type',
          // A field's head: its type and "required"; a parameter's name (SchemaTree.astro, ParameterList.astro).
          '.schema > li > div:first-child > :is(span, strong)',
          '.params > li > div:first-child > code',
          '.params .field-constraints code',
          '.status',
        ])
          for (const text of await wrapped(page, selector)) report.push(`${target}: ${selector} "${text}" wraps`);
        for (const piece of await brokenPaths(page)) report.push(`${target}: path piece "${piece}" breaks`);
      }
      expect(report).toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('keeps identifiers and paths whole on a phone: code breaks (at a hyphen or anywhere) only when it cannot fit on a line', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await open({ width: 390 });
    const report: string[] = [];
    for (const target of [
      '/docs/api',
      '/docs/api/all',
      '/docs/api/authorization-server-metadata',
      '/docs/api/protected-resource-metadata',
      '/developers',
    ]) {
      await page.goto(target);
      await drawAll(page);
      for (const text of await splitCode(page)) report.push(`${target}: "${text}" breaks though it fits on a line`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      if (overflow > 0) report.push(`${target}: ${overflow} px wider than the screen`);
    }
    expect(report).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sends a public GET with "Try it" to this origin and shows the answer', async () => {
    for (const [width, scheme] of [
      [1280, 'light'],
      [390, 'dark'],
    ] as const) {
      const { context, page, problems } = await open({ width, colorScheme: scheme });
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.goto('/docs/api/search-articles');
      const form = page.locator('form[data-try-it]');
      const example = await exampleSearch();
      // Letters, digits and spaces: the URL shown keeps them as they are (a space as +).
      expect(example.q).toMatch(/^[\p{L}\p{N} ]+$/u);
      expect(await form.getByLabel('q').inputValue()).toBe(example.q);
      await form.getByLabel('limit').fill('2');
      // The documented example fills each parameter, the language filter too.
      // It shows the request as sent: encoded where encoding changes the meaning, Chinese as Chinese.
      const lang = example.lang ? `&lang=${example.lang}` : '';
      expect(await form.locator('[data-try-url]').textContent()).toBe(`GET /api/search?q=${example.q.replaceAll(' ', '+')}&limit=2${lang}`);
      await form.getByLabel('q').fill('a&limit=50');
      expect(await form.locator('[data-try-url]').textContent()).toBe(`GET /api/search?q=a%26limit%3D50&limit=2${lang}`);
      await form.getByLabel('q').fill(example.q);
      await form.getByRole('button', { name: 'Send request' }).click();
      const status = page.locator('[data-try-status]');
      await expect.poll(() => status.textContent()).toMatch(/^200 OK · \d+ ms · application\/json$/);
      const body = JSON.parse((await page.locator('[data-try-body]').textContent())!) as { url: string }[];
      expect(body.length).toBeGreaterThan(0);
      expect(body.length).toBeLessThanOrEqual(2);
      expect(requests.some((url) => url.startsWith(`${site.origin}/api/search?q=`) && url.includes('limit=2'))).toBe(true);
      // An invalid request shows the API's own problem document.
      await form.getByLabel('limit').fill('999');
      await form.getByRole('button', { name: 'Send request' }).click();
      await expect.poll(() => status.textContent()).toMatch(/^400 /);
      expect(await page.locator('[data-try-body]').textContent()).toContain('"status": 400');
      expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
      await context.close();
    }
    // Only public GETs answering JSON offer it.
    const { context, page } = await open();
    for (const [target, offered] of [
      ['/docs/api/get-health', 1],
      ['/docs/api/token', 0],
      ['/docs/api/authorize', 0],
      ['/docs/api/all', 0],
    ] as const) {
      await page.goto(target);
      expect(await page.locator('form[data-try-it]').count(), target).toBe(offered);
    }
    await context.close();
  });

  it('shows no literal backticks: descriptions are rendered', { timeout: 300_000 }, async () => {
    for (const target of REFERENCE_PAGES) {
      const { bodyText } = (await auditedPages()).find((visit) => visit.target === target)!;
      expect(bodyText.includes('`'), target).toBe(false);
    }
    expect((await auditedPages()).find((visit) => visit.target === '/docs/api/all')!.inlineCode).toBeGreaterThan(50);
  });

  for (const scheme of ['light', 'dark'] as const) {
    // The dark scheme changes only colours (prefers-color-scheme CSS): its pass runs the colour rules.
    it(`has no axe violations on the reference pages, /developers and /search with results, ${scheme} scheme`, {
      timeout: 300_000,
    }, async () => {
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
    await page.goto('/docs/api/search-articles');
    const details = page.locator('details.api-nav');
    expect(await details.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(await page.getByRole('navigation', { name: 'API reference' }).isVisible()).toBe(false);
    // The operation's title is on the first screen.
    expect(await page.locator('h1').evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThan(844 / 2);
    await page.locator('details.api-nav > summary').click();
    expect(await page.getByRole('navigation', { name: 'API reference' }).isVisible()).toBe(true);
    await context.close();
  });

  // Lighthouse counts a script that rearranges the page after the first paint as layout shift (it
  // held agentic browsing at 0.78 once on /docs/api): the HTML and CSS alone must already draw what
  // the scripts leave, the whole of the reference's pages and the first screen of every page type with a script.
  const WHOLE_PAGES = ['/docs/api', '/docs/api/search-articles', '/docs/api/mcp'];
  const LAYOUT_PAGES = [...WHOLE_PAGES, '/', '/blog', 'article', 'zh-article', 'solution', 'product', '/search', '/contact', '/developers'];
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
          // A box fixed to the window (the reader notice) moves nothing when it appears: it is not part of the layout.
          const fixed = (el: Element | null): boolean =>
            el !== null && el !== document.body && (getComputedStyle(el).position === 'fixed' || fixed(el.parentElement));
          const boxes = [...document.querySelectorAll('main *, footer')]
            .filter((el) => !fixed(el))
            .map((el) => ({ el, box: el.getBoundingClientRect() }));
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
        const drawn = await layout(withoutScripts.page, WHOLE_PAGES.includes(target));
        await page.goto(target);
        await page.waitForLoadState('networkidle');
        const after = await layout(page, WHOLE_PAGES.includes(target));
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

  it('shows every sample under its label when scripting is off, and "Try it" is a plain GET form', async () => {
    const context = await browser.newContext({ baseURL: site.origin, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/docs/api/search-articles');
    const samples = page.locator('[data-samples][data-tabs]').first();
    for (const label of ['curl', 'JavaScript', 'Python']) {
      expect(await samples.locator('.sample-label', { hasText: label }).isVisible()).toBe(true);
    }
    expect(await samples.locator('.sample pre').evaluateAll((pres) => pres.filter((pre) => pre.checkVisibility()).length)).toBe(3);
    expect(await samples.getByRole('tablist').isVisible()).toBe(false);
    expect(await page.locator('.api-filter').isVisible()).toBe(false);
    await page.locator('form[data-try-it]').getByRole('button', { name: 'Send request' }).click();
    const { q } = await exampleSearch();
    await page.waitForURL((url) => url.pathname === '/api/search' && url.searchParams.get('q') === q);
    await context.close();
  });
});
