/** Every page through the real request pipeline: HTML, twins, headers, 404. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/core/content/catalog.ts';
import { languageSwitchTitle } from '../../src/core/content/i18n.ts';
import { htmlOf } from '../../tools/agent-ready/html.ts';
import { normalizeText } from '../../tools/agent-ready/rubrics/afdocs.ts';
import { sitePages } from '../../src/core/publish/pages.ts';
import { documentTitle, MAX_TITLE, siteNameIn, timesNamed } from '../../src/core/publish/page-title.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { sitemapPaths, useRuntime } from '../support/runtime.ts';

const site = useRuntime();
const ROOT = path.resolve(import.meta.dirname, '..', '..');

async function allPages(): Promise<string[]> {
  return sitemapPaths(await (await site.fetchPath('/sitemap.xml')).text());
}

describe('pages and their markdown twins', () => {
  it('lists every page type in the sitemap', async () => {
    const paths = await allPages();
    for (const expected of ['/', '/blog', '/solutions', '/products', '/search', '/contact']) expect(paths).toContain(expected);
    expect(paths.some((p) => /^\/blog\/category\/[a-z-]+$/.test(p))).toBe(true);
    expect(paths.some((p) => /^\/blog\/page\/2$/.test(p))).toBe(true);
    // Each language has its home, listing and contact page; tags have pages.
    for (const expected of ['/zh', '/zh/blog', '/en/blog', '/zh/contact']) expect(paths).toContain(expected);
    expect(paths).toContain('/blog/tag/vllm');
    expect(paths.filter((p) => p.startsWith('/products/')).length).toBeGreaterThanOrEqual(4);
    expect(paths.filter((p) => p.startsWith('/solutions/')).length).toBeGreaterThanOrEqual(4);
    expect(paths.filter((p) => /^\/blog\/(?!page\/|category\/)/.test(p)).length).toBeGreaterThanOrEqual(16);
  });

  it('serves each page as HTML with security, cache, Vary and Link headers', async () => {
    for (const path of await allPages()) {
      const res = await site.fetchPath(path, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.headers.get('vary'), path).toMatch(/accept/i);
      expect(res.headers.get('cache-control'), path).toBe('public, max-age=0, must-revalidate');
      expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security'), path).toMatch(/max-age=\d+/);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      const twin = path === '/' ? '/index.md' : `${path}.md`;
      expect(res.headers.get('link'), path).toContain(`<${twin}>; rel="alternate"; type="text/markdown"`);
      const html = await res.text();
      expect(html, path).toContain(`<link rel="alternate" type="text/markdown" href="${TEST_ORIGIN}${twin}"`);
    }
  });

  it('links the discovery documents from every HTML page, on GET and HEAD, and every target answers', async () => {
    for (const method of ['GET', 'HEAD']) {
      const link = (await site.fetchPath('/', { method })).headers.get('link') ?? '';
      expect(link, method).toContain('</index.md>; rel="alternate"; type="text/markdown"');
      expect(link, method).toContain('</openapi.json>; rel="service-desc"; type="application/json"');
      expect(link, method).toContain('</docs/api>; rel="service-doc"; type="text/html"');
      expect(link, method).toContain('</llms.txt>; rel="describedby"; type="text/plain"');
      expect(link, method).toContain('</.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json"');
      expect(link, method).toContain('</.well-known/ai-catalog.json>; rel="ai-catalog"; type="application/json"');
      for (const target of link.matchAll(/<([^>]+)>/g)) {
        expect((await site.fetchPath(target[1]!)).status, target[1]).toBe(200);
      }
    }
  });

  it('serves a clean GFM twin at <path>.md for every page', async () => {
    for (const path of await allPages()) {
      const twin = path === '/' ? '/index.md' : `${path}.md`;
      const res = await site.fetchPath(twin);
      expect(res.status, twin).toBe(200);
      expect(res.headers.get('content-type'), twin).toBe('text/markdown; charset=utf-8');
      expect(Number(res.headers.get('x-markdown-tokens')), twin).toBeGreaterThan(0);
      const md = await res.text();
      // YAML front matter, one line pointing at the site's index, then the twin's H1; a site map section.
      expect(md, twin).toMatch(/^---\ntitle: .+\ndescription: .+\ndoc_version: "[0-9a-f]{16}"\nlast_updated: "\d{4}-\d\d-\d\d"\n---\n\n/);
      expect(md.includes(`\n---\n\n> Index of this site for agents: ${TEST_ORIGIN}/llms.txt\n\n# `), twin).toBe(true);
      expect(md, twin).toContain(`\n## Sitemap\n\n- [Site map](${TEST_ORIGIN}/sitemap.md)`);
      const prose = md.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
      expect(prose, twin).not.toMatch(/<html|<\/?[A-Z][A-Za-z]*[\s>/]|^import\s|^export\s/m);
      // Links are absolute: no markdown link target starts with "/".
      expect(md, twin).not.toMatch(/\]\(\/(?!\/)/);
      // Images too: a relative image (./diagram.svg) points at its built asset, which answers.
      for (const image of prose.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)) {
        expect(image[1], twin).toMatch(/^https?:\/\//);
        if (image[1]!.startsWith(TEST_ORIGIN)) expect((await site.fetchPath(new URL(image[1]!).pathname)).status, image[1]).toBe(200);
      }
      expect(md, twin).toContain(`${TEST_ORIGIN}${path === '/' ? '/' : path}`);
    }
  });

  it('never publishes drafts', async () => {
    const paths = await allPages();
    const llms = await (await site.fetchPath('/llms.txt')).text();
    const { readdirSync, readFileSync } = await import('node:fs');
    const drafts = readdirSync('content/articles')
      .map((f) => readFileSync(`content/articles/${f}`, 'utf8'))
      .filter((text) => /^draft: true$/m.test(text))
      .map((text) => /^slug: (.+)$/m.exec(text)![1]!.trim());
    expect(drafts.length).toBeGreaterThan(0);
    for (const slug of drafts) {
      expect(paths).not.toContain(`/blog/${slug}`);
      expect(llms).not.toContain(slug);
      expect((await site.fetchPath(`/blog/${slug}`)).status).toBe(404);
    }
  });

  it('renders the MDX article component in HTML and as a blockquote in the twin', async () => {
    const catalog = await import('../../generated/data/catalog.json', { with: { type: 'json' } });
    const articles = catalog.default.articles as { slug: string; path: string }[];
    let found = false;
    for (const article of articles) {
      const html = await (await site.fetchPath(article.path)).text();
      if (!html.includes('class="callout')) continue;
      found = true;
      const md = await (await site.fetchPath(`${article.path}.md`)).text();
      expect(md).toMatch(/^> \*\*(Tip|Note|Warning)/m);
    }
    expect(found).toBe(true);
  });

  it('puts JSON-LD, Open Graph, canonical and reading time on articles', async () => {
    const paths = (await allPages()).filter((p) => /^\/blog\/(?!page\/|category\/|tag\/)/.test(p));
    const html = await (await site.fetchPath(paths[0]!)).text();
    const ld = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]!);
    expect(ld['@type']).toMatch(/Article/);
    expect(ld.headline).toBeTruthy();
    expect(ld.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(html).toContain(`<link rel="canonical" href="${TEST_ORIGIN}${paths[0]}"`);
    expect(html).toMatch(/<meta property="og:type" content="article"/);
    expect(html).toMatch(/\d+ min read|阅读约 \d+ 分钟/);
    expect(html).toMatch(/rel="(prev|next)"/);
  });

  it('gives each language its chrome, feed and hreflang pairs', async () => {
    const zh = await (await site.fetchPath('/zh')).text();
    expect(zh).toContain('<html lang="zh-CN"');
    expect(zh).toContain('aria-label="主导航"');
    expect(zh).toContain(`<link rel="alternate" hreflang="en" href="${TEST_ORIGIN}/"`);
    expect(zh).toContain(`<link rel="alternate" hreflang="zh-CN" href="${TEST_ORIGIN}/zh"`);
    expect(zh).toContain(`<link rel="alternate" type="application/rss+xml" href="${TEST_ORIGIN}/zh/rss.xml"`);
    const en = await (await site.fetchPath('/')).text();
    expect(en).toContain('<html lang="en"');
    expect(en).toContain(`hreflang="x-default" href="${TEST_ORIGIN}/"`);
    for (const lang of ['zh', 'en']) {
      const feed = await site.fetchPath(`/${lang}/rss.xml`);
      expect(feed.status).toBe(200);
      expect(feed.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
      const xml = await feed.text();
      expect(xml).toContain(`<language>${lang === 'zh' ? 'zh-CN' : 'en'}</language>`);
      const items = [...xml.matchAll(/<link>([^<]+)<\/link>/g)].slice(1).map((m) => m[1]!);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        const page = await (await site.fetchPath(new URL(item).pathname)).text();
        expect(page, item).toContain(`<html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"`);
      }
    }
    // A Chinese tag page answers under its percent-encoded path.
    expect((await site.fetchPath('/blog/tag/%E7%A7%81%E6%9C%89%E5%8C%96%E9%83%A8%E7%BD%B2')).status).toBe(200);
  });

  it('the language switch offers "this article" only on an article with a translation, "this site" everywhere else', async () => {
    const article = /^(?:\/zh)?\/blog\/(?!page\/|category\/|tag\/|all$)[^/]+$/;
    const titles: string[] = [];
    for (const path of await allPages()) {
      const html = await (await site.fetchPath(path, { headers: { accept: 'text/html' } })).text();
      const title = /<a class="tool-link lang-switch"[^>]* title="([^"]*)"/.exec(html)?.[1];
      const lang = html.includes('<html lang="zh-CN"') ? 'zh' : 'en';
      const translated = new RegExp(`<link rel="alternate" hreflang="${lang === 'zh' ? 'en' : 'zh-CN'}"`).test(html);
      const expected = languageSwitchTitle(lang, { article: article.test(path), translated });
      expect(title, path).toBe(expected);
      titles.push(`${path} ${title}`);
    }
    // The pages the stranger named (s8b L6) say "this site".
    for (const path of ['/', '/blog', '/products', '/search', '/contact', '/glossary', '/zh', '/zh/blog', '/zh/contact'])
      expect(titles, path).toContain(`${path} ${path.startsWith('/zh') ? '阅读英文版网站' : 'Read this site in Chinese'}`);
  });

  it('gives every page a 1200×630 Open Graph image of its own, with alt text and a large Twitter card', async () => {
    /** Width and height from a PNG's IHDR chunk. */
    const pngSize = (bytes: Uint8Array): [number, number] => {
      const view = new DataView(bytes.buffer, bytes.byteOffset);
      expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
      return [view.getUint32(16), view.getUint32(20)];
    };
    const seen = new Set<string>();
    for (const path of await allPages()) {
      const html = await (await site.fetchPath(path)).text();
      const image = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
      expect(image, path).toBeDefined();
      expect(html, path).toMatch(/<meta property="og:image:alt" content="[^"]+"/);
      expect(html, path).toContain('<meta name="twitter:card" content="summary_large_image"');
      const res = await site.fetchPath(new URL(image!).pathname);
      expect(res.status, image).toBe(200);
      expect(res.headers.get('content-type'), image).toBe('image/png');
      expect(pngSize(new Uint8Array(await res.arrayBuffer())), image).toEqual([1200, 630]);
      seen.add(image!);
    }
    expect(seen.size, 'one image per page').toBe((await allPages()).length);
  });

  it('serves favicon.ico, the apple-touch-icon and a web manifest whose icons exist', async () => {
    const ico = await site.fetchPath('/favicon.ico');
    expect(ico.status).toBe(200);
    const bytes = new Uint8Array(await ico.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]);
    const touch = await site.fetchPath('/apple-touch-icon.png');
    expect(touch.status).toBe(200);
    expect(touch.headers.get('content-type')).toBe('image/png');
    const manifestRes = await site.fetchPath('/manifest.webmanifest');
    expect(manifestRes.headers.get('content-type')).toBe('application/manifest+json');
    const manifest = (await manifestRes.json()) as { name: string; icons: { src: string; sizes: string }[] };
    expect(manifest.name).toBeTruthy();
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) expect((await site.fetchPath(icon.src)).status, icon.src).toBe(200);
    const home = await (await site.fetchPath('/')).text();
    for (const link of [
      '<link rel="icon" href="/favicon.ico"',
      '<link rel="apple-touch-icon" href="/apple-touch-icon.png"',
      '<link rel="manifest" href="/manifest.webmanifest"',
    ])
      expect(home).toContain(link);
  });

  it('answers unknown paths with the 404 page and status 404, and markdown clients with a markdown 404', async () => {
    for (const accept of ['text/html', '*/*']) {
      const res = await site.fetchPath('/no-such-page', { headers: { accept } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('Page not found');
    }
    const markdown = await site.fetchPath('/no-such-page', { headers: { accept: 'text/markdown' } });
    expect(markdown.status).toBe(404);
    expect(markdown.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(await markdown.text()).toContain('[llms.txt](/llms.txt)');
    expect((await site.fetchPath('/blog/no-such-article.md')).status).toBe(404);
    expect((await site.fetchPath('/generated/catalog.json')).status).toBe(404);
  });

  it('marks hashed assets immutable', async () => {
    const html = await (await site.fetchPath('/')).text();
    const css = /href="(\/_astro\/[^"]+\.css)"/.exec(html)![1]!;
    const res = await site.fetchPath(css);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});

describe('the API reference pages and their twins carry the same text', () => {
  it('every content block of each operation page of the API reference is in its twin, as the checker reads them (AFDocs markdown-content-parity)', async () => {
    // The operations' pages; the one-page reference (/docs/api/all) and the index have their own twins (docs/agents.md).
    const pages = (await allPages()).filter((p) => p.startsWith('/docs/api/') && p !== '/docs/api/all');
    expect(pages.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const path of pages) {
      const res = await site.fetchPath(path, { headers: { accept: 'text/html' } });
      const text = await res.text();
      const fetched = {
        url: `${TEST_ORIGIN}${path}`,
        status: res.status,
        headers: res.headers,
        bytes: new Uint8Array(),
        text,
        ms: 0,
        redirects: [],
      };
      const twin = normalizeText(await (await site.fetchPath(`${path}.md`)).text());
      for (const block of new Set(htmlOf(fetched).segments.map(normalizeText)))
        if (block && !twin.includes(block)) missing.push(`${path}: "${block.slice(0, 80)}"`);
    }
    // A parameter row reads "q string required" (words apart), and the "Try it" form is in the twin too.
    expect(missing).toEqual([]);
  });
});

describe('titles and descriptions are written once, in the page registry', () => {
  it('every listed page shows the registry entry of its path as <title> and meta description', async () => {
    const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as Catalog;
    const registry = sitePages(catalog);
    expect(registry.length).toBeGreaterThan(40);
    const decode = (text: string): string =>
      text
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    for (const page of registry) {
      const html = await (await site.fetchPath(page.path, { headers: { accept: 'text/html' } })).text();
      const title = decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
      const description = decode(/<meta name="description" content="([^"]*)"/.exec(html)?.[1] ?? '');
      // One rule for every title (src/core/publish/page-title.ts): the page's title and the site's name in its language, once.
      const siteName = siteNameIn(catalog.company, page.lang);
      expect(title, `${page.path}: <title>`).toBe(documentTitle(page.title, siteName));
      expect(timesNamed(title, siteName), `${page.path}: <title> ${title} names ${siteName} once`).toBe(1);
      expect(title.length, `${page.path}: <title> ${title}`).toBeLessThanOrEqual(MAX_TITLE);
      expect(/<meta property="og:site_name" content="([^"]*)"/.exec(html)?.[1], `${page.path}: og:site_name`).toBe(siteName);
      // A Chinese page names the company in Chinese only (s10b: "艾克米智能：… | Acme AI").
      if (page.lang === 'zh') expect(timesNamed(title, catalog.company.name), `${page.path}: <title> ${title}`).toBe(0);
      expect(description, `${page.path}: description`).toBe(page.description);
    }
    // The 404 pages, which the registry does not list, follow the same rule.
    for (const [lang, missing] of [
      ['en', '/no-such-page'],
      ['zh', '/zh/no-such-page'],
    ] as const) {
      const html = await (await site.fetchPath(missing, { headers: { accept: 'text/html' } })).text();
      const title = decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
      expect(title, missing).toMatch(new RegExp(` \\| ${siteNameIn(catalog.company, lang)}$`));
      expect(/<meta property="og:site_name" content="([^"]*)"/.exec(html)?.[1], missing).toBe(siteNameIn(catalog.company, lang));
    }
  });
});

describe('blocks for one audience (src/components/Audience.astro)', () => {
  const AGENTS_ONLY = 'say that they come from one internal test setup';
  const HUMANS_ONLY = 'Our solutions engineers run the same load test with you';
  const PAGE = '/blog/gpu-capacity-planning-h100-l40s';

  it('the page shows the humans-only block, the twin and MCP-visible markdown the agents-only one', async () => {
    const html = await (await site.fetchPath(PAGE)).text();
    expect(html).toContain(HUMANS_ONLY);
    expect(html).not.toContain(AGENTS_ONLY);
    for (const res of [await site.fetchPath(`${PAGE}.md`), await site.fetchPath(PAGE, { headers: { accept: 'text/markdown' } })]) {
      const twin = await res.text();
      expect(twin).toContain(AGENTS_ONLY);
      expect(twin).not.toContain(HUMANS_ONLY);
      expect(twin).not.toContain('Audience');
    }
  });

  it('the search index takes the agents’ text (it is built from the twins): a phrase of the agents-only block finds the article', async () => {
    const hits: { slug: string }[] = await (await site.fetchPath(`/api/search?q=${encodeURIComponent('caveat')}&limit=50`)).json();
    expect(hits.map((h) => h.slug)).toContain('gpu-capacity-planning-h100-l40s');
    const human: { slug: string }[] = await (await site.fetchPath(`/api/search?q=${encodeURIComponent('clinic')}&limit=50`)).json();
    expect(human.map((h) => h.slug)).not.toContain('gpu-capacity-planning-h100-l40s');
  });
});
