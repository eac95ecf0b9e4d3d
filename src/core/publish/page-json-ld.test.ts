import { describe, expect, it } from 'vitest';
import { breadcrumbCandidates, webPageJsonLd } from './page-json-ld.ts';
import { GLOSSARY, glossaryMarkdown } from './glossary.ts';

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
  it('defines every term in both languages, with unique anchors, and its twin carries each term and definition', () => {
    expect(new Set(GLOSSARY.map((g) => g.id)).size).toBe(GLOSSARY.length);
    for (const lang of ['en', 'zh'] as const) {
      const md = glossaryMarkdown(lang);
      for (const g of GLOSSARY) {
        expect(g.definition[lang].length, g.id).toBeGreaterThan(20);
        expect(md).toContain(`## ${g.term[lang]}\n\n${g.definition[lang]}`);
      }
    }
  });
});
