/**
 * The /ops/ usage page in a real Chromium, over the local runtime: the browser's own Basic sign-in
 * (refused without the secret or with a wrong one), the charts for usage seeded into the runtime's
 * analytics store (day records for past days, real requests for today), the date-range form with
 * JavaScript off, axe in light and dark and in Chinese, and `npm run stats -- --json` agreeing with
 * what the page shows for the same range. Also: robots.txt disallows /ops/, the sitemap omits it.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobsStore } from '../../netlify/functions/_shared/blobs-store.ts';
import { addDays } from '../../src/core/analytics/range.ts';
import { AUDIENCES } from '../../src/core/analytics/report.ts';
import { type DayRecord, dayKey } from '../../src/core/analytics/rollup.ts';
import type { Store } from '../../src/core/kernel/store.ts';
import { LOCAL_SITE_ID } from '../../scripts/runtime/deploy-blobs.ts';
import { type LocalBlobs, startLocalBlobs } from '../../scripts/runtime/local-blobs.ts';
import { AXE_RUN_ONLY, launchBrowser, runAxe, useColorScheme, useServedSite } from '../support/browser.ts';
import { sitemapPaths } from '../support/runtime.ts';

const SECRET = 'browser-test-operator-secret';
// Read by the functions and the edge function when the runtime loads them. An instance writes its counts after its first
// request and then at most once an hour, so what today's requests wrote is fixed once the first write is in.
process.env.OPS_SECRET = SECRET;
process.env.ANALYTICS_FLUSH_SECONDS = '3600';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const site = useServedSite({ port: 0 });
const TODAY = new Date().toISOString().slice(0, 10);
const FROM = addDays(TODAY, -2);
const SEEDED: DayRecord[] = [
  {
    day: addDays(TODAY, -2),
    counts: {
      'requests.audience.browser': 120,
      'requests.audience.markdown-agent': 45,
      'requests.audience.known-agent': 30,
      'requests.audience.verified-agent': 6,
      'requests.audience.unknown': 9,
      'mcp.tool.search_articles': 25,
      'mcp.tool.get_article': 12,
      'documents.twin': 40,
      'errors.api.404': 3,
    },
    queries: { 'llm gateway': { n: 14, zero: 0 }, 'vector database': { n: 6, zero: 6 } },
  },
  {
    day: addDays(TODAY, -1),
    counts: { 'requests.audience.browser': 80, 'requests.audience.known-agent': 20, 'mcp.tool.search_articles': 7 },
    queries: { 'llm gateway': { n: 4, zero: 0 } },
  },
];

let browser: Browser;
/** The page needs no script: the operator's context runs with JavaScript off. */
let operator: BrowserContext;
/** axe runs its script in the page, so audits use a context with JavaScript on. */
let audit: BrowserContext;
let seeder: LocalBlobs;
let analytics: Store;

beforeAll(async () => {
  browser = await launchBrowser();
  const httpCredentials = { username: 'operator', password: SECRET };
  operator = await browser.newContext({ javaScriptEnabled: false, httpCredentials });
  audit = await browser.newContext({ httpCredentials });
  // Beside the runtime's own Blobs server, over the same folder, as `npm run stats` reads it beside `npm start`.
  seeder = await startLocalBlobs(site.runtime.blobsDir, 'ops-test-seeder', { owner: false });
  analytics = blobsStore('analytics', {
    siteID: LOCAL_SITE_ID,
    token: 'ops-test-seeder',
    edgeURL: seeder.url,
    uncachedEdgeURL: seeder.url,
  });
  for (const day of SEEDED) await analytics.set(dayKey(day.day), day);
  // Today: real requests through the edge, a markdown agent's and a browser's.
  await fetch(site.url('/llms.txt'), { headers: { 'user-agent': 'Claude-User/1.0', accept: 'text/markdown' } });
  await fetch(site.url('/'), { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' } });
  // The edge hands its first write to waitUntil: wait until it is in (30 s at most).
  for (let waited = 0; (await analytics.list(`raw/${TODAY}/`)).length === 0; waited += 100) {
    if (waited > 30_000) throw new Error('the edge function wrote no usage record for today');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

afterAll(async () => {
  await browser?.close();
  await seeder?.stop();
});

/** The numbers of the page's day table: day → audience → count. */
async function dayTable(page: Page): Promise<Record<string, Record<string, number>>> {
  const rows = await page
    .locator('table.numbers:not(.feedback) tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [tr.querySelector('th')!.textContent!, [...tr.querySelectorAll('td')].map((td) => td.textContent!)] as const),
    );
  return Object.fromEntries(
    rows.map(([day, cells]) => [day, Object.fromEntries(AUDIENCES.map((a, i) => [a, Number(cells[i]!.replace(/,/g, ''))]))]),
  );
}

const opsUrl = (query = `?from=${FROM}&to=${TODAY}&lang=en`): string => site.url(`/ops/${query}`);

describe('signing in', () => {
  it('without credentials Chromium gets the 401 page saying how to sign in; a wrong secret is refused', async () => {
    const stranger = await browser.newContext({ javaScriptEnabled: false });
    const page = await stranger.newPage();
    const res = await page.goto(opsUrl());
    expect(res?.status()).toBe(401);
    expect(await res?.headerValue('www-authenticate')).toBe('Basic realm="Site operators", charset="UTF-8"');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Operator sign-in');
    await stranger.close();
    const guesser = await browser.newContext({
      javaScriptEnabled: false,
      httpCredentials: { username: 'x', password: 'not-the-secret' },
      extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.7' }, // its own network's limit
    });
    const guessed = await (await guesser.newPage()).goto(opsUrl());
    expect(guessed?.status()).toBe(401);
    await guesser.close();
  });

  it('with the secret: the page, no-store and noindex', async () => {
    const page = await operator.newPage();
    const res = await page.goto(opsUrl());
    expect(res?.status()).toBe(200);
    expect(await res?.headerValue('cache-control')).toBe('no-store');
    expect(await res?.headerValue('x-robots-tag')).toBe('noindex, nofollow');
    expect(await page.locator('h1').textContent()).toBe('Usage');
    await page.close();
  });
});

describe('the page', () => {
  it('draws the seeded usage: a stacked bar per day, the summary, the tools and queries', async () => {
    const page = await operator.newPage();
    await page.goto(opsUrl());
    await expect.poll(() => page.locator('.range-line').textContent()).toBe(`${FROM} to ${TODAY} · 3 days, UTC`);
    const chart = page.locator('svg.chart');
    expect(await chart.getAttribute('role')).toBe('img');
    expect(await chart.locator('g').count()).toBe(3);
    // The first day's bar has all five audiences, tallest part first; every part is visible.
    const first = chart.locator('g').first();
    expect(await first.locator('rect').evaluateAll((rects) => rects.map((r) => r.getAttribute('class')))).toEqual(
      AUDIENCES.map((a) => `a-${a}`),
    );
    const heights = await first.locator('rect').evaluateAll((rects) => rects.map((r) => (r as SVGGraphicsElement).getBBox().height));
    expect(heights.every((h) => h > 0)).toBe(true);
    expect(heights[0]).toBeGreaterThan(heights[1]!);
    // Today's real requests are in too.
    const table = await dayTable(page);
    expect(table[FROM]).toEqual({ browser: 120, 'markdown-agent': 45, 'known-agent': 30, 'verified-agent': 6, unknown: 9 });
    expect(Object.values(table[TODAY]!).reduce((a, n) => a + n, 0)).toBeGreaterThan(0);
    expect(await page.locator('#mcp-tools ~ table tbody th').allTextContents()).toEqual(['search_articles', 'get_article']);
    expect(await page.locator('#zero-queries ~ table tbody th').allTextContents()).toEqual(['vector database']);
    await page.close();
  });

  it('the date-range form works without JavaScript', async () => {
    const page = await operator.newPage();
    await page.goto(opsUrl());
    await page.locator('input[name=from]').fill(FROM);
    await page.locator('input[name=to]').fill(FROM);
    await Promise.all([page.waitForURL(/to=/), page.getByRole('button', { name: 'Show' }).click()]);
    expect(new URL(page.url()).searchParams.get('to')).toBe(FROM);
    expect(await page.locator('.range-line').textContent()).toBe(`${FROM} to ${FROM} · 1 day, UTC`);
    expect(await page.locator('.figure .value').first().textContent()).toBe('210');
    await page.close();
  });

  it('dark mode changes the colours; axe finds nothing in light, dark and Chinese', async () => {
    const page = await audit.newPage();
    await page.goto(opsUrl());
    const fill = () =>
      page
        .locator('svg.chart rect.a-browser')
        .first()
        .evaluate((r) => getComputedStyle(r).fill);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await useColorScheme(page, 'light');
    const light = [await fill(), await background()];
    const axeLight = await runAxe(page, AXE_RUN_ONLY.light);
    expect(axeLight.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
    await useColorScheme(page, 'dark');
    const dark = [await fill(), await background()];
    expect(dark[0]).not.toBe(light[0]);
    expect(dark[1]).not.toBe(light[1]);
    const axeDark = await runAxe(page, AXE_RUN_ONLY.dark);
    expect(axeDark.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
    expect(axeDark.passes.map((p) => p.id)).toContain('color-contrast');
    await page.goto(opsUrl(`?from=${FROM}&to=${TODAY}&lang=zh`));
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
    expect(await page.locator('h1').textContent()).toBe('使用情况');
    await useColorScheme(page, 'light');
    const axeZh = await runAxe(page, AXE_RUN_ONLY.light);
    expect(axeZh.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
    await page.close();
  });

  it('on a phone (390 px, Chinese, dark) with feedback listed, axe finds nothing: every table that scrolls sideways is reachable', async () => {
    const feedback = await fetch(site.url('/api/feedback'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.40' },
      // A word with no break in it makes the table wider than the phone, so its box scrolls sideways.
      body: JSON.stringify({ page: '/blog/', kind: 'wrong', text: `The token ${'x'.repeat(60)} is wrong` }),
    });
    expect(feedback.status).toBe(201);
    const page = await audit.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(opsUrl(`?from=${FROM}&to=${TODAY}&lang=zh`));
    await page.locator('section[aria-labelledby="feedback"] table').waitFor();
    const box = page.locator('section[aria-labelledby="feedback"] .scroll');
    expect(await box.evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
    await useColorScheme(page, 'dark');
    const axeLight = await runAxe(page, AXE_RUN_ONLY.light);
    expect(axeLight.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
    expect(axeLight.passes.map((p) => p.id)).toContain('scrollable-region-focusable');
    await page.close();
  });

  it('npm run stats -- --json agrees with the page for the same range', async () => {
    const page = await operator.newPage();
    await page.goto(opsUrl());
    const table = await dayTable(page);
    const requests = Number((await page.locator('.figure .value').first().textContent())!.replace(/,/g, ''));
    const tools = await page
      .locator('#mcp-tools ~ table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent!, Number(tr.querySelector('td')!.textContent)]));
    await page.close();
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [path.join(ROOT, 'scripts', 'stats.ts'), '--from', FROM, '--to', TODAY, '--json'],
        { env: { ...process.env, NETLIFY_LOCAL_BLOBS_DIR: site.runtime.blobsDir } },
        (error, out, stderr) => (error ? reject(new Error(stderr)) : resolve(out)),
      ),
    );
    const stats = JSON.parse(stdout) as {
      days: { day: string; counts: Record<string, number> }[];
      sections: { prefix: string; total: number; counts: Record<string, number> }[];
    };
    const fromStats = Object.fromEntries(
      stats.days.map((d) => [d.day, Object.fromEntries(AUDIENCES.map((a) => [a, d.counts[`requests.audience.${a}`] ?? 0]))]),
    );
    expect(table).toEqual(fromStats);
    expect(requests).toBe(stats.sections.find((s) => s.prefix === 'requests.audience.')!.total);
    expect(Object.fromEntries(tools)).toEqual(stats.sections.find((s) => s.prefix === 'mcp.tool.')!.counts);
  });
});

describe('kept from crawlers', () => {
  it('robots.txt disallows /ops/ and the sitemap does not list it', async () => {
    const robots = await (await fetch(site.url('/robots.txt'))).text();
    expect(robots).toMatch(/^Disallow: \/ops\/$/m);
    const sitemap = sitemapPaths(await (await fetch(site.url('/sitemap.xml'))).text());
    expect(sitemap.length).toBeGreaterThan(0);
    expect(sitemap.filter((p) => p.startsWith('/ops'))).toEqual([]);
  });
});
