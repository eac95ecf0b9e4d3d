import { describe, expect, it } from 'vitest';
import { breadcrumbCandidates, webPageJsonLd } from './page-json-ld.ts';
import { glossaryMarkdown, hasGlossary } from './glossary.ts';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';

describe('breadcrumbCandidates', () => {
  it('lists the home page in the reader’s language, then each leading part of the path in that chrome, the page left out', () => {
    expect(breadcrumbCandidates('/', 'en')).toEqual([]);
    expect(breadcrumbCandidates('/zh', 'zh')).toEqual([]);
    expect(breadcrumbCandidates('/blog/tag/rag', 'en')).toEqual(['/', '/blog', '/blog/tag']);
    expect(breadcrumbCandidates('/zh/blog/tag/rag', 'zh')).toEqual(['/zh', '/zh/blog', '/zh/blog/tag']);
    // A Chinese article lives at /blog/<slug>: its trail runs through the Chinese pages.
    expect(breadcrumbCandidates('/blog/x-zh', 'zh')).toEqual(['/zh', '/zh/blog']);
    // The developers hub stands for /docs.
    expect(breadcrumbCandidates('/docs/api/token', 'en')).toEqual(['/', '/developers', '/docs/api']);
  });
});

describe('webPageJsonLd', () => {
  it('is a WebPage (a CollectionPage for a listing) with dateModified and a BreadcrumbList ending at the page', () => {
    const page = {
      path: '/blog/tag/rag',
      title: 'Tagged “RAG”',
      description: 'd',
      lang: 'en' as const,
      lastmod: '2026-05-01',
      kind: 'list' as const,
    };
    const ld = webPageJsonLd(
      'https://s.example',
      page,
      [
        { name: 'Acme', path: '/' },
        { name: 'Blog', path: '/blog' },
        { name: page.title, path: page.path },
      ],
      { name: 'Acme' },
    );
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'CollectionPage',
      url: 'https://s.example/blog/tag/rag',
      inLanguage: 'en',
      dateModified: '2026-05-01',
      breadcrumb: {
        '@type': 'BreadcrumbList',
        itemListElement: [
          { '@type': 'ListItem', position: 1, name: 'Acme', item: 'https://s.example/' },
          { '@type': 'ListItem', position: 2, name: 'Blog', item: 'https://s.example/blog' },
          { '@type': 'ListItem', position: 3, name: 'Tagged “RAG”', item: 'https://s.example/blog/tag/rag' },
        ],
      },
    });
    expect(webPageJsonLd('https://s.example', { ...page, kind: 'article' }, [], { name: 'Acme' })['@type']).toBe('WebPage');
  });
});

describe('the glossary', () => {
  it('its twin carries each term of content/glossary.yaml and its definition, in the given order', () => {
    const terms = FIXTURE_CATALOG.glossary!;
    for (const lang of ['en', 'zh'] as const) {
      const md = glossaryMarkdown(terms, lang);
      for (const g of terms) expect(md).toContain(`## ${g.term[lang]}\n\n${g.definition[lang]}`);
      expect(md.indexOf(terms[0]!.term[lang])).toBeLessThan(md.indexOf(terms[1]!.term[lang]));
    }
  });

  it('is there only when the content defines terms', () => {
    expect(hasGlossary(FIXTURE_CATALOG.glossary)).toBe(true);
    expect(hasGlossary([])).toBe(false);
    expect(hasGlossary(undefined)).toBe(false);
  });
});
