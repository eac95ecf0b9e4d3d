/**
 * The built site in real Chromium, served by the local runtime on a free port: page rendering,
 * navigation, search, 404, the contact form, dark mode and axe. Pages link each other with relative
 * URLs (only the <head>'s canonical and alternate links carry the test origin, and a browser does
 * not fetch them), so none of this needs the test origin's port; the link check and Lighthouse,
 * which read those absolute links, are in site-origin.browser.test.ts on port 8899.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AXE_RUN_ONLY,
  type AxeReport,
  countLayoutShifts,
  launchBrowser,
  runAxe,
  useColorScheme,
  useServedSite,
} from '../support/browser.ts';
import { sitemapPaths } from '../support/runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const site = useServedSite({ port: 0 });

interface CatalogDoc {
  title: string;
  lang: 'zh' | 'en';
  path: string;
  markdown: string;
}
interface Catalog {
  articles: CatalogDoc[];
  solutions: CatalogDoc[];
  products: { path: string; name: string }[];
}
/** The catalogue the test build was made from (global setup rebuilt it when content changed). */
const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as Catalog;

/** One representative URL per page type, derived from the sitemap and the catalogue. */
interface PageType {
  name: string;
  path: string;
  status: number;
}
let pageTypes: PageType[] = [];
let browser: Browser;

/** Paths compared without a trailing slash (Pagefind links to /x/, canonical URLs are /x). */
const normalise = (url: string): string => new URL(url, site.origin).pathname.replace(/(.)\/$/, '$1');

beforeAll(async () => {
  const sitemap = sitemapPaths(await (await fetch(site.url('/sitemap.xml'))).text());
  const first = (test: (p: string) => boolean, label: string): string => {
    const found = sitemap.find(test);
    if (!found) throw new Error(`the sitemap lists no ${label}`);
    return found;
  };
  const zh = catalog.articles.find((a) => a.lang === 'zh');
  const en = catalog.articles.find((a) => a.lang === 'en');
  if (!zh || !en) throw new Error('the catalogue needs at least one zh and one en article');
  pageTypes = [
    { name: 'home', path: first((p) => p === '/', 'home'), status: 200 },
    { name: 'blog list', path: first((p) => p === '/blog', 'blog'), status: 200 },
    { name: 'blog page 2', path: first((p) => p === '/blog/page/2', 'blog page 2'), status: 200 },
    { name: 'category', path: first((p) => p.startsWith('/blog/category/'), 'category'), status: 200 },
    { name: 'zh article', path: zh.path, status: 200 },
    { name: 'en article', path: en.path, status: 200 },
    { name: 'solutions list', path: first((p) => p === '/solutions', 'solutions'), status: 200 },
    { name: 'solution', path: first((p) => p.startsWith('/solutions/'), 'solution'), status: 200 },
    { name: 'products list', path: first((p) => p === '/products', 'products'), status: 200 },
    { name: 'product', path: first((p) => p.startsWith('/products/'), 'product'), status: 200 },
    { name: 'search', path: first((p) => p === '/search', 'search'), status: 200 },
    { name: 'contact', path: first((p) => p === '/contact', 'contact'), status: 200 },
    { name: 'zh home', path: first((p) => p === '/zh', 'Chinese home'), status: 200 },
    { name: 'zh blog list', path: first((p) => p === '/zh/blog', 'Chinese blog'), status: 200 },
    { name: 'zh contact', path: first((p) => p === '/zh/contact', 'Chinese contact'), status: 200 },
    { name: 'zh search', path: first((p) => p === '/zh/search', 'Chinese search'), status: 200 },
    { name: 'tag', path: first((p) => p.startsWith('/blog/tag/'), 'tag'), status: 200 },
    { name: '404', path: '/no-such-page-for-the-browser-test', status: 404 },
    // The Chinese chrome of every section (issue 28, item 3).
    { name: 'zh solutions list', path: first((p) => p === '/zh/solutions', 'Chinese solutions'), status: 200 },
    { name: 'zh products list', path: first((p) => p === '/zh/products', 'Chinese products'), status: 200 },
    { name: 'zh product', path: first((p) => p.startsWith('/zh/products/'), 'Chinese product'), status: 200 },
    { name: 'zh developers', path: first((p) => p === '/zh/developers', 'Chinese developers hub'), status: 200 },
    { name: 'zh category', path: first((p) => p.startsWith('/zh/blog/category/'), 'Chinese category'), status: 200 },
    { name: 'zh 404', path: '/zh/no-such-page-for-the-browser-test', status: 404 },
    ...catalog.solutions
      .filter((s) => s.lang === 'en')
      .slice(0, 1)
      .map((s) => ({ name: 'solution in Chinese chrome', path: `/zh${s.path}`, status: 200 })),
    // Every other page type (issue 28, "Done when": axe 0 on every page).
    ...catalog.solutions
      .filter((s) => s.lang === 'zh')
      .slice(0, 1)
      .map((s) => ({ name: 'zh solution', path: s.path, status: 200 })),
    { name: 'English-only blog list', path: first((p) => p === '/en/blog', 'English blog'), status: 200 },
    { name: 'English-only tag', path: first((p) => p.startsWith('/en/blog/tag/'), 'English tag'), status: 200 },
    { name: 'zh tag', path: first((p) => p.startsWith('/zh/blog/tag/'), 'Chinese tag'), status: 200 },
    { name: 'developers', path: first((p) => p === '/developers', 'developers hub'), status: 200 },
    { name: 'glossary', path: first((p) => p === '/glossary', 'glossary'), status: 200 },
    { name: 'zh glossary', path: first((p) => p === '/zh/glossary', 'Chinese glossary'), status: 200 },
    { name: 'contact thanks', path: '/contact/thanks', status: 200 },
    { name: 'zh contact thanks', path: '/zh/contact/thanks', status: 200 },
  ];
  // The MDX article, when the content has one: the first article whose HTML renders a callout.
  for (const article of catalog.articles) {
    const html = await (await fetch(site.url(article.path))).text();
    if (html.includes('class="callout')) {
      pageTypes.splice(6, 0, { name: 'mdx article', path: article.path, status: 200 });
      break;
    }
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Console errors, uncaught exceptions, failed requests and HTTP errors of one page. */
interface PageProblems {
  console: string[];
  failed: string[];
}

async function openPage(): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext({
    baseURL: site.origin,
    colorScheme: 'light',
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const problems: PageProblems = { console: [], failed: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.console.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.console.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => problems.failed.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.failed.push(`${response.url()}: HTTP ${response.status()}`);
  });
  return { context, page, problems };
}

/** Waits until the search page's script has started (it sets its index state, or answers a query). */
async function searchReady(page: Page): Promise<void> {
  await page.locator('#search-input').waitFor({ state: 'visible', timeout: 10_000 });
}

/** Types a query into the search page and returns every result link once the page shows that query's results. */
async function search(page: Page, query: string): Promise<string[]> {
  await searchReady(page);
  await page.locator('#search-input').fill(query);
  await page.waitForFunction(
    (q) => {
      const root = document.querySelector<HTMLElement>('[data-search-config]');
      return root?.dataset.state === 'done' && root.dataset.query === q;
    },
    query.trim(),
    { timeout: 10_000 },
  );
  return page.locator('.search-result h2 a').evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
}

/** The longest run of Han characters in a title. */
const hanWord = (title: string): string => (title.match(/\p{Script=Han}+/gu) ?? []).sort((a, b) => b.length - a.length)[0] ?? '';
/** The longest ASCII word of a title. */
const latinWord = (title: string): string => (title.match(/[A-Za-z][A-Za-z0-9-]{3,}/g) ?? []).sort((a, b) => b.length - a.length)[0] ?? '';

/** What one visit of a page type saw: the render checks' readings, then axe in light and in dark. */
interface Visit {
  type: PageType;
  status: number | undefined;
  h1Visible: boolean;
  h1Count: number;
  h1Text: string | undefined;
  /** The page's problems once it had loaded and shown its h1 (before axe ran). */
  problems: PageProblems;
  /** The number of search results on the page when axe ran (the search page only). */
  searchResults?: number;
  /** The body's computed colours in each scheme. */
  colours: Record<'light' | 'dark', { bg: string; fg: string }>;
  axe: Record<'light' | 'dark', AxeReport>;
}

const bodyColours = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.body);
    return { bg: style.backgroundColor, fg: style.color };
  });

/**
 * Each page type is visited once: loaded in the light scheme for the render checks and the light
 * axe audit, then switched to dark for the dark audit (the dark scheme changes only the
 * `prefers-color-scheme` CSS, which the switch applies as a dark context would). One page goes
 * from type to type: a fresh context per type started a renderer process each time, about twice
 * the CPU of the navigation itself. The tests below share the visits, whichever runs first.
 */
let visits: Promise<Visit[]> | undefined;
function visitEveryPageType(): Promise<Visit[]> {
  visits ??= (async () => {
    const seen: Visit[] = [];
    const { context, page, problems } = await openPage();
    for (const type of pageTypes) {
      // Once the previous type's page has gone quiet, all that is seen from here on is this type's.
      await page.waitForLoadState('networkidle');
      problems.console.length = 0;
      problems.failed.length = 0;
      await page.emulateMedia({ colorScheme: 'light' });
      const response = await page.goto(type.path, { waitUntil: 'load' });
      if (type.name === 'search') await searchReady(page);
      const h1 = page.locator('h1');
      const h1Visible = await h1
        .first()
        .waitFor({ state: 'visible', timeout: 30_000 })
        .then(
          () => true,
          () => false,
        );
      const visit: Visit = {
        type,
        status: response?.status(),
        h1Visible,
        h1Count: await h1.count(),
        h1Text: (await h1.first().textContent())?.trim(),
        problems: { console: [...problems.console], failed: [...problems.failed] },
        colours: { light: await bodyColours(page), dark: { bg: '', fg: '' } },
        axe: {} as Visit['axe'],
      };
      // Search is audited with results on the page.
      if (type.name === 'search')
        visit.searchResults = (await search(page, latinWord(catalog.articles.find((a) => a.lang === 'en')!.title))).length;
      visit.axe.light = await runAxe(page, AXE_RUN_ONLY.light);
      await useColorScheme(page, 'dark');
      visit.colours.dark = await bodyColours(page);
      visit.axe.dark = await runAxe(page, AXE_RUN_ONLY.dark);
      seen.push(visit);
    }
    await context.close();
    return seen;
  })();
  return visits;
}

describe('every page type renders in Chromium', () => {
  it('shows a visible h1, with no console errors and no failed requests', { timeout: 420_000 }, async () => {
    expect(pageTypes.length).toBeGreaterThanOrEqual(33);
    for (const { type, status, h1Visible, h1Count, h1Text, problems } of await visitEveryPageType()) {
      expect(status, type.name).toBe(type.status);
      expect(h1Visible, `${type.name}: h1 visible`).toBe(true);
      expect(h1Count, `${type.name}: exactly one h1`).toBe(1);
      expect(h1Text, `${type.name}: h1 text`).toBeTruthy();
      // The 404 page's own document is the one expected HTTP error (Chromium also logs it).
      const expectedFailure = (line: string): boolean => type.status === 404 && line.includes(type.path) && line.includes('404');
      expect(
        problems.failed.filter((line) => !expectedFailure(line)),
        `${type.name}: failed requests`,
      ).toEqual([]);
      expect(
        problems.console.filter((line) => !(type.status === 404 && /status of 404/.test(line))),
        `${type.name}: console errors`,
      ).toEqual([]);
    }
  });
});

describe('navigation', () => {
  it('goes home → Blog → an article → Older → Newer (within its language), and through the blog pager', async () => {
    const { context, page, problems } = await openPage();
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/blog');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Blog');

    // The first card is the newest article in the reader's language (English first on /blog: issue 28, item 4).
    const card = page.locator('ul.grid > li.card').first().locator('h2 a');
    const title = (await card.textContent())!.trim();
    const newest = catalog.articles.find((a) => a.lang === 'en')!;
    expect(title).toBe(newest.title);
    await card.click();
    await page.waitForURL((url) => normalise(url.href) === newest.path);
    expect((await page.locator('h1').textContent())?.trim()).toBe(title);

    // The newest article of its language has only an older neighbour, in the same language.
    const sameLang = catalog.articles.filter((a) => a.lang === newest.lang);
    const [older, newer] = newest.lang === 'zh' ? [/较早 →/, /← 较新/] : [/Older →/, /← Newer/];
    expect(await page.locator('.prev-next a[rel="prev"]').count()).toBe(0);
    await page.getByRole('link', { name: older }).click();
    await page.waitForURL((url) => normalise(url.href) === sameLang[1]!.path);
    expect((await page.locator('h1').textContent())?.trim()).toBe(sameLang[1]!.title);
    await page.getByRole('link', { name: newer }).click();
    await page.waitForURL((url) => normalise(url.href) === newest.path);

    // The list pager: page 1 → page 2 → back.
    await page.goto('/blog');
    await page.getByRole('link', { name: 'Older articles →' }).click();
    await page.waitForURL((url) => url.pathname === '/blog/page/2');
    expect(await page.locator('h1').textContent()).toMatch(/^Blog, page 2 of \d+$/);
    await page.getByRole('link', { name: '← Newer articles' }).click();
    await page.waitForURL((url) => normalise(url.href) === '/blog' || url.pathname === '/blog/page/1');
    expect(problems.console).toEqual([]);
    // Navigating away cancels the previous page's pending requests (the favicon): not a failure.
    expect(problems.failed.filter((line) => !line.endsWith('net::ERR_ABORTED'))).toEqual([]);
    await context.close();
  });
});

describe('search', () => {
  it('finds a Chinese article for a Chinese query and an English article for an English query', async () => {
    const zh = catalog.articles.find((a) => a.lang === 'zh' && hanWord(a.title).length >= 2)!;
    const en = catalog.articles.find((a) => a.lang === 'en' && latinWord(a.title).length >= 4)!;
    expect(zh, 'a zh article with a Chinese title').toBeDefined();
    expect(en, 'an en article with an English title').toBeDefined();
    const { context, page, problems } = await openPage();
    await page.goto('/search');

    const zhQuery = hanWord(zh.title);
    const zhResults = (await search(page, zhQuery)).map(normalise);
    expect(zhResults, `results for ${zhQuery}`).toContain(zh.path);

    const enQuery = latinWord(en.title);
    const enResults = (await search(page, enQuery)).map(normalise);
    expect(enResults, `results for ${enQuery}`).toContain(en.path);

    // A nonsense query finds nothing (the assertions above are not vacuous).
    expect(await search(page, 'qqzxjv')).toEqual([]);
    expect(problems.console).toEqual([]);
    expect(problems.failed).toEqual([]);
    await context.close();
  });
});

describe('404 page', () => {
  it('answers an unknown path with status 404 and the not-found heading', async () => {
    const { context, page } = await openPage();
    const response = await page.goto('/blog/this-article-does-not-exist');
    expect(response?.status()).toBe(404);
    expect((await page.locator('h1').textContent())?.trim()).toMatch(/^Page not found/);
    expect(await page.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    await context.close();
  });

  it('does not move its footer when the pages with a similar address arrive (CLS under 0.01, phone and desktop, en and zh)', async () => {
    for (const width of [390, 1280])
      for (const target of ['/no-such-page', '/zh/no-such-page']) {
        const context = await browser.newContext({ baseURL: site.origin, viewport: { width, height: 800 } });
        const page = await context.newPage();
        const layoutShifts = await countLayoutShifts(page);
        await page.goto(target);
        await page.locator('[data-not-found-suggestions] li').first().waitFor();
        const { cls, shifts } = await layoutShifts();
        expect(cls, `${width} ${target}: ${shifts.join('; ')}`).toBeLessThan(0.01);
        await context.close();
      }
  });
});

describe('contact form', () => {
  it('works without JavaScript (errors page, then the thank-you page) and with it (inline errors, rate limit)', {
    timeout: 180_000,
  }, async () => {
    const noJs = await browser.newContext({ baseURL: site.origin, javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await plain.goto('/contact');
    await plain.fill('#name', 'No Script');
    await plain.fill('#email', 'not-an-address');
    await Promise.all([plain.waitForURL('**/api/contact'), plain.click('#contact-form button[type="submit"]')]);
    await expect.poll(() => plain.locator('#email-error').textContent()).toMatch(/email address like name@example.com/);
    expect(await plain.locator('#name').inputValue()).toBe('No Script');
    expect(await plain.title()).toMatch(/^Error: /);
    await plain.fill('#email', 'no.script@example.com');
    await Promise.all([plain.waitForURL('**/contact/thanks?id=*'), plain.click('#contact-form button[type="submit"]')]);
    expect(await plain.locator('h1').textContent()).toBe('Thank you');
    await noJs.close();

    const { context, page } = await openPage();
    await page.goto('/contact');
    await page.fill('#name', 'With Script');
    await page.fill('#email', 'bad');
    await page.click('#contact-form button[type="submit"]');
    await expect.poll(() => page.locator('#email-error').textContent()).toMatch(/email address like name@example.com/);
    expect(await page.locator('#email').getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toBe(`${site.origin}/contact`);
    // A valid second enquiry from the same client within the minute: the limit answers inline.
    await page.fill('#email', 'with.script@example.com');
    await page.click('#contact-form button[type="submit"]');
    await expect.poll(() => page.locator('#form-status').textContent()).toMatch(/less than a minute ago/);
    expect(await page.locator('#email-error').isHidden()).toBe(true);
    await context.close();
  });
});

describe('dark mode', () => {
  /** Relative luminance of a computed `rgb(...)` colour. */
  const luminance = (rgb: string): number => {
    const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };

  it('switches the body background with prefers-color-scheme', { timeout: 420_000 }, async () => {
    const home = (await visitEveryPageType()).find((visit) => visit.type.path === '/')!;
    const colours = home.colours;
    expect(colours.dark.bg).not.toBe(colours.light.bg);
    expect(luminance(colours.light.bg)).toBeGreaterThan(0.8);
    expect(luminance(colours.dark.bg)).toBeLessThan(0.05);
    expect(luminance(colours.dark.fg)).toBeGreaterThan(0.6);
  });

  it("prints an article as dark text on white without the site controls, whatever the reader's colour scheme", async () => {
    // An article with a code block: its copy button is the page's own control too.
    const article = catalog.articles.find((a) => a.lang === 'en' && a.markdown.includes('```'))!;
    const context = await browser.newContext({ baseURL: site.origin, colorScheme: 'dark' });
    try {
      const page = await context.newPage();
      await page.goto(article.path);
      await page.locator('.copy-code').first().waitFor();
      await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
      const printed = await page.evaluate(() => {
        const shown = (selector: string): boolean =>
          [...document.querySelectorAll(selector)].some((e) => getComputedStyle(e).display !== 'none' && e.getClientRects().length > 0);
        return {
          fg: getComputedStyle(document.body).color,
          header: getComputedStyle(document.querySelector('.site-header')!).position,
          controls: [
            '.site-nav',
            '.header-tools',
            '.page-actions',
            '.page-feedback',
            '.copy-code',
            '.toc',
            '.site-footer .footer-grid',
          ].filter(shown),
          h1: shown('h1'),
          text: shown('.prose'),
          legal: shown('.footer-legal'),
        };
      });
      expect(luminance(printed.fg)).toBeLessThan(0.05);
      expect(printed.header).toBe('static');
      expect(printed.controls).toEqual([]);
      expect(printed).toMatchObject({ h1: true, text: true, legal: true });
      // On screen the same reader keeps the dark palette.
      await page.emulateMedia({ media: 'screen', colorScheme: 'dark' });
      expect(luminance(await page.evaluate(() => getComputedStyle(document.body).color))).toBeGreaterThan(0.6);
    } finally {
      await context.close();
    }
  });
});

describe('axe-core (WCAG 2.1 A/AA + best practice)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`finds no violations on any page type, ${scheme} scheme${scheme === 'dark' ? ' (the colour rules)' : ''}`, {
      timeout: 420_000,
    }, async () => {
      const report: string[] = [];
      let checked = 0;
      for (const { type, searchResults, colours, axe } of await visitEveryPageType()) {
        if (type.name === 'search') expect(searchResults, 'search audited with results').toBeGreaterThan(0);
        if (scheme === 'dark') expect(colours.dark.bg, `${type.name}: audited in the dark scheme`).not.toBe(colours.light.bg);
        const result = axe[scheme];
        checked += result.passes.length > 0 ? 1 : 0;
        for (const violation of result.violations) {
          const targets = violation.nodes
            .slice(0, 5)
            .map((node) => node.target.join(' '))
            .join(' | ');
          report.push(`${type.name} (${type.path}): ${violation.id} [${violation.impact}] ${violation.nodes.length}× ${targets}`);
        }
      }
      expect(checked, 'axe ran on every page').toBe(pageTypes.length);
      expect(report, `axe violations (${scheme}):\n${report.join('\n')}`).toEqual([]);
    });
  }
});
