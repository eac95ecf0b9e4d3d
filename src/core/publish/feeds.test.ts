import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { framedTwin, type SitePage, sitePages, twinUrl } from './pages.ts';
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

  it('have a "## Sitemap" section before the instructions; framed, they open with the four front matter fields', () => {
    for (const page of site)
      expect(page.markdown, page.path).toContain(`\n## Sitemap\n\n- [Site map](${FIXTURE_CATALOG.origin}/sitemap.md): `);
    const page = site.find((p) => p.path === '/')!;
    expect(framedTwin(page, '0123456789abcdef')).toBe(
      `---\ntitle: ${JSON.stringify(page.title)}\ndescription: ${JSON.stringify(page.description)}\ndoc_version: "0123456789abcdef"\nlast_updated: "${page.lastmod}"\n---\n\n${page.markdown}`,
    );
  });

  it('leave their site map section out of llms-full.txt', () => {
    const full = llmsFullTxt(FIXTURE_CATALOG, site);
    expect(full).not.toContain('## Sitemap');
    expect(full).not.toContain('doc_version');
  });
});
