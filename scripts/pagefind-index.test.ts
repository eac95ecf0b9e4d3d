import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BUNDLES_MANIFEST,
  type BundleManifest,
  bundleOf,
  indexedContent,
  indexSite,
  PAGEFIND_MAX_FRAGMENTS,
  runPagefind,
} from './pagefind-index.ts';

const page = (lang: string, title: string, body: string) =>
  `<!doctype html><html lang="${lang}"><head><title>${title}</title></head><body><nav>Site menu</nav><article data-pagefind-body><h1>${title}</h1><p>${body}</p></article></body></html>`;

async function site(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pagefind-index-'));
  for (const [file, html] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), html);
  }
  return dir;
}

describe('runPagefind (the build step after astro build)', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('indexes only the article, solution and product pages, one index per language, and reports the count', async () => {
    const dir = await site({
      'blog/gateway/index.html': page('en', 'API gateway rate limits', 'Token buckets per tenant.'),
      'blog/siyouhua/index.html': page('zh-CN', '私有化部署', '显存估算与推理集群。'),
      'solutions/bank/index.html': page('en', 'Banking assistant', 'On-premise agents for banks.'),
      'products/gateway/index.html': page('en', 'Gateway', 'One API for every model.'),
      // Listing and other pages are outside the glob even when they carry a pagefind body.
      'blog/index.html': page('en', 'Blog', 'Listing page.'),
      'blog/page/2/index.html': page('en', 'Blog page 2', 'Listing page.'),
      'index.html': page('en', 'Home', 'Home page.'),
    });
    dirs.push(dir);
    expect(await runPagefind(dir)).toBe(4);
    const entry = JSON.parse(await readFile(path.join(dir, 'pagefind', 'pagefind-entry.json'), 'utf8')) as {
      languages: Record<string, { page_count: number }>;
    };
    expect(Object.fromEntries(Object.entries(entry.languages).map(([lang, info]) => [lang, info.page_count]))).toEqual({
      en: 3,
      'zh-cn': 1,
    });
    expect((await readdir(path.join(dir, 'pagefind', 'fragment'))).length).toBe(4); // under PAGEFIND_MAX_FRAGMENTS: one file per page
  });

  it('counts a single page too (Pagefind says "1 page")', async () => {
    const dir = await site({ 'blog/only/index.html': page('en', 'Only', 'The one article.') });
    dirs.push(dir);
    expect(await runPagefind(dir)).toBe(1);
  });

  it('bundles fragments once a language has more pages than PAGEFIND_MAX_FRAGMENTS', async () => {
    const count = PAGEFIND_MAX_FRAGMENTS + 20;
    const files: Record<string, string> = {};
    for (let i = 0; i < count; i++) files[`blog/post-${i}/index.html`] = page('en', `Post ${i}`, `Gateway note number ${i}.`);
    const dir = await site(files);
    dirs.push(dir);
    expect(await runPagefind(dir)).toBe(count);
    const fragments = (await readdir(path.join(dir, 'pagefind', 'fragment'))).length;
    expect(fragments).toBeLessThanOrEqual(PAGEFIND_MAX_FRAGMENTS);
    expect(fragments).toBeGreaterThan(0);
  });

  it("fails with Pagefind's own explanation when there is nothing to index", async () => {
    const dir = await site({ 'about/index.html': page('en', 'About', 'Not an indexed section.') });
    dirs.push(dir);
    await expect(runPagefind(dir)).rejects.toThrow(/Pagefind failed \(exit 1\)[\s\S]*not able to build an index/);
  });
});

describe('indexedContent (what a bundle is keyed on)', () => {
  const doc = (body: string, footer: string): string =>
    `<html lang="en"><body><article data-pagefind-body><h1>T</h1><p>${body}</p><footer data-pagefind-ignore>${footer}</footer></article></body></html>`;

  it('ignores what Pagefind ignores, keeps everything else, and keeps Pagefind attributes inside ignored parts', () => {
    const base = indexedContent(doc('Body', '<a href="/blog/a">Older: A</a>'));
    expect(indexedContent(doc('Body', '<a href="/blog/b">Older: B, renamed</a>'))).toBe(base);
    expect(indexedContent(doc('Body changed', '<a href="/blog/a">Older: A</a>'))).not.toBe(base);
    expect(indexedContent(doc('Body <a href="/x">link</a>', ''))).not.toBe(indexedContent(doc('Body <a href="/y">link</a>', '')));
    expect(indexedContent(doc('Body', '<span data-pagefind-meta="k:1"></span>'))).not.toBe(
      indexedContent(doc('Body', '<span data-pagefind-meta="k:2"></span>')),
    );
    expect(indexedContent(doc('Body', '')).replace('lang="en"', 'lang="zh-CN"')).not.toBe(indexedContent(doc('Body', '')));
  });
});

describe('indexSite (bundles and their cache)', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('splits a large site into bundles, lists them, and rebuilds only the bundle whose page changed', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++)
      files[`blog/post-${i}/index.html`] = page(i % 3 ? 'en' : 'zh-CN', `Post ${i}`, `Gateway note number ${i}.`);
    const dir = await site(files);
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'pagefind-cache-'));
    dirs.push(dir, cacheDir);
    const clean = (): Promise<void> => rm(path.join(dir, 'pagefind'), { recursive: true, force: true });

    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5 })).toEqual({ pages: 12, bundles: 3, built: 3 });
    const manifest = JSON.parse(await readFile(path.join(dir, 'pagefind', BUNDLES_MANIFEST), 'utf8')) as BundleManifest;
    expect(manifest.bundles.map((b) => b.url)).toEqual(['/pagefind/b0/', '/pagefind/b1/', '/pagefind/b2/']);
    // Every page is in exactly one bundle, under its own URL.
    let counted = 0;
    for (const [i, bundle] of manifest.bundles.entries()) {
      const entry = JSON.parse(await readFile(path.join(dir, 'pagefind', `b${i}`, 'pagefind-entry.json'), 'utf8')) as {
        languages: Record<string, { page_count: number }>;
      };
      expect(Object.keys(entry.languages).sort()).toEqual(bundle.languages);
      counted += Object.values(entry.languages).reduce((sum, l) => sum + l.page_count, 0);
    }
    expect(counted).toBe(12);
    const first = await readFile(path.join(dir, 'pagefind', 'b0', 'pagefind-entry.json'), 'utf8');

    // A rebuild of the same pages (the build empties the output folder) takes every bundle from the cache.
    await clean();
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5 })).toEqual({ pages: 12, bundles: 3, built: 0 });
    expect(await readFile(path.join(dir, 'pagefind', 'b0', 'pagefind-entry.json'), 'utf8')).toBe(first);

    // One page edited: only its bundle is indexed again, and it finds the new text.
    const edited = 'blog/post-4/index.html';
    await writeFile(path.join(dir, edited), page('en', 'Post 4', 'A zanzibarquokka appears.'));
    await clean();
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5 })).toEqual({ pages: 12, bundles: 3, built: 1 });
    // A change inside what Pagefind ignores (an article's newer/older links, its related list) rebuilds nothing.
    const other = 'blog/post-7/index.html';
    const withFooter = (text: string): string =>
      page('en', 'Post 7', 'Gateway note number 7.').replace('</article>', `<footer data-pagefind-ignore>${text}</footer></article>`);
    await writeFile(path.join(dir, other), withFooter('Older: Post 6'));
    await clean();
    expect((await indexSite(dir, { cacheDir, pagesPerBundle: 5 })).built).toBe(1);
    await writeFile(path.join(dir, other), withFooter('Older: Post 6, renamed'));
    await clean();
    expect((await indexSite(dir, { cacheDir, pagesPerBundle: 5 })).built).toBe(0);
    const bundle = bundleOf(edited, 3);
    const words = (await readdir(path.join(dir, 'pagefind', `b${bundle}`, 'index'))).length;
    expect(words).toBeGreaterThan(0);
  });

  it('keeps a small site in one bundle at pagefind/', async () => {
    const dir = await site({ 'blog/a/index.html': page('en', 'A', 'First.'), 'blog/b/index.html': page('zh-CN', 'B', '第二。') });
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'pagefind-cache-'));
    dirs.push(dir, cacheDir);
    expect(await indexSite(dir, { cacheDir })).toEqual({ pages: 2, bundles: 1, built: 1 });
    const manifest = JSON.parse(await readFile(path.join(dir, 'pagefind', BUNDLES_MANIFEST), 'utf8')) as BundleManifest;
    expect(manifest).toEqual({ bundles: [{ url: '/pagefind/', languages: ['en', 'zh-cn'] }] });
    expect(await readFile(path.join(dir, 'pagefind', 'pagefind.js'), 'utf8')).toContain('mergeIndex');
  });
});
