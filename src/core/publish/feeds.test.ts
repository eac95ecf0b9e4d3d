import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { type SitePage, sitePages, twinUrl } from './pages.ts';
import { llmsFullTxt, SITEMAP_URL_LIMIT, sitemapMarkdown, sitemapPartCount, sitemapPartPath, sitemapPartXml, sitemapXml } from './feeds.ts';

const ORIGIN = 'https://www.acme-ai.example';
const pages = (count: number): SitePage[] =>
  Array.from({ length: count }, (_, i) => ({
    path: `/blog/p${i}`,
    kind: 'article' as const,
    title: `P${i}`,
    description: '',
    lang: 'en' as const,
    lastmod: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
    markdown: '',
  }));
const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

describe('sitemap.xml', () => {
  it('lists every listed page in one file while they fit the protocol (50,000 URLs)', () => {
    const site = [...pages(3), { ...pages(1)[0]!, path: '/contact/thanks', listed: false }];
    expect(sitemapPartCount(site)).toBe(0);
    expect(locs(sitemapXml(ORIGIN, site))).toEqual([`${ORIGIN}/blog/p0`, `${ORIGIN}/blog/p1`, `${ORIGIN}/blog/p2`]);
    expect(sitemapXml(ORIGIN, pages(SITEMAP_URL_LIMIT))).toContain('<urlset ');
  });

  it('becomes an index of parts of at most 50,000 URLs past that, every page in exactly one part', () => {
    const site = pages(2 * SITEMAP_URL_LIMIT + 7);
    expect(sitemapPartCount(site)).toBe(3);
    const index = sitemapXml(ORIGIN, site);
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index)).toEqual([1, 2, 3].map((n) => `${ORIGIN}${sitemapPartPath(n)}`));
    expect(index).toMatch(/<lastmod>2026-01-28<\/lastmod>/);
    const all = [1, 2, 3].flatMap((n) => locs(sitemapPartXml(ORIGIN, site, n)));
    expect([1, 2, 3].map((n) => locs(sitemapPartXml(ORIGIN, site, n)).length)).toEqual([SITEMAP_URL_LIMIT, SITEMAP_URL_LIMIT, 7]);
    expect(new Set(all).size).toBe(site.length);
    expect(() => sitemapPartXml(ORIGIN, site, 4)).toThrow(/no part 4/);
  });
});

describe('sitemap.md', () => {
  const site = sitePages(FIXTURE_CATALOG);
  const md = sitemapMarkdown(FIXTURE_CATALOG, site);

  it('links every listed page once, to its twin, under a language heading and a kind heading', () => {
    const links = [...md.matchAll(/^- \[[^\]]+\]\(([^)]+)\)$/gm)].map((m) => m[1]!);
    const listed = site.filter((p) => p.listed !== false);
    expect(links).toHaveLength(listed.length);
    expect(new Set(links)).toEqual(new Set(listed.map((p) => twinUrl(FIXTURE_CATALOG.origin, p.path))));
    expect(md).not.toContain('/contact/thanks');
    expect(md.split('\n')[0]).toBe(`# ${FIXTURE_CATALOG.company.name}: site map`);
    expect(md).toMatch(/\n## English\n\n### Home\n\n- \[[^\]]+\]\(https:\/\/acme-ai\.example\/index\.md\)\n/);
    expect(md).toMatch(/\n## Chinese \(中文\)\n\n### Home\n\n- \[[^\]]+\]\(https:\/\/acme-ai\.example\/zh\.md\)\n/);
    expect(md).toContain('\n### Listings, categories and tags\n');
  });
});

describe('twins', () => {
  const site = sitePages(FIXTURE_CATALOG);

  it('open with YAML front matter (title, description, doc_version, last_updated) and have a "## Sitemap" section', () => {
    for (const page of site) {
      const front = /^---\n([\s\S]*?)\n---\n\n> Index of this site for agents: /.exec(page.markdown)?.[1];
      expect(front, page.path).toBeDefined();
      const fields = Object.fromEntries(
        front!.split('\n').map((line) => [line.slice(0, line.indexOf(':')), JSON.parse(line.slice(line.indexOf(':') + 1))]),
      );
      expect(fields, page.path).toEqual({
        title: page.title,
        description: page.description,
        doc_version: expect.stringMatching(/^[0-9a-f]{16}$/),
        last_updated: page.lastmod,
      });
      expect(page.markdown, page.path).toContain(`\n## Sitemap\n\n- [Site map](${FIXTURE_CATALOG.origin}/sitemap.md): `);
    }
  });

  it('change doc_version exactly when their text changes', () => {
    const version = (pages: SitePage[], path: string): string =>
      /doc_version: "([^"]+)"/.exec(pages.find((p) => p.path === path)!.markdown)![1]!;
    const [first, second] = FIXTURE_CATALOG.articles;
    const edited = sitePages({
      ...FIXTURE_CATALOG,
      articles: [{ ...first!, markdown: `${first!.markdown}\n\nOne more line.` }, ...FIXTURE_CATALOG.articles.slice(1)],
    });
    expect(version(edited, first!.path)).not.toBe(version(site, first!.path));
    expect(version(edited, second!.path)).toBe(version(site, second!.path));
  });

  it('leave their front matter and site map section out of llms-full.txt', () => {
    const full = llmsFullTxt(FIXTURE_CATALOG, site);
    expect(full).not.toContain('doc_version');
    expect(full).not.toContain('## Sitemap');
    expect(full).not.toMatch(/^---\n[a-z_]+: /m);
  });
});
