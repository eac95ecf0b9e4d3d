import { describe, expect, it } from 'vitest';
import { absoluteUrl, paths, twinPathOf } from './paths.ts';

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
