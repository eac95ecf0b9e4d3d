import { describe, expect, it } from 'vitest';
import type { SitePage } from './pages.ts';
import { SITEMAP_URL_LIMIT, sitemapPartCount, sitemapPartPath, sitemapPartXml, sitemapXml } from './feeds.ts';

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
