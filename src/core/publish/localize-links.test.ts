import { describe, expect, it } from 'vitest';
import { type DocumentLangs, localizeLink, localizeLinks } from './localize-links.ts';

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
