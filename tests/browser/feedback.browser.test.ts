/**
 * The feedback control at the end of each article in real Chromium, without JavaScript (issue 29,
 * item 4): "Yes" and a problem report post to /api/feedback, the function sends the reader back to
 * the article at #feedback-sent, the page shows its thanks, and `npm run feedback -- json` (beside
 * the runtime, over the same Blobs folder) lists what was stored. Both languages, a phone, both
 * themes, and axe with the report form open.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedbackRecord } from '../../src/core/feedback/feedback.ts';
import { AXE_RUN_ONLY, launchBrowser, runAxe, useServedSite } from '../support/browser.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const site = useServedSite({ port: 0 });
const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as {
  articles: { slug: string; lang: 'zh' | 'en'; path: string }[];
};
const enArticle = catalog.articles.find((a) => a.lang === 'en')!;
const zhArticle = catalog.articles.find((a) => a.lang === 'zh')!;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

let nextIp = 40;
async function open(
  options: { javaScriptEnabled?: boolean; width?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: site.origin,
    viewport: { width: options.width ?? 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    javaScriptEnabled: options.javaScriptEnabled ?? false,
    // Each context is its own client network (the limit is per network).
    extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${nextIp++}` },
  });
  return { context, page: await context.newPage() };
}

/** What `npm run feedback -- json` lists from the runtime's Blobs folder. */
function storedFeedback(): Promise<FeedbackRecord[]> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [path.join(ROOT, 'scripts', 'feedback.ts'), 'json', '--days', '1'],
      { env: { ...process.env, NETLIFY_LOCAL_BLOBS_DIR: site.runtime.blobsDir } },
      (error, out, stderr) => (error ? reject(new Error(stderr)) : resolve(JSON.parse(out) as FeedbackRecord[])),
    ),
  );
}

describe('"Was this page helpful?" without JavaScript', () => {
  it('Yes is stored and thanked on the same article; the failure line stays hidden', async () => {
    const { context, page } = await open();
    await page.goto(enArticle.path);
    const section = page.getByRole('region', { name: 'Was this page helpful?' });
    expect(await page.locator('#feedback-sent').isHidden()).toBe(true);
    await Promise.all([page.waitForURL((url) => url.hash === '#feedback-sent'), section.getByRole('button', { name: 'Yes' }).click()]);
    expect(new URL(page.url()).pathname).toBe(enArticle.path);
    expect(await page.locator('#feedback-sent').isVisible()).toBe(true);
    expect(await page.locator('#feedback-sent').textContent()).toBe('Thank you: your feedback was sent.');
    expect(await page.locator('#feedback-failed').isHidden()).toBe(true);
    await context.close();
    expect(await storedFeedback()).toContainEqual(expect.objectContaining({ page: enArticle.path, kind: 'helpful', channel: 'form' }));
  });

  it('a problem report in Chinese: the kind and the text are stored; an empty text is stopped by the browser', async () => {
    const { context, page } = await open();
    await page.goto(zhArticle.path);
    const section = page.getByRole('region', { name: '这篇内容对你有帮助吗？' });
    await section.getByText('报告本页的问题').click();
    await section.getByLabel('内容已过时').check();
    // required: the browser does not send an empty report, so nothing is stored and the page stays.
    await section.getByRole('button', { name: '提交反馈' }).click();
    expect(new URL(page.url()).hash).toBe('');
    await section.getByLabel('需要改什么？').fill('第三节的 vLLM 版本已经过时。');
    await Promise.all([page.waitForURL((url) => url.hash === '#feedback-sent'), section.getByRole('button', { name: '提交反馈' }).click()]);
    expect(await page.locator('#feedback-sent').textContent()).toBe('谢谢，你的反馈已提交。');
    await context.close();
    expect(await storedFeedback()).toContainEqual(
      expect.objectContaining({ page: zhArticle.path, kind: 'outdated', text: '第三节的 vLLM 版本已经过时。', channel: 'form' }),
    );
  });

  it('the failure line shows at #feedback-failed, with a way to write instead', async () => {
    const { context, page } = await open();
    await page.goto(`${enArticle.path}#feedback-failed`);
    expect(await page.locator('#feedback-failed').isVisible()).toBe(true);
    expect(await page.locator('#feedback-failed a').getAttribute('href')).toBe('/contact');
    expect(await page.locator('#feedback-sent').isHidden()).toBe(true);
    await context.close();
  });
});

describe('the control on a phone and to axe', () => {
  it('fits a 360 px screen: both buttons on one row, nothing wider than the screen', async () => {
    const { context, page } = await open({ width: 360 });
    await page.goto(zhArticle.path);
    const buttons = page.locator('.feedback-quick button');
    const boxes = await buttons.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));
    expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(1);
    for (const box of boxes) expect(box.right).toBeLessThanOrEqual(360);
    await page.locator('.feedback-report summary').click();
    const form = (await page.locator('.feedback-report form').boundingBox())!;
    expect(form.x + form.width).toBeLessThanOrEqual(360);
    await context.close();
  });

  it.each(['light', 'dark'] as const)('axe finds nothing with the report open (%s)', async (colorScheme) => {
    for (const article of [enArticle, zhArticle]) {
      const { context, page } = await open({ javaScriptEnabled: true, colorScheme });
      await page.goto(`${article.path}#feedback-sent`);
      await page.locator('.feedback-report summary').click();
      const axe = await runAxe(page, AXE_RUN_ONLY[colorScheme]);
      expect(
        axe.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`),
        article.path,
      ).toEqual([]);
      await context.close();
    }
  });
});
