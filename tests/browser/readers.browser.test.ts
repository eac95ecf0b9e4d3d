/**
 * Issue 28 as a reader checks it, in real Chromium over the built site: every page a Chinese reader
 * reaches from a Chinese page is in Chinese chrome (or the link says it leads to English); the
 * language switch keeps you where you are; listings put the reader's language first; Chinese
 * typography (no stray spaces, CJK punctuation face, balanced headlines); meta rows that never start
 * a line with a separator; axe on every article in both themes; the home hero and the product grid;
 * the 404 page in the reader's language with a search box and suggestions.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AXE_RUN_ONLY, launchBrowser, runAxe, useColorScheme, useServedSite } from '../support/browser.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const site = useServedSite({ port: 0 });

interface CatalogDoc {
  slug: string;
  title: string;
  lang: 'zh' | 'en';
  path: string;
  translation?: string;
}
const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as {
  articles: CatalogDoc[];
  solutions: CatalogDoc[];
  products: { slug: string; name: string; path: string }[];
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function open(
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: site.origin,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** A page's `<html lang>` and its same-origin links (path, hreflang), from the HTML as served. */
async function readPage(
  pathname: string,
): Promise<{ status: number; type: string; lang: string | null; links: { href: string; hreflang: string | null }[] }> {
  const response = await fetch(site.url(pathname), { headers: { accept: 'text/html' } });
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/html')) return { status: response.status, type, lang: null, links: [] };
  const html = await response.text();
  const lang = /<html[^>]*\slang="([^"]+)"/.exec(html)?.[1] ?? null;
  const links: { href: string; hreflang: string | null }[] = [];
  for (const [tag] of html.matchAll(/<a\s[^>]*>/g)) {
    const href = /\shref="([^"]*)"/.exec(tag)?.[1];
    if (!href || href.startsWith('#') || /^(mailto|tel):/.test(href)) continue;
    const url = new URL(href.replaceAll('&amp;', '&'), site.url(pathname));
    if (url.origin !== new URL(site.origin).origin && !url.href.startsWith('http://localhost:8899')) continue;
    links.push({ href: decodeURIComponent(url.pathname), hreflang: /\shreflang="([^"]+)"/.exec(tag)?.[1] ?? null });
  }
  return { status: response.status, type, lang, links };
}

describe('Chinese readers: no dead ends (item 3)', () => {
  it('every HTML page linked from a Chinese page is in Chinese chrome, or its link says it leads to English', async () => {
    const seen = new Set<string>(['/zh']);
    const queue = ['/zh'];
    const deadEnds: string[] = [];
    let checked = 0;
    while (queue.length > 0) {
      const from = queue.shift()!;
      const page = await readPage(from);
      if (page.lang !== 'zh-CN') continue;
      for (const link of page.links) {
        if (/\.(md|txt|xml|json)$/.test(link.href) || link.href.startsWith('/.well-known') || link.href.startsWith('/api/')) continue;
        const target = await readPage(link.href);
        checked++;
        if (target.lang === null) continue; // not an HTML page
        if (target.lang !== 'zh-CN' && link.hreflang === null) deadEnds.push(`${from} → ${link.href} (${target.lang})`);
        if (target.lang === 'zh-CN' && !seen.has(link.href) && seen.size < 400) {
          seen.add(link.href);
          queue.push(link.href);
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect([...new Set(deadEnds)]).toEqual([]);
    // The sections themselves, not only their links, are Chinese.
    for (const section of ['/zh/solutions', '/zh/products', '/zh/developers', '/zh/contact', `/zh/products/${catalog.products[0]!.slug}`]) {
      expect(seen.has(section), section).toBe(true);
    }
  }, 600_000);

  it('a solution written in English opens in Chinese chrome and says it is in English', async () => {
    const solution = catalog.solutions.find((s) => s.lang === 'en')!;
    const { context, page } = await open();
    await page.goto(`/zh${solution.path}`);
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.locator('.notice').textContent()).toBe('本页只有英文版，暂无中文译文。');
    expect(await page.locator('.prose').getAttribute('lang')).toBe('en');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(new RegExp(`${solution.path}$`));
    await context.close();
  });

  it('the contact page takes its labels and address from content/company.yaml, in Chinese, and the form channel stays on the page', async () => {
    const yaml = readFileSync(path.join(ROOT, 'content', 'company.yaml'), 'utf8');
    const { context, page } = await open();
    await page.goto('/zh/contact');
    const labels = await page.locator('.channel-label').allTextContents();
    for (const label of labels) expect(yaml, label).toContain(`label_zh: ${label}`);
    expect(labels).toContain('公司总部');
    expect(await page.locator('.channels').textContent()).toContain('中国北京市海淀区');
    const formLink = page.getByRole('link', { name: '本站在线咨询表单' });
    expect(await formLink.getAttribute('href')).toBe('#enquiry');
    expect(await page.locator('.footer-legal').textContent()).toContain('内容版权归艾克米智能所有');
    await context.close();
  });
});

describe('the language switch keeps you where you are (item 4)', () => {
  const zhOnly = catalog.articles.find((a) => a.lang === 'zh' && !a.translation)!;
  const enSolution = catalog.solutions.find((s) => s.lang === 'en')!;
  const product = catalog.products[0]!;
  it.each([
    ['/zh/blog', '/en/blog'],
    ['/en/blog', '/zh/blog'],
    [product.path, `/zh/products/${product.slug}`],
    [`/zh/products/${product.slug}`, product.path],
    ['/products', '/zh/products'],
    ['/solutions', '/zh/solutions'],
    [enSolution.path, `/zh${enSolution.path}`],
    [`/zh${enSolution.path}`, enSolution.path],
    ['/developers', '/zh/developers'],
    ['/zh/developers', '/developers'],
    [zhOnly.path, '/en/blog'],
    ['/contact', '/zh/contact'],
  ])('%s → %s', async (from, to) => {
    const { context, page } = await open({ width: 390, height: 844 });
    await page.goto(from);
    await page.locator('[data-lang-switch]').click();
    await page.waitForURL((url) => decodeURIComponent(url.pathname) === to);
    await context.close();
  });

  it('listings and home sections show the reader’s language first, and a badge on the others', async () => {
    const { context, page } = await open();
    for (const [pathname, lang] of [
      ['/blog', 'en'],
      ['/zh', 'zh-CN'],
      ['/', 'en'],
    ] as const) {
      await page.goto(pathname);
      // A document's card: its language is its title's (the card's dates and labels are the page's).
      const cards = page.locator('ul.grid > li.card:has(> :is(h2, h3)[lang])');
      const langs = await cards.evaluateAll((els) => els.map((el) => el.querySelector(':scope > :is(h2, h3)')!.getAttribute('lang')));
      expect(langs[0], pathname).toBe(lang);
      // Once the other language starts, the reader's does not come back (one block each).
      const firstOther = langs.findIndex((l) => l !== lang);
      if (firstOther >= 0) expect(langs.slice(firstOther).includes(lang), pathname).toBe(false);
      const badged = await cards.evaluateAll((els) => els.map((el) => el.querySelector('.badge-lang') !== null));
      expect(badged, pathname).toEqual(langs.map((l) => l !== lang));
    }
    // The way to see both: the language filter on the blog.
    await page.goto('/blog');
    expect(await page.getByRole('navigation', { name: 'Language' }).getByRole('link').allTextContents()).toEqual([
      'All',
      'English',
      '中文',
    ]);
    await context.close();
  });
});

describe('the language switch keeps the search and the section of a missing page (issue 28 stranger #3, #8)', () => {
  it.each([
    ['/zh/search?q=网关&lang=zh', '/search', { q: '网关', lang: 'zh' }],
    ['/search?q=gateway&lang=en', '/zh/search', { q: 'gateway', lang: 'en' }],
  ])('%s → %s keeping the query and filters', async (from, to, params) => {
    const { context, page } = await open({ width: 390, height: 844 });
    await page.goto(from);
    await page.locator('[data-search-results] li').first().waitFor();
    await page.locator('[data-lang-switch]').click();
    await page.waitForURL((url) => url.pathname === to);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual(params);
    expect(await page.locator('#search-input').inputValue()).toBe(params.q);
    await context.close();
  });

  it.each([
    ['/zh/blog/no-such-thing', '/en/blog'],
    ['/blog/no-such-thing', '/zh/blog'],
    ['/zh/products/no-such-product', '/products'],
  ])('404 %s → %s, not the other home page', async (from, to) => {
    const { context, page } = await open({ width: 390, height: 844 });
    expect((await page.goto(from))?.status()).toBe(404);
    await page.locator('[data-lang-switch]').click();
    await page.waitForURL((url) => url.pathname === to);
    await context.close();
  });
});

describe('the 404 suggests the address one typo away, in its section (issue 28 stranger #4)', () => {
  it.each([
    ['/blog/llm-inference-cost-optimisation-zh', '/blog/llm-inference-cost-optimization-zh'],
    ['/zh/products/llm-gatway', '/zh/products/llm-gateway'],
    ['/docs/api/search-article', '/docs/api/search-articles'],
    // Tag and category pages too, in the reader's chrome, and a section spelt as a plural (issue 28, left low).
    ['/blog/tags/ragg', '/blog/tag/rag'],
    ['/zh/blog/category/ai-agent', '/zh/blog/category/ai-agents'],
  ])('%s suggests %s first', async (missing, expected) => {
    const { context, page, errors } = await open({ width: 390, height: 844 });
    expect((await page.goto(missing))?.status()).toBe(404);
    const first = page.locator('[data-not-found-suggestions] a').first();
    await first.waitFor();
    expect(await first.getAttribute('href')).toBe(expected);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the developers hub is found by its text (issue 28 stranger #5)', () => {
  it.each([
    ['/search?q=MCP%20Inspector', '/developers'],
    ['/search?q=Claude%20Code', '/developers'],
    ['/search?q=agent%20skills', '/developers'],
    [`/zh/search?q=${encodeURIComponent('智能体技能')}`, '/zh/developers'],
  ])('%s lists %s', async (search, hub) => {
    const { context, page } = await open();
    await page.goto(search);
    await expect.poll(() => page.locator(`[data-search-results] a[href="${hub}"]`).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await context.close();
  });
});

describe('"All" on the Chinese blog stays in Chinese chrome (issue 28 stranger #2)', () => {
  it('/zh/blog → 全部 → /zh/blog/all: both languages, Chinese first, <html lang="zh-CN">', async () => {
    const { context, page } = await open({ width: 390, height: 844 });
    await page.goto('/zh/blog');
    await page.getByRole('link', { name: '全部', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/zh/blog/all');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.locator('h1').textContent()).toBe('博客');
    const cards = page.locator('ul.grid > li a[href^="/blog/"]');
    expect(await cards.first().getAttribute('hreflang')).toBeNull();
    expect(await page.locator('ul.grid a[hreflang="en"]').count()).toBeGreaterThan(0);
    await page.locator('[data-lang-switch]').click();
    await page.waitForURL((url) => url.pathname === '/blog');
    await context.close();
  });
});

describe('an article in one language only tells a reader from the other language so, in theirs (issue 28 stranger #1)', () => {
  const enOnly = catalog.articles.find((a) => a.lang === 'en' && !a.translation)!;
  const zhOnly = catalog.articles.find((a) => a.lang === 'zh' && !a.translation)!;

  it('a reader from the Chinese blog gets a Chinese notice on an English-only article, fixed (nothing moves), and can close it', async () => {
    const { context, page, errors } = await open({ width: 390, height: 844 });
    await page.goto('/zh/blog');
    const lead = async (): Promise<number> => page.locator('.lead').evaluate((el) => el.getBoundingClientRect().top);
    await page.goto(enOnly.path);
    const notice = page.locator('[data-reader-notice]');
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.getAttribute('lang')).toBe('zh-CN');
    // No ASCII space after 。 (item 5); the page ends above the notice, so it hides nothing at the bottom.
    expect(await notice.locator('p').textContent()).toBe('本文只有英文版，暂无中文译文。看中文文章');
    expect(await page.evaluate(() => parseFloat(getComputedStyle(document.body).paddingBottom))).toBeGreaterThanOrEqual(
      await notice.evaluate((el) => el.getBoundingClientRect().height),
    );
    expect(await notice.getByRole('link').getAttribute('href')).toBe('/zh/blog');
    expect(await notice.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    const withNotice = await lead();
    const axe = await runAxe(page, AXE_RUN_ONLY.light);
    expect(axe.violations).toEqual([]);
    // Escape from inside it closes it, and the keyboard goes on from the article's heading.
    await notice.getByRole('button', { name: '关闭' }).focus();
    await page.keyboard.press('Escape');
    expect(await notice.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(await lead()).toBe(withNotice);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('an English reader gets an English notice on a Chinese-only article', async () => {
    const { context, page } = await open();
    await page.goto('/blog');
    await page.goto(zhOnly.path);
    const notice = page.locator('[data-reader-notice]');
    await expect.poll(() => notice.isVisible()).toBe(true);
    expect(await notice.getAttribute('lang')).toBe('en');
    expect(await notice.getByRole('link').getAttribute('href')).toBe('/en/blog');
    await notice.getByRole('button', { name: 'Close' }).click();
    expect(await notice.isVisible()).toBe(false);
    await context.close();
  });

  it('the API reference (English only) tells a reader from the Chinese developers page so, and where the Chinese page is', async () => {
    const { context, page, errors } = await open({ width: 390, height: 844 });
    await page.goto('/zh/developers');
    for (const reference of ['/docs/api', '/docs/api/search-articles', '/docs/api/all']) {
      await page.goto(reference);
      const notice = page.locator('[data-reader-notice]');
      await expect.poll(() => notice.isVisible(), { message: reference }).toBe(true);
      expect(await notice.locator('p').textContent()).toBe('API 参考只有英文版（内容来自 OpenAPI 描述）。看中文开发者页面');
      expect(await notice.getByRole('link').getAttribute('href')).toBe('/zh/developers');
      await page.goto('/zh/developers');
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says nothing to a reader from the same language, or who landed on the article first', async () => {
    const { context, page } = await open();
    await page.goto(enOnly.path);
    await page.waitForLoadState('load');
    expect(await page.locator('[data-reader-notice]').isVisible()).toBe(false);
    await page.goto('/blog');
    await page.goto(enOnly.path);
    await page.waitForLoadState('load');
    expect(await page.locator('[data-reader-notice]').isVisible()).toBe(false);
    await context.close();
  });
});

describe('Chinese typography (item 5)', () => {
  it('no ASCII space after Chinese punctuation on the Chinese home and search page and in llms.txt', async () => {
    const { context, page } = await open();
    for (const path of ['/zh', '/zh/search']) {
      await page.goto(path);
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text.match(/[。，；：！？、] \S/gu) ?? [], path).toEqual([]);
    }
    await context.close();
    const llms = await (await fetch(site.url('/llms.txt'))).text();
    expect(llms.match(/[。，；：！？、] [\p{Script=Han}]/gu) ?? []).toEqual([]);
  });

  it('Chinese headlines and card titles break between words, never inside one (no "指/南", "量/化")', async () => {
    const zhArticles = catalog.articles.filter((a) => a.lang === 'zh').slice(0, 4);
    for (const width of [390, 1440]) {
      const { context, page } = await open({ width, height: 900 });
      for (const path of ['/zh/blog', '/zh', ...zhArticles.map((a) => a.path)]) {
        await page.goto(path);
        const splits = await page.locator('h1, .card h2, .card h3').evaluateAll((headings) => {
          const found: string[] = [];
          const words = new Intl.Segmenter('zh', { granularity: 'word' });
          for (const heading of headings) {
            const text = heading.textContent ?? '';
            if (!/\p{Script=Han}/u.test(text)) continue;
            // Each character's line, by its box; a break is where the next character sits lower.
            const tops: number[] = [];
            const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              for (let i = 0; i < node.textContent!.length; i++) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                tops.push(range.getBoundingClientRect().top);
              }
            }
            let at = 0;
            for (const { segment, isWordLike } of words.segment(text)) {
              for (let i = at + 1; i < at + segment.length; i++) {
                if (isWordLike && tops[i]! > tops[i - 1]! + 4) found.push(`${text.slice(0, i)}/${text.slice(i)}`);
              }
              at += segment.length;
            }
          }
          return found;
        });
        expect(splits, `${path} at ${width}`).toEqual([]);
      }
      await context.close();
    }
  });

  it('Chinese text draws its punctuation in the CJK face, balances its headlines and keeps a measure of about 40 Han characters', async () => {
    const { context, page } = await open();
    const zh = catalog.articles.find((a) => a.lang === 'zh')!;
    await page.goto(zh.path);
    const style = await page
      .locator('.prose > p')
      .first()
      .evaluate((p) => {
        const s = getComputedStyle(p);
        return { family: s.fontFamily, size: Number.parseFloat(s.fontSize), width: p.getBoundingClientRect().width };
      });
    expect(style.family.startsWith('"CJK Punctuation"')).toBe(true);
    const perLine = style.width / style.size;
    expect(perLine).toBeGreaterThanOrEqual(36);
    expect(perLine).toBeLessThanOrEqual(42);
    expect(await page.locator('h1').evaluate((h) => getComputedStyle(h).textWrap)).toContain('balance');
    // Code keeps its monospace face.
    const code = page.locator('.prose code').first();
    if (await code.count()) expect(await code.evaluate((c) => getComputedStyle(c).fontFamily)).toMatch(/^ui-monospace/);
    // English text keeps about 70 Latin characters a line.
    const en = catalog.articles.find((a) => a.lang === 'en')!;
    await page.goto(en.path);
    const chars = await page
      .locator('.prose > p')
      .first()
      .evaluate((p) => {
        const range = document.createRange();
        range.selectNodeContents(p);
        const lines = [...range.getClientRects()].length;
        return (p.textContent ?? '').length / Math.max(1, lines);
      });
    expect(chars).toBeGreaterThan(55);
    expect(chars).toBeLessThan(85);
    await context.close();
  });
});

describe('meta rows (item 6)', () => {
  it('never start a line with a separator, on phones and desktops, in both languages', async () => {
    const pages = [
      catalog.articles.find((a) => a.lang === 'zh')!.path,
      catalog.articles.find((a) => a.lang === 'en')!.path,
      `/zh${catalog.solutions.find((s) => s.lang === 'en')!.path}`,
      '/',
      '/zh',
    ];
    let wrapped = 0;
    for (const width of [390, 1280]) {
      const { context, page } = await open({ width, height: 844 });
      for (const pathname of pages) {
        await page.goto(pathname);
        for (const row of await page.locator('ul.meta').all()) {
          const starts = await row.evaluate((ul) => {
            const clip = ul.getBoundingClientRect().left + Number.parseFloat(getComputedStyle(ul).marginLeft) * -1;
            // A new line starts where an item begins below the bottom of the line so far (items of one line differ in height).
            let bottom = Number.NEGATIVE_INFINITY;
            const lines: { separatorRight: number; clip: number }[] = [];
            for (const li of ul.children) {
              const box = li.getBoundingClientRect();
              if (box.top >= bottom - 1) {
                const before = getComputedStyle(li, '::before');
                lines.push({ separatorRight: box.left + Number.parseFloat(before.width), clip });
                bottom = box.bottom;
              } else bottom = Math.max(bottom, box.bottom);
            }
            return lines;
          });
          if (starts.length > 1) wrapped++;
          // The separator that starts each line ends where the visible row begins: it is clipped away.
          for (const line of starts) expect(line.separatorRight, pathname).toBeLessThanOrEqual(line.clip + 0.5);
        }
      }
      await context.close();
    }
    expect(wrapped, 'some meta row wraps on a phone').toBeGreaterThan(0);
  });
});

describe('code blocks (item 7)', () => {
  it('use the room beside the text on a wide screen, so a line that fits is not scrolled; stay in the column on a phone', async () => {
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      const { context, page, errors } = await open({ width, height });
      await page.goto('/blog/llm-gateway-token-budgets');
      const box = await page.evaluate(() => {
        const rect = (el: Element | null): DOMRect => el!.getBoundingClientRect();
        const frame = document.querySelector('.prose > .code-frame[data-language="typescript"]')!;
        const pre = frame.querySelector('pre')!;
        const toc = document.querySelector('.toc');
        return {
          prose: rect(document.querySelector('.prose')).right,
          frame: rect(frame).right,
          toc: toc && getComputedStyle(toc).position === 'sticky' ? rect(toc).left : null,
          hidden: pre.scrollWidth - pre.clientWidth,
          viewport: innerWidth,
        };
      });
      if (width === 1440) {
        // Wider than the text column, short of the contents, and every line of the block shown.
        expect(box.frame).toBeGreaterThan(box.prose + 100);
        expect(box.frame).toBeLessThan(box.toc! - 16);
        expect(box.hidden, JSON.stringify(box)).toBeLessThanOrEqual(0);
      } else {
        expect(box.frame).toBeLessThanOrEqual(box.prose + 0.5);
        expect(box.frame).toBeLessThanOrEqual(box.viewport);
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe('code in Chinese pages', () => {
  it('draws every token of a code block in the code face, in Chinese articles as in English ones', async () => {
    const { context, page, errors } = await open({ width: 390, height: 844 });
    for (const target of ['/blog/llm-api-gateway-circuit-breaker-quota-zh', '/blog/llm-gateway-token-budgets']) {
      await page.goto(target);
      const faces = await page.evaluate(() =>
        [...document.querySelectorAll('.prose pre')].flatMap((pre) => {
          const face = getComputedStyle(pre).fontFamily;
          return [...pre.querySelectorAll('*')].map((el) => getComputedStyle(el).fontFamily).filter((f) => f !== face);
        }),
      );
      expect(faces, target).toEqual([]);
      expect(await page.locator('.prose pre span').count(), target).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('every article passes axe in both themes (item 7)', () => {
  it('light: WCAG 2.1 A/AA and best practice; dark: the colour rules', async () => {
    const { context, page } = await open();
    const problems: string[] = [];
    for (const article of catalog.articles) {
      await page.goto(article.path);
      await useColorScheme(page, 'light');
      for (const v of (await runAxe(page, AXE_RUN_ONLY.light)).violations)
        problems.push(`${article.path} light ${v.id} ×${v.nodes.length}`);
      await useColorScheme(page, 'dark');
      for (const v of (await runAxe(page, AXE_RUN_ONLY.dark)).violations) problems.push(`${article.path} dark ${v.id} ×${v.nodes.length}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  }, 600_000);
});

describe('a face (item 8)', () => {
  it('the English hero says what the company does, with the placeholder notice below it', async () => {
    const yaml = readFileSync(path.join(ROOT, 'content', 'company.yaml'), 'utf8');
    const { context, page } = await open({ width: 390, height: 844 });
    await page.goto('/');
    const lead = (await page.locator('.hero .lead').textContent())!;
    expect(lead.startsWith('We install and run the whole generative-AI stack')).toBe(true);
    expect(lead).not.toMatch(/placeholder|fictional/);
    expect(yaml).toContain('disclaimer:');
    expect(await page.locator('.hero-note').textContent()).toMatch(/placeholder brand/);
    // The pitch is on the first screen of a phone.
    expect((await page.locator('.hero .lead').boundingBox())!.y).toBeLessThan(844 / 2);
    await context.close();
  });

  it('grids leave no card alone on its row (four products go two by two)', async () => {
    for (const pathname of ['/products', '/zh/products', '/']) {
      const { context, page } = await open({ width: 1280, height: 900 });
      await page.goto(pathname);
      for (const grid of await page.locator('ul.grid').all()) {
        const rows = await grid.evaluate((ul) => {
          const tops = new Map<number, number>();
          for (const li of ul.children)
            tops.set(Math.round(li.getBoundingClientRect().top), (tops.get(Math.round(li.getBoundingClientRect().top)) ?? 0) + 1);
          return [...tops.values()];
        });
        if (rows.length > 1) expect(rows.at(-1), `${pathname}: ${rows.join(', ')}`).toBeGreaterThan(1);
      }
      await context.close();
    }
  });
});

describe('404 (item 11)', () => {
  it('answers in the reader’s language with a search box and pages whose address is close', async () => {
    const article = catalog.articles.find((a) => a.lang === 'en' && a.slug.length > 12)!;
    const typo = article.slug.slice(0, -2) + article.slug.slice(-1);
    const { context, page, errors } = await open({ width: 390, height: 844 });
    const response = await page.goto(`/blog/${typo}`);
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.locator('#not-found-q').inputValue()).toBe(typo.replace(/-/g, ' '));
    const suggestions = page.locator('[data-not-found-suggestions] a');
    await expect.poll(() => suggestions.count()).toBeGreaterThan(0);
    expect(await suggestions.first().getAttribute('href')).toBe(article.path);
    await page.locator('#not-found-q').press('Enter');
    await page.waitForURL((url) => url.pathname === '/search' && url.searchParams.get('q') === typo.replace(/-/g, ' '));

    const zh = await page.goto('/zh/no-such-page');
    expect(zh?.status()).toBe(404);
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.locator('h1').textContent()).toBe('页面不存在');
    expect(await page.locator('.not-found-search').getAttribute('action')).toBe('/zh/search');
    expect(errors).toEqual([]);
    await context.close();
  });
});
