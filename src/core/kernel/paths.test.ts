import { describe, expect, it } from 'vitest';
import { absoluteUrl, paths, twinPathOf, inChrome, sectionIn } from './paths.ts';

describe('twinPathOf', () => {
  it.each([
    ['/', '/index.md'],
    ['/index.html', '/index.md'],
    ['/blog', '/blog.md'],
    ['/blog/', '/blog.md'],
    ['/blog/some-post/', '/blog/some-post.md'],
    ['/blog/some-post/index.html', '/blog/some-post.md'],
    ['/blog/page/2', '/blog/page/2.md'],
    ['/styles/site.css', null],
    ['/llms.txt', null],
  ])('%s -> %s', (input, expected) => {
    expect(twinPathOf(input)).toBe(expected);
  });
});

describe('paths', () => {
  it('numbers blog pages from 2 and keeps page 1 at /blog', () => {
    expect(paths.blogPage(1)).toBe('/blog');
    expect(paths.blogPage(3)).toBe('/blog/page/3');
  });
  it('builds absolute URLs', () => {
    expect(absoluteUrl('https://a.example', '/blog/x')).toBe('https://a.example/blog/x');
  });
});

describe('inChrome', () => {
  it('keeps a page in its own language and puts the other language’s copy under /<lang>', () => {
    expect(inChrome('zh', '/solutions/bank', 'zh')).toBe('/solutions/bank');
    expect(inChrome('zh', '/solutions/bank', 'en')).toBe('/zh/solutions/bank');
    expect(inChrome('en', '/blog/tag/私有化部署', 'zh')).toBe('/en/blog/tag/私有化部署');
    expect(inChrome('zh', '/', 'en')).toBe('/zh');
  });
});

describe('sectionIn', () => {
  it.each([
    ['zh', '/blog', '/zh/blog'],
    ['en', '/zh/blog', '/en/blog'],
    ['en', '/zh/blog/tag/vllm', '/en/blog'],
    ['zh', '/blog/some-article', '/zh/blog'],
    ['zh', '/products/llm-gateway', '/zh/products'],
    ['en', '/zh/products/llm-gateway', '/products'],
    ['zh', '/solutions/bank', '/zh/solutions'],
    ['zh', '/docs/api', '/zh/developers'],
    ['en', '/zh/developers', '/developers'],
    ['en', '/zh/contact/thanks', '/contact'],
    ['zh', '/search', '/zh/search'],
    ['zh', '/', '/zh'],
    ['en', '/zh', '/'],
  ] as const)('%s: %s -> %s', (lang, path, expected) => {
    expect(sectionIn(lang, path)).toBe(expected);
  });
});
