import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { queryMatcher } from '../../browser/search-highlight.ts';
import { matchNamedPages } from '../../browser/search-pages.ts';
import { type SitePage, sitePages } from './pages.ts';
import { notFoundAddresses, searchablePages } from './search-pages.ts';
import { nearAddresses } from './not-found.ts';

const page = (path: string, kind: SitePage['kind'], title: string): SitePage =>
  ({ path, kind, title, description: `About ${title}.`, lang: 'en', lastmod: '2026-11-26', markdown: '' }) as SitePage;

describe('searchablePages', () => {
  it('lists the products first, then the listings, the API reference and the developers hub; never articles', () => {
    const pages = searchablePages([
      page('/blog/x', 'article', 'An article'),
      page('/docs/api/search-articles', 'static', 'Search articles and solutions · API reference'),
      page('/products/llm-gateway', 'product', 'LLM Gateway'),
      page('/developers', 'static', 'Developers'),
      page('/contact', 'static', 'Contact'),
      page('/products', 'list', 'Products'),
    ]);
    expect(pages.map((p) => p.path)).toEqual(['/products/llm-gateway', '/docs/api/search-articles', '/developers', '/products']);
    expect(pages[0]).toEqual({
      title: 'LLM Gateway',
      description: 'About LLM Gateway.',
      path: '/products/llm-gateway',
      type: 'product',
      lang: 'en',
    });
  });
});

describe('the developers hub is found by its text (issue 28 stranger #5)', () => {
  const named = searchablePages(sitePages(FIXTURE_CATALOG));
  it.each([
    ['MCP Inspector', '/developers'],
    ['Claude Code', '/developers'],
    ['agent skills', '/developers'],
    ['智能体技能', '/zh/developers'],
  ])('%s finds %s', (query, path) => {
    expect(matchNamedPages(named, queryMatcher(query), query, 5).map((p) => p.path)).toContain(path);
  });

  it('and not by words it does not show', () => {
    expect(matchNamedPages(named, queryMatcher('kubernetes'), 'kubernetes', 5).map((p) => p.path)).not.toContain('/developers');
  });
});

describe('notFoundAddresses (/search/addresses.json)', () => {
  // Tags in both languages' majority: an English tag's other page is under /zh, a Chinese one's under /en.
  const catalog = {
    ...FIXTURE_CATALOG,
    articles: FIXTURE_CATALOG.articles.map((a) => ({ ...a, tags: a.lang === 'en' ? ['RAG', 'model serving'] : ['RAG', '私有化部署'] })),
  };

  it('holds every article and solution, and every category and tag page in both chromes, each a page the site builds', () => {
    const addresses = notFoundAddresses(catalog);
    const built = new Set(sitePages(catalog).map((p) => p.path));
    for (const address of addresses) expect(built.has(address), address).toBe(true);
    expect(new Set(addresses).size).toBe(addresses.length);
    for (const doc of [...catalog.articles, ...catalog.solutions]) expect(addresses).toContain(doc.path);
    const listings = [...built].filter((path) => /^(\/(zh|en))?\/blog\/(tag|category)\//.test(path));
    expect(listings.length).toBeGreaterThanOrEqual(2 * (catalog.categories.length + 3));
    expect([...addresses].sort()).toEqual(expect.arrayContaining(listings.sort()));
  });

  it('lets the 404 page find a tag or category one typo away, in the reader’s chrome (issue 28, left low)', () => {
    const addresses = notFoundAddresses(catalog);
    const category = catalog.categories.find((c) => c.slug.length >= 5)!.slug;
    expect(nearAddresses(`/zh/blog/category/${category.slice(0, -1)}`, addresses)).toEqual([`/zh/blog/category/${category}`]);
    expect(nearAddresses('/blog/tags/ragg', addresses)).toEqual(['/blog/tag/rag']);
    // An English tag's Chinese page is under /zh; a Chinese tag's own page is at /blog/tag/…, its English one under /en.
    expect(nearAddresses('/zh/blog/tag/model-servng', addresses)).toEqual(['/zh/blog/tag/model-serving']);
    expect(nearAddresses('/blog/tag/model-servng', addresses)).toEqual(['/blog/tag/model-serving']);
    expect(nearAddresses(`/blog/tag/${encodeURIComponent('私有化部')}`, addresses)).toEqual(['/en/blog/tag/私有化部署']);
    expect(nearAddresses(`/zh/blog/tag/${encodeURIComponent('私有化部')}`, addresses)).toEqual(['/blog/tag/私有化部署']);
  });
});
