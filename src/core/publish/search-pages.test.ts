import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { queryMatcher } from '../../browser/search-highlight.ts';
import { matchNamedPages } from '../../browser/search-pages.ts';
import { type SitePage, sitePages } from './pages.ts';
import { searchablePages } from './search-pages.ts';

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
