/**
 * The reader's interface in real Chromium over the built site (port 8899): the language switch and
 * the Chinese chrome, page actions, the article's table of contents, code frames and tables, the
 * contact form (validation, product from the URL, busy state, reference number, both languages),
 * the developers section of the nav and footer, the Chinese search page and the phone header.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, useServedSite } from '../support/browser.ts';
import { TEST_ORIGIN } from '../support/origin.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const site = useServedSite();

interface CatalogDoc {
  slug: string;
  title: string;
  lang: 'zh' | 'en';
  path: string;
}
const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as {
  articles: CatalogDoc[];
  products: { slug: string; name: string; path: string }[];
};
const zhArticle = catalog.articles.find((a) => a.lang === 'zh')!;
const enArticle = catalog.articles.find((a) => a.lang === 'en')!;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

let nextIp = 10;
/** A page in a fresh context; each context posts from its own client address (the contact limit is per IP). */
async function open(
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark'; clipboard?: boolean; javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: TEST_ORIGIN,
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${nextIp++}` },
  });
  if (options.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: TEST_ORIGIN });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { context, page, errors };
}

describe('language switch', () => {
  it('goes from the English home to the Chinese one and back, and the chrome follows the language', async () => {
    const { context, page, errors } = await open();
    await page.goto('/');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    const toChinese = page.locator('[data-lang-switch]');
    expect((await toChinese.textContent())?.trim()).toBe('中文');
    expect(await toChinese.getAttribute('hreflang')).toBe('zh-CN');
    await toChinese.click();
    await page.waitForURL((url) => url.pathname === '/zh');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    const nav = page.getByRole('navigation', { name: '主导航' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['博客', '解决方案', '产品', '开发者', '联系我们']);
    expect(await page.locator('link[rel="alternate"][hreflang="en"]').getAttribute('href')).toBe(`${TEST_ORIGIN}/`);
    await nav.getByRole('link', { name: '博客' }).click();
    await page.waitForURL((url) => url.pathname === '/zh/blog');
    // The Chinese listing lists Chinese articles only, with Chinese dates.
    const cards = page.locator('ul.grid > li.card');
    expect(await cards.count()).toBeGreaterThan(0);
    const titleLangs = await cards.evaluateAll((els) => els.map((el) => el.querySelector(':scope > h2')?.getAttribute('lang')));
    for (const lang of titleLangs) expect(lang).toBe('zh-CN');
    expect(await cards.first().locator('time').textContent()).toMatch(/^\d{4}年\d{1,2}月\d{1,2}日$/);
    await page.locator('[data-lang-switch]').click();
    await page.waitForURL((url) => url.pathname === '/en/blog');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a Chinese article: Chinese chrome and dates, newer/older stay Chinese, the switch leads to the English blog', async () => {
    const { context, page } = await open();
    await page.goto(zhArticle.path);
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.locator('.doc-header .meta').textContent()).toMatch(/发布于 \d{4}年\d{1,2}月\d{1,2}日/);
    const neighbours = await page.locator('.prev-next a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
    expect(neighbours.length).toBeGreaterThan(0);
    const zhPaths = new Set(catalog.articles.filter((a) => a.lang === 'zh').map((a) => a.path));
    for (const p of neighbours) expect(zhPaths, p).toContain(p);
    const toEnglish = page.locator('[data-lang-switch]');
    expect((await toEnglish.textContent())?.trim()).toBe('English');
    await toEnglish.click();
    // No translation: the same section in English, not the other home page (issue 28, item 4).
    await page.waitForURL((url) => url.pathname === '/en/blog');
    await context.close();
  });
});

describe('developers section', () => {
  it('is in the nav and the footer in both languages, and marks the API reference as inside it', async () => {
    const { context, page, errors } = await open();
    for (const [home, navName, label, footerLinks] of [
      [
        '/',
        'Main',
        'Developers',
        [
          'Developer hub',
          'API reference',
          'OpenAPI (openapi.json)',
          'Agent authorization (auth.md)',
          'MCP server',
          'Agent skills',
          'llms.txt',
        ],
      ],
      [
        '/zh',
        '主导航',
        '开发者',
        ['开发者中心', 'API 参考', 'OpenAPI (openapi.json)', '智能体授权指南（auth.md）', 'MCP 服务器', '智能体技能', 'llms.txt'],
      ],
    ] as const) {
      await page.goto(home);
      const link = page.getByRole('navigation', { name: navName }).getByRole('link', { name: label, exact: true });
      const hub = home === '/zh' ? '/zh/developers' : '/developers';
      expect(await link.getAttribute('href')).toBe(hub);
      const footer = page.getByRole('navigation', { name: label, exact: true });
      expect(await footer.getByRole('link').allTextContents()).toEqual([...footerLinks]);
      expect(await footer.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual([
        hub,
        '/docs/api',
        '/openapi.json',
        '/auth.md',
        `${hub}#mcp`,
        '/.well-known/agent-skills/index.json',
        '/llms.txt',
      ]);
    }
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Developers', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/developers');
    expect(await page.locator('h1').textContent()).toBe('Developers');
    await page.goto('/docs/api');
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Developers', exact: true })
        .getAttribute('aria-current'),
    ).toBe('page');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('search in Chinese', () => {
  it('speaks Chinese on /zh/search, honours ?q= there and keeps the URL on /zh/search', async () => {
    const { context, page, errors } = await open();
    await page.goto('/zh');
    // The header's search opens the palette; Enter there leads to the Chinese search page.
    await page.locator('header .tool-link').first().click();
    await page.locator('dialog[data-search-palette] input[name="q"]').press('Enter');
    await page.waitForURL((url) => url.pathname === '/zh/search');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.locator('h1').textContent()).toBe('搜索');
    expect(await page.locator('label[for="search-input"]').textContent()).toBe('搜索文章与解决方案');
    expect(await page.locator('link[rel="alternate"][hreflang="en"]').getAttribute('href')).toBe(`${TEST_ORIGIN}/search`);
    await page.goto('/zh/search?q=私有化部署');
    await expect
      .poll(() => page.locator('[data-search-status]').textContent(), { timeout: 15_000 })
      .toMatch(/^“私有化部署”共有 \d+ 个结果$/);
    await page.fill('#search-input', 'vLLM');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('vLLM');
    expect(new URL(page.url()).pathname).toBe('/zh/search');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('page actions', () => {
  it('copies the markdown twin, links the twin, and opens ChatGPT and Claude with the page URL', async () => {
    const { context, page, errors } = await open({ clipboard: true });
    await page.goto(enArticle.path);
    const actions = page.getByRole('group', { name: 'Page actions' });
    await actions.getByRole('button', { name: 'Copy page' }).waitFor();
    const copy = actions.locator('[data-copy-page]');
    await copy.click();
    await expect.poll(() => copy.textContent()).toContain('Copied');
    const twin = await (await fetch(site.url(`${enArticle.path}.md`))).text();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(twin);
    // The rest is in one menu beside the button (Mintlify's pattern): closed, then open on a click.
    // A <summary> (Chromium exposes it as a disclosure, not a button), named by its aria-label.
    const more = actions.locator('[data-action-menu] summary');
    expect(await more.getAttribute('aria-label')).toBe('More ways to use this page');
    expect(await actions.getByRole('link', { name: /View as Markdown/ }).isVisible()).toBe(false);
    await more.click();
    expect(await actions.getByRole('link', { name: /View as Markdown/ }).getAttribute('href')).toBe(`${enArticle.path}.md`);
    for (const [name, prefix] of [
      ['Open in ChatGPT', 'https://chatgpt.com/?q='],
      ['Open in Claude', 'https://claude.ai/new?q='],
    ] as const) {
      const href = (await actions.getByRole('link', { name: new RegExp(name) }).getAttribute('href'))!;
      expect(href.startsWith(prefix), name).toBe(true);
      expect(decodeURIComponent(href.slice(prefix.length))).toContain(`${TEST_ORIGIN}${enArticle.path}`);
    }
    // Escape closes the menu and gives the focus back to its button.
    await page.keyboard.press('Escape');
    expect(await actions.getByRole('link', { name: /View as Markdown/ }).isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits one row at 390 px in both languages, the copy button and the menu side by side', async () => {
    for (const path of [enArticle.path, zhArticle.path]) {
      const { context, page } = await open({ width: 390, height: 844, clipboard: true });
      await page.goto(path);
      const copy = page.locator('[data-copy-page]');
      await copy.waitFor();
      const menu = page.locator('[data-action-menu] summary');
      const [a, b] = [(await copy.boundingBox())!, (await menu.boundingBox())!];
      expect(Math.abs(a.y - b.y), path).toBeLessThan(2);
      expect(b.x + b.width, path).toBeLessThanOrEqual(390);
      await context.close();
    }
  });

  it('keeps the copy button hidden without JavaScript, where it could not work; the menu still opens', async () => {
    const { context, page } = await open({ javaScriptEnabled: false });
    await page.goto(enArticle.path);
    expect(await page.locator('[data-copy-page]').isHidden()).toBe(true);
    await page.locator('[data-action-menu] summary').click();
    expect(await page.getByRole('link', { name: /View as Markdown/ }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('table of contents', () => {
  it('stays in view beside the text on desktop, jumps to a section and marks the section being read', async () => {
    const { context, page } = await open();
    await page.goto(enArticle.path);
    const toc = page.getByRole('navigation', { name: 'On this page' });
    const links = toc.getByRole('link');
    expect(await links.count()).toBeGreaterThanOrEqual(3);
    const tocBox = (await toc.boundingBox())!;
    const textBox = (await page.locator('.prose').boundingBox())!;
    expect(tocBox.x, 'beside the text').toBeGreaterThan(textBox.x + textBox.width);
    const target = links.nth(2);
    const hash = (await target.getAttribute('href'))!;
    await target.click();
    await page.waitForURL((url) => url.hash === encodeURI(hash) || decodeURIComponent(url.hash) === hash);
    const heading = page.locator(`[id="${hash.slice(1)}"]`);
    const headingTop = (await heading.boundingBox())!.y;
    expect(headingTop).toBeGreaterThanOrEqual(0);
    expect(headingTop).toBeLessThan(800 / 2);
    // Sticky: after the jump the outline is still on screen, and it marks that section.
    const inner = (await page.locator('.toc-inner').boundingBox())!;
    expect(inner.y).toBeGreaterThanOrEqual(0);
    expect(inner.y).toBeLessThan(800);
    await expect.poll(() => toc.locator('a[aria-current="true"]').getAttribute('href')).toBe(hash);
    // Every entry points at a heading that exists.
    for (const href of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
      expect(await page.locator(`[id="${href.slice(1)}"]`).count(), href).toBe(1);
    }
    await context.close();
  });

  it('folds into one sticky line on a phone that names the section being read, and opens into the list', async () => {
    for (const [path, title] of [
      [zhArticle.path, '本页目录'],
      [enArticle.path, 'On this page'],
    ] as const) {
      const { context, page } = await open({ width: 390, height: 844 });
      await page.goto(path);
      const line = page.locator('.toc-summary');
      const box = (await line.boundingBox())!;
      expect(box.height, 'one line').toBeLessThan(56);
      expect(await page.getByRole('navigation', { name: title }).isVisible(), 'folded').toBe(false);
      // Scrolled into the text, the line stays under the header and names the current section.
      const third = page.locator('.prose h2').nth(1);
      await third.scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, 200);
      await expect.poll(async () => (await line.boundingBox())!.y).toBeLessThan(80);
      await expect.poll(() => page.locator('[data-toc-current]').textContent()).not.toBe('');
      const current = (await page.locator('[data-toc-current]').textContent())!;
      expect(await page.locator('.prose h2, .prose h3').allTextContents()).toContain(current);
      await line.click();
      const nav = page.getByRole('navigation', { name: title });
      expect(await nav.isVisible()).toBe(true);
      await nav.getByRole('link').first().click();
      // A choice folds it again.
      await expect.poll(() => nav.isVisible()).toBe(false);
      await context.close();
    }
  });

  it('puts the first paragraph of every article on the first screen of a phone (390×844)', async () => {
    const { context, page } = await open({ width: 390, height: 844 });
    for (const article of catalog.articles) {
      await page.goto(article.path);
      const first = (await page.locator('.prose > p').first().boundingBox())!;
      expect(first.y, article.path).toBeLessThan(844 - 24);
    }
    await context.close();
  });
});

describe('related articles', () => {
  it.each([1280, 390])('fill their rows at %i px: no card left alone on a row of its own at a desktop width', async (width) => {
    const { context, page, errors } = await open({ width });
    await page.goto('/blog/mcp-oauth-agent-integrations');
    const list = page.locator('#related + ul');
    const { row, cards } = await list.evaluate((ul) => {
      const box = (el: Element) => {
        const r = el.getBoundingClientRect();
        return { top: Math.round(r.top), left: Math.round(r.left), right: Math.round(r.right) };
      };
      return { row: box(ul), cards: [...ul.children].map(box) };
    });
    expect(cards).toHaveLength(3);
    const rows = Map.groupBy(cards, (card) => card.top);
    // Desktop: the three side by side; phone: one a row, each the list's width.
    expect(rows.size).toBe(width >= 1024 ? 1 : 3);
    for (const cardsOfRow of rows.values()) {
      expect(Math.min(...cardsOfRow.map((c) => c.left))).toBe(row.left);
      expect(Math.max(...cardsOfRow.map((c) => c.right))).toBe(row.right);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('keyboard (issue 28 stranger #18, #9)', () => {
  it('the page-actions menu closes when Tab moves focus out of it', async () => {
    const { context, page, errors } = await open({ clipboard: true });
    await page.goto(enArticle.path);
    const menu = page.locator('[data-action-menu]');
    const links = menu.locator('a');
    await menu.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => menu.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    for (let i = (await links.count()) + 1; i > 0; i--) await page.keyboard.press('Tab');
    expect(await menu.evaluate((el) => el.contains(document.activeElement))).toBe(false);
    await expect.poll(() => menu.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the phone contents box closes on Escape and gives the focus back to its line', async () => {
    const { context, page } = await open({ width: 390, height: 844 });
    await page.goto(enArticle.path);
    const line = page.locator('.toc-summary');
    await line.focus();
    await page.keyboard.press('Enter');
    const nav = page.getByRole('navigation', { name: 'On this page' });
    await expect.poll(() => nav.isVisible()).toBe(true);
    await nav.getByRole('link').first().focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => nav.isVisible()).toBe(false);
    expect(await line.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it.each([
    ['/', 'too long'],
    ['/zh', '太长'],
  ])('the palette on %s says a query over 200 characters is too long, not that search is unavailable', async (home, words) => {
    const { context, page } = await open();
    await page.goto(home);
    await page.keyboard.press('Control+k');
    const dialog = page.locator('dialog[data-search-palette]');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await dialog.getByRole('searchbox').fill('a'.repeat(201));
    const status = dialog.locator('[data-palette-status]');
    await expect.poll(() => status.textContent()).toContain(words);
    expect(await status.textContent()).toContain('200');
    await dialog.getByRole('searchbox').fill('a'.repeat(199));
    await expect.poll(() => status.textContent()).not.toContain(words);
    await context.close();
  });
});

describe('code frames and tables', () => {
  it('frames code with its language and copies the code; a wide table says it scrolls', async () => {
    const { context, page } = await open({ width: 390, height: 844, clipboard: true });
    await page.goto(enArticle.path);
    let withCode: string | undefined;
    for (const article of catalog.articles) {
      await page.goto(article.path);
      if ((await page.locator('.code-frame').count()) && (await page.locator('.table-scroll').count())) {
        withCode = article.path;
        break;
      }
    }
    expect(withCode, 'an article with a code block and a table').toBeDefined();
    const frame = page.locator('.code-frame').first();
    expect((await frame.locator('figcaption .code-lang').textContent())?.trim()).toMatch(/^[a-z0-9+#-]+$/);
    const border = await frame.evaluate((el) => getComputedStyle(el).borderTopWidth);
    expect(border).toBe('1px');
    await frame.getByRole('button').click();
    const code = await frame.locator('pre').textContent();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    const table = page.locator('.table-scroll').first();
    expect(await table.getAttribute('tabindex')).toBe('0');
    const overflowing = await table.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(await page.locator('.table-hint').first().isVisible()).toBe(overflowing);
    await context.close();
  });
});

describe('contact form', () => {
  it('checks fields in place with accessible errors, keeps the product from the URL, shows a busy state, then a reference', async () => {
    const product = catalog.products[1]!;
    const { context, page, errors } = await open();
    await page.goto(product.path);
    await page.locator('[data-product-cta]').click();
    await page.waitForURL((url) => url.pathname === '/contact' && url.searchParams.get('product') === product.slug);
    expect(await page.locator('#product').inputValue()).toBe(product.slug);

    // Empty submit: both required fields flagged, focus on the first, nothing sent.
    let posts = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/contact')) posts++;
    });
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#name-error').textContent()).toBe('Please enter your name, so we know whom to answer.');
    expect(await page.locator('#email-error').textContent()).toBe('Please enter your email address: the answer goes there.');
    expect(await page.locator('#name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#name').getAttribute('aria-describedby')).toBe('name-error');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('name');
    expect(await page.locator('#form-status').textContent()).toBe('Please correct the 2 fields marked below.');
    expect(posts).toBe(0);

    // Fixing a field clears its error as the reader types; a bad address is named on leaving the field.
    await page.fill('#name', 'Li Wei');
    expect(await page.locator('#name-error').isHidden()).toBe(true);
    await page.fill('#email', 'li.wei@');
    await page.locator('#company').focus();
    expect(await page.locator('#email-error').textContent()).toBe('Please enter an email address like name@example.com.');
    await page.fill('#email', 'li.wei@example.com');

    // Busy while sending (the answer is held back until the busy state has been seen).
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/contact', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Send' }).click();
    const button = page.locator('#contact-form button[type="submit"]');
    await expect.poll(() => button.getAttribute('aria-busy')).toBe('true');
    expect(await button.textContent()).toContain('Sending…');
    release();
    // Success replaces the form with a confirmation in place: the reference and what was sent, focused.
    const sent = page.locator('#form-sent');
    await sent.waitFor();
    expect(await page.locator('#contact-form').isHidden()).toBe(true);
    expect(await sent.getByRole('heading').textContent()).toBe('Enquiry received');
    expect(await sent.textContent()).toMatch(/Your reference is [0-9A-F]{4}-[0-9A-F]{4}\./);
    expect(await sent.locator('dd').allTextContents()).toEqual(expect.arrayContaining(['Li Wei', 'li.wei@example.com']));
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('form-sent');
    expect(posts).toBe(1);

    // "Send another enquiry" brings the empty form back; a second one within the minute meets the limit, explained, text kept.
    await sent.getByRole('button', { name: 'Send another enquiry' }).click();
    expect(await page.locator('#contact-form').isVisible()).toBe(true);
    expect(await page.locator('#name').inputValue()).toBe('');
    await page.unroute('**/api/contact');
    await page.fill('#name', 'Li Wei');
    await page.fill('#email', 'li.wei@example.com');
    await page.fill('#message', 'Second question');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('#form-status').textContent()).toMatch(/less than a minute ago\. Please wait \d+ seconds/);
    expect(await page.locator('#message').inputValue()).toBe('Second question');
    expect(await page.locator('#limit-note').textContent()).toContain('one enquiry a minute from each network address');
    expect(errors.filter((e) => !/429/.test(e))).toEqual([]);
    await context.close();
  });

  it('keeps the reference number whole on a phone, in the inline panel and on the thank-you page (stranger s10b)', async () => {
    const { context, page } = await open({ width: 320, height: 740 });
    await page.goto('/zh/contact');
    await page.fill('#name', '李伟');
    await page.fill('#email', 'li.wei@example.com');
    await page.getByRole('button', { name: '提交' }).click();
    const number = page.locator('#form-sent .reference-inline');
    await expect.poll(() => number.textContent()).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
    // One line box: not "6A1E-" at the end of one line and "1331" at the start of the next.
    expect(await number.evaluate((el) => el.getClientRects().length)).toBe(1);
    expect(await page.locator('#form-sent p').first().textContent()).toMatch(/^谢谢！我们已收到您的咨询，编号 [0-9A-F]{4}-[0-9A-F]{4}。/);
    await page.goto('/zh/contact/thanks?ref=6A1E-1331');
    const slot = page.locator('[data-reference]');
    await expect.poll(() => slot.textContent()).toBe('6A1E-1331');
    expect(await slot.evaluate((el) => el.getClientRects().length)).toBe(1);
    await context.close();
  });

  it('takes a Chinese message of the full 5,000 characters without JavaScript (issue 28 stranger #7)', async () => {
    const plain = await open({ javaScriptEnabled: false });
    await plain.page.goto('/zh/contact');
    await plain.page.fill('#name', '李'.repeat(100));
    await plain.page.fill('#email', 'li.wei@example.com');
    await plain.page.fill('#company', '公'.repeat(200));
    await plain.page.fill('#message', '网'.repeat(5000));
    await Promise.all([plain.page.waitForURL('**/zh/contact/thanks?*'), plain.page.click('#contact-form button[type="submit"]')]);
    expect(await plain.page.locator('h1').textContent()).toBe('提交成功');
    await plain.context.close();
  });

  it('speaks Chinese on /zh/contact, with and without JavaScript', async () => {
    const { context, page } = await open();
    await page.goto('/zh/contact?product=llm-gateway');
    expect(await page.locator('#product').inputValue()).toBe('llm-gateway');
    await page.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => page.locator('#name-error').textContent()).toBe('请填写您的姓名，方便我们称呼您。');
    await page.fill('#name', '李伟');
    await page.fill('#email', 'li.wei@example.com');
    await page.getByRole('button', { name: '提交' }).click();
    await expect.poll(() => page.locator('#form-sent').textContent()).toMatch(/编号 [0-9A-F]{4}-[0-9A-F]{4}/);
    expect(await page.locator('#form-sent h3').textContent()).toBe('咨询已收到');
    await context.close();

    const plain = await open({ javaScriptEnabled: false });
    await plain.page.goto('/zh/contact');
    await plain.page.fill('#email', 'wrong');
    await Promise.all([plain.page.waitForURL('**/api/contact'), plain.page.click('#contact-form button[type="submit"]')]);
    expect(await plain.page.title()).toMatch(/^错误：/);
    expect(await plain.page.locator('#name-error').textContent()).toBe('请填写您的姓名，方便我们称呼您。');
    expect(await plain.page.locator('#email-error').textContent()).toBe('请输入有效的邮箱地址，例如 name@example.com。');
    await plain.page.fill('#name', '李伟');
    await plain.page.fill('#email', 'li.wei@example.com');
    await Promise.all([plain.page.waitForURL('**/zh/contact/thanks?*'), plain.page.click('#contact-form button[type="submit"]')]);
    expect(await plain.page.locator('h1').textContent()).toBe('提交成功');
    await plain.context.close();
  });
});

describe('phone header', () => {
  it('shows every section at 320, 390 and 430 px, light and dark: nothing cut off, no sideways scrolling (stranger s10b)', async () => {
    for (const colorScheme of ['light', 'dark'] as const)
      for (const width of [320, 390, 430])
        for (const pathname of ['/', '/zh', '/contact', '/blog/gpu-capacity-planning-h100-l40s']) {
          const { context, page } = await open({ width, height: 740, colorScheme });
          await page.goto(pathname);
          const where = `${pathname} ${width} px ${colorScheme}`;
          const layout = await page.evaluate(() => {
            const nav = document.querySelector<HTMLElement>('.site-nav')!;
            const links = [...nav.querySelectorAll('a')].map((a) => a.getBoundingClientRect());
            return {
              links: links.length,
              inView: links.filter((b) => b.left >= 0 && b.right <= window.innerWidth).length,
              navScrolls: nav.scrollWidth > nav.clientWidth,
              pageScrolls: document.documentElement.scrollWidth > window.innerWidth,
            };
          });
          expect(layout.links, where).toBe(5);
          expect(layout.inView, where).toBe(5);
          expect(layout.navScrolls, where).toBe(false);
          expect(layout.pageScrolls, where).toBe(false);
          await context.close();
        }
  });

  it('keeps every section on one row and the header compact', async () => {
    for (const pathname of ['/', '/zh']) {
      const { context, page } = await open({ width: 360, height: 740 });
      await page.goto(pathname);
      const tops = await page.locator('.site-nav a').evaluateAll((as) => as.map((a) => Math.round(a.getBoundingClientRect().top)));
      expect(new Set(tops).size, `${pathname}: one row`).toBe(1);
      const header = (await page.locator('.site-header').boundingBox())!;
      expect(header.height, pathname).toBeLessThan(110);
      // The language switch and search stay on screen.
      for (const selector of ['[data-lang-switch]', '.header-tools a.tool-link:not([data-lang-switch])']) {
        const box = (await page.locator(selector).boundingBox())!;
        expect(box.x + box.width, selector).toBeLessThanOrEqual(360);
      }
      await context.close();
    }
  });
});
