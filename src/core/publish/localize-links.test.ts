import { describe, expect, it } from 'vitest';
import { type DocumentLangs, linkedDocuments, localizeLink, localizeLinks } from './localize-links.ts';

const documents: DocumentLangs = new Map([
  ['/solutions/bank', { lang: 'en', type: 'solution' }],
  ['/solutions/gov', { lang: 'zh', type: 'solution' }],
  ['/blog/agents', { lang: 'en', type: 'article' }],
  ['/blog/agents-zh', { lang: 'zh', type: 'article' }],
]);

describe('localizeLink', () => {
  it.each([
    ['zh', '/products/llm-platform', '/zh/products/llm-platform'],
    ['zh', '/products', '/zh/products'],
    ['zh', '/contact?product=x#form', '/zh/contact?product=x#form'],
    ['zh', '/developers#mcp', '/zh/developers#mcp'],
    ['zh', '/', '/zh'],
    ['zh', '/blog', '/zh/blog'],
    ['en', '/zh/contact', '/contact'],
    ['en', '/zh/products/x', '/products/x'],
    ['zh', '/solutions/bank', '/zh/solutions/bank'],
    ['zh', '/solutions/gov', '/solutions/gov'],
    ['en', '/solutions/gov', '/en/solutions/gov'],
    ['zh', '/blog/agents-zh', '/blog/agents-zh'],
    ['zh', '/docs/api', '/docs/api'],
    ['zh', 'https://example.com/products', 'https://example.com/products'],
    ['zh', '//cdn.example/x', '//cdn.example/x'],
  ] as const)('%s: %s → %s', (lang, href, expected) => {
    expect(localizeLink(lang, href, documents).href).toBe(expected);
  });

  it('keeps the target of an article in the other language and declares its language', () => {
    expect(localizeLink('zh', '/blog/agents', documents)).toEqual({ href: '/blog/agents', hreflang: 'en' });
    expect(localizeLink('zh', '/blog/agents-zh', documents).hreflang).toBeUndefined();
    expect(localizeLink('zh', '/docs/api#search', documents)).toEqual({ href: '/docs/api#search', hreflang: 'en' });
  });
});

describe('localizeLinks', () => {
  it('rewrites every anchor of rendered HTML and leaves everything else alone', () => {
    const html =
      '<p>See <a href="/products/x">X</a>, <a href="/blog/agents" class="c">agents</a> and <a href="/contact?a=1&amp;b=2">us</a>. /products/x</p>';
    expect(localizeLinks(html, 'zh', documents)).toBe(
      '<p>See <a href="/zh/products/x">X</a>, <a hreflang="en" href="/blog/agents" class="c">agents</a> and <a href="/zh/contact?a=1&amp;b=2">us</a>. /products/x</p>',
    );
    expect(localizeLinks(html, 'en', documents)).toBe(html);
  });
});

describe('linkedDocuments', () => {
  it('finds the documents a body links to, root-relative or absolute, and only those', () => {
    const markdown = [
      'See [the bank](https://example.com/solutions/bank) and [agents](/blog/agents#intro).',
      '<a href="/solutions/gov?x=1">gov</a>, [products](/products/llm-platform), [other](https://other.example/blog/x).',
    ].join('\n');
    expect(linkedDocuments(markdown, documents)).toEqual({
      '/solutions/bank': { lang: 'en', type: 'solution' },
      '/blog/agents': { lang: 'en', type: 'article' },
      '/solutions/gov': { lang: 'zh', type: 'solution' },
    });
  });

  it('gives localizeLinks what the whole table gives it for that body', () => {
    const html = '<p><a href="/solutions/bank">a</a> <a href="https://example.com/blog/agents">b</a> <a href="/blog/agents">c</a></p>';
    const markdown = '[a](https://example.com/solutions/bank) [b](https://example.com/blog/agents) [c](/blog/agents)';
    const linked = new Map(Object.entries(linkedDocuments(markdown, documents)));
    expect(localizeLinks(html, 'zh', linked)).toBe(localizeLinks(html, 'zh', documents));
    expect(localizeLinks(html, 'zh', linked)).toContain('href="/zh/solutions/bank"');
  });
});
