import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BUNDLES_MANIFEST,
  type BundleManifest,
  bundleOf,
  indexSite,
  markedForDelta,
  PAGEFIND_MAX_FRAGMENTS,
  pageUrl,
  runPagefind,
} from './pagefind-index.ts';
import { DELTA_META } from '../src/core/search/pagefind-delta.ts';

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

describe('markedForDelta and pageUrl (how the delta bundle is told apart)', () => {
  it('puts the marker first inside the data-pagefind-body element, else first in <body>', () => {
    const marker = `<span data-pagefind-meta="${DELTA_META.name}:${DELTA_META.value}"></span>`;
    expect(
      markedForDelta(
        '<body><nav>Menu</nav><article class="a" data-pagefind-body data-pagefind-meta="type:article"><h1>T</h1></article></body>',
      ),
    ).toBe(
      `<body><nav>Menu</nav><article class="a" data-pagefind-body data-pagefind-meta="type:article">${marker}<h1>T</h1></article></body>`,
    );
    expect(markedForDelta('<body data-pagefind-body=""><p>x</p></body>')).toBe(`<body data-pagefind-body="">${marker}<p>x</p></body>`);
    expect(markedForDelta('<html><body class="x"><p>x</p></body></html>')).toBe(`<html><body class="x">${marker}<p>x</p></body></html>`);
    // An attribute that only starts like it is not the body.
    expect(markedForDelta('<body><div data-pagefind-body-not="1"></div></body>')).toBe(
      `<body>${marker}<div data-pagefind-body-not="1"></div></body>`,
    );
  });

  it('names a page file by the URL Pagefind gives its results', () => {
    expect(pageUrl('blog/a-b/index.html')).toBe('/blog/a-b/');
    expect(pageUrl('products/llm-gateway/index.html')).toBe('/products/llm-gateway/');
  });
});

describe('indexSite (bundles and their cache)', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** Each fragment of a bundle folder, decoded: Pagefind gzips a signature and the JSON. */
  async function fragments(bundleDir: string): Promise<{ url: string; content: string; meta: Record<string, string> }[]> {
    const dir = path.join(bundleDir, 'fragment');
    const decoded = [];
    for (const file of (await readdir(dir)).sort()) {
      const text = gunzipSync(await readFile(path.join(dir, file))).toString('utf8');
      decoded.push(JSON.parse(text.slice(text.indexOf('{'))));
    }
    return decoded;
  }
  const readManifest = async (dir: string): Promise<BundleManifest> =>
    JSON.parse(await readFile(path.join(dir, 'pagefind', BUNDLES_MANIFEST), 'utf8')) as BundleManifest;

  async function twelvePosts(): Promise<{ dir: string; cacheDir: string }> {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++)
      files[`blog/post-${i}/index.html`] = page(i % 3 ? 'en' : 'zh-CN', `Post ${i}`, `Gateway note number ${i}.`);
    const dir = await site(files);
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'pagefind-cache-'));
    dirs.push(dir, cacheDir);
    return { dir, cacheDir };
  }

  it('splits a large site into bundles, lists them, and takes every bundle from the cache when nothing changed', async () => {
    const { dir, cacheDir } = await twelvePosts();
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5 })).toEqual({ pages: 12, bundles: 3, built: 3, delta: 0 });
    const manifest = await readManifest(dir);
    expect(manifest).toEqual({ bundles: [0, 1, 2].map((i) => ({ url: `/pagefind/b${i}/`, languages: expect.any(Array) })) });
    // Every page is in exactly one bundle, the one its path hashes to, under its own URL.
    const urls: string[] = [];
    for (const [i, bundle] of manifest.bundles.entries()) {
      const entry = JSON.parse(await readFile(path.join(dir, 'pagefind', `b${i}`, 'pagefind-entry.json'), 'utf8')) as {
        languages: Record<string, { page_count: number }>;
      };
      expect(Object.keys(entry.languages).sort()).toEqual(bundle.languages);
      for (const fragment of await fragments(path.join(dir, 'pagefind', `b${i}`))) {
        expect(bundleOf(`${fragment.url.slice(1)}index.html`, 3)).toBe(i);
        urls.push(fragment.url);
      }
    }
    expect(urls.sort()).toEqual(Array.from({ length: 12 }, (_, i) => `/blog/post-${i}/`).sort());
    const first = await readFile(path.join(dir, 'pagefind', 'b0', 'pagefind-entry.json'), 'utf8');

    // The same pages again (the step empties its output folder first): every bundle from the cache, no delta.
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5 })).toEqual({ pages: 12, bundles: 3, built: 0, delta: 0 });
    expect(await readFile(path.join(dir, 'pagefind', 'b0', 'pagefind-entry.json'), 'utf8')).toBe(first);
    expect(await readManifest(dir)).toEqual(manifest);
  });

  it('indexes an edited page into the delta bundle, marked, and lists it as superseded; its base bundle is reused', async () => {
    const { dir, cacheDir } = await twelvePosts();
    await indexSite(dir, { cacheDir, pagesPerBundle: 5, deltaMaxShare: 0.5 });
    const edited = 'blog/post-4/index.html';
    const bundle = bundleOf(edited, 3);
    const base = await readFile(path.join(dir, 'pagefind', `b${bundle}`, 'pagefind-entry.json'), 'utf8');
    await writeFile(path.join(dir, edited), page('en', 'Post 4', 'A zanzibarquokka appears.'));

    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5, deltaMaxShare: 0.5 })).toEqual({
      pages: 12,
      bundles: 3,
      built: 0,
      delta: 1,
    });
    const manifest = await readManifest(dir);
    expect(manifest.bundles.map((b) => b.url)).toEqual(['/pagefind/b0/', '/pagefind/b1/', '/pagefind/b2/', '/pagefind/delta/']);
    expect(manifest.superseded).toEqual(['/blog/post-4/']);
    // The base bundle still holds the old text (the search page drops that result); the delta holds the new one, marked.
    expect(await readFile(path.join(dir, 'pagefind', `b${bundle}`, 'pagefind-entry.json'), 'utf8')).toBe(base);
    const delta = await fragments(path.join(dir, 'pagefind', 'delta'));
    expect(delta).toEqual([
      expect.objectContaining({
        url: '/blog/post-4/',
        content: expect.stringContaining('zanzibarquokka'),
        meta: expect.objectContaining({ [DELTA_META.name]: DELTA_META.value }),
      }),
    ]);
    // Base bundles carry no marker.
    for (const fragment of await fragments(path.join(dir, 'pagefind', `b${bundle}`)))
      expect(fragment.meta[DELTA_META.name]).toBeUndefined();

    // A change only in bytes Pagefind reads the same (a related list) still goes to the delta: the key is the page's bytes.
    const other = 'blog/post-7/index.html';
    await writeFile(
      path.join(dir, other),
      (await readFile(path.join(dir, other), 'utf8')).replace(
        '</article>',
        '<footer data-pagefind-ignore>Related: Post 4</footer></article>',
      ),
    );
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5, deltaMaxShare: 0.5 })).toMatchObject({ built: 0, delta: 2 });
    expect((await readManifest(dir)).superseded).toEqual(['/blog/post-4/', '/blog/post-7/']);
  });

  it('indexes a bundle again once more of its pages changed than the delta may hold, and the delta empties', async () => {
    const { dir, cacheDir } = await twelvePosts();
    await indexSite(dir, { cacheDir, pagesPerBundle: 5, deltaMaxShare: 0.25 });
    // The largest bundle (the path hash splits 12 pages unevenly): a quarter of it is one page.
    const all = Array.from({ length: 12 }, (_, i) => `blog/post-${i}/index.html`);
    const largest = [0, 1, 2].sort(
      (a, b) => all.filter((p) => bundleOf(p, 3) === b).length - all.filter((p) => bundleOf(p, 3) === a).length,
    )[0]!;
    const inLargest = all.filter((p) => bundleOf(p, 3) === largest);
    expect(Math.floor(inLargest.length * 0.25)).toBe(1);
    await writeFile(path.join(dir, inLargest[0]!), page('en', 'Changed', 'First change.'));
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5, deltaMaxShare: 0.25 })).toMatchObject({ built: 0, delta: 1 });
    // A second changed page passes the bundle's share (2 > 25 % of its pages): it is indexed again, with both changes.
    await writeFile(path.join(dir, inLargest[1]!), page('en', 'Changed too', 'Second change quokkaword.'));
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5, deltaMaxShare: 0.25 })).toEqual({
      pages: 12,
      bundles: 3,
      built: 1,
      delta: 0,
    });
    expect(await readManifest(dir)).toEqual({ bundles: [0, 1, 2].map((i) => ({ url: `/pagefind/b${i}/`, languages: expect.any(Array) })) });
    const texts = (await fragments(path.join(dir, 'pagefind', `b${largest}`))).map((f) => f.content).join(' ');
    expect(texts).toContain('First change');
    expect(texts).toContain('quokkaword');
    expect(existsSync(path.join(dir, 'pagefind', 'delta'))).toBe(false);
    // The cache keeps only what the last build used: three base slots, no delta.
    expect((await readdir(path.join(cacheDir, 'pagefind'))).sort()).toEqual(['base-3-0', 'base-3-1', 'base-3-2']);
  });

  it('lists a removed page as superseded, and leaves a page Pagefind skips (no data-pagefind-body) out of the delta', async () => {
    const { dir, cacheDir } = await twelvePosts();
    await indexSite(dir, { cacheDir, pagesPerBundle: 5, deltaMaxShare: 0.5 });
    await rm(path.join(dir, 'blog', 'post-1'), { recursive: true });
    await writeFile(
      path.join(dir, 'blog', 'post-2', 'index.html'),
      '<!doctype html><html lang="en"><body><p>No body marker: Pagefind skips me.</p></body></html>',
    );
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 5, deltaMaxShare: 0.5 })).toMatchObject({ pages: 11, built: 0, delta: 0 });
    expect(await readManifest(dir)).toEqual({
      bundles: [0, 1, 2].map((i) => ({ url: `/pagefind/b${i}/`, languages: expect.any(Array) })),
      superseded: ['/blog/post-1/', '/blog/post-2/'],
    });
  });

  it('reindexes every bundle when the bundle count changes (pages move between bundles)', async () => {
    const { dir, cacheDir } = await twelvePosts();
    await indexSite(dir, { cacheDir, pagesPerBundle: 5 });
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 4 })).toEqual({ pages: 12, bundles: 3, built: 0, delta: 0 });
    expect(await indexSite(dir, { cacheDir, pagesPerBundle: 6 })).toEqual({ pages: 12, bundles: 2, built: 2, delta: 0 });
    expect((await readdir(path.join(cacheDir, 'pagefind'))).sort()).toEqual(['base-2-0', 'base-2-1']);
  });

  it('keeps a small site in one bundle at pagefind/', async () => {
    const dir = await site({ 'blog/a/index.html': page('en', 'A', 'First.'), 'blog/b/index.html': page('zh-CN', 'B', '第二。') });
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'pagefind-cache-'));
    dirs.push(dir, cacheDir);
    expect(await indexSite(dir, { cacheDir })).toEqual({ pages: 2, bundles: 1, built: 1, delta: 0 });
    const manifest = JSON.parse(await readFile(path.join(dir, 'pagefind', BUNDLES_MANIFEST), 'utf8')) as BundleManifest;
    expect(manifest).toEqual({ bundles: [{ url: '/pagefind/', languages: ['en', 'zh-cn'] }] });
    expect(await readFile(path.join(dir, 'pagefind', 'pagefind.js'), 'utf8')).toContain('mergeIndex');
  });
});
