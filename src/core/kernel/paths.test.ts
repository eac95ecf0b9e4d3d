import { describe, expect, it } from 'vitest';
import { absoluteUrl, inChrome, OAUTH_PATHS, paths, sectionIn, tagSlug, twinPathOf } from './paths.ts';

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
    ['/blog//', '/blog.md'],
    ['/v1.2/notes/', '/v1.2/notes.md'],
    ['/a.b/', null],
    ['/docs/v1.2-beta', '/docs/v1.2-beta.md'],
    ['/blog/x/index.html/', null],
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
    // The text join gives exactly what the URL parser gives, for plain paths and the rest alike.
    const origins = ['https://a.example', 'HTTPS://A.Example:443', 'http://localhost:8888', 'https://a.example/base', 'https://a.example/'];
    const tails = [
      '/',
      '/blog/x',
      '/blog/x/',
      '/zh/blog/tag/麒麟-os',
      '/a/./b',
      '/a/../b',
      '/..',
      '/.well-known/x',
      '//evil.example/x',
      '/a b',
      '/x?y=1',
      '/x#h',
      '/%41',
      '/a.b/c',
      '',
    ];
    for (const origin of origins)
      for (const tail of tails) expect(absoluteUrl(origin, tail), `${origin} + ${tail}`).toBe(new URL(tail, `${origin}/`).href);
  });
});

describe('every page path', () => {
  it('is where the pages and documents are built', () => {
    expect(paths.blogPage(0)).toBe('/blog');
    expect(paths.blogPage(2)).toBe('/blog/page/2');
    expect(paths.category('rag')).toBe('/blog/category/rag');
    expect(paths.tag('vLLM Serving')).toBe('/blog/tag/vllm-serving');
    expect(paths.langHome('zh')).toBe('/zh');
    expect(paths.langHome('en')).toBe('/');
    expect(paths.langBlog('zh')).toBe('/zh/blog');
    expect(paths.langBlog('en', 1)).toBe('/en/blog');
    expect(paths.langBlog('en', 2)).toBe('/en/blog/page/2');
    expect(paths.langContact('zh')).toBe('/zh/contact');
    expect(paths.langContact('en')).toBe('/contact');
    expect(paths.langSearch('zh')).toBe('/zh/search');
    expect(paths.langSearch('en')).toBe('/search');
    expect(paths.langRss('zh')).toBe('/zh/rss.xml');
    expect(paths.langContactThanks('zh')).toBe('/zh/contact/thanks');
    expect(paths.langContactThanks('en')).toBe('/contact/thanks');
    expect(paths.ogImage('/')).toBe('/og/index.png');
    expect(paths.ogImage('/blog/x/')).toBe('/og/blog/x.png');
    expect(paths.ogImage('/blog/x//')).toBe('/og/blog/x.png');
    expect(paths.article('x')).toBe('/blog/x');
    expect(paths.solution('s')).toBe('/solutions/s');
    expect(paths.product('p')).toBe('/products/p');
    expect(paths.agentSkill('auth')).toBe('/.well-known/agent-skills/auth/SKILL.md');
  });

  it('the OAuth and protected-resource paths', () => {
    expect(OAUTH_PATHS).toEqual({
      register: '/oauth/register',
      token: '/oauth/token',
      authorize: '/oauth/authorize',
      revoke: '/oauth/revoke',
      claim: '/oauth/claim',
      claimVerify: '/oauth/claim/verify',
      jwks: '/oauth/jwks.json',
      asMetadata: '/.well-known/oauth-authorization-server',
      oidcMetadata: '/.well-known/openid-configuration',
      prmRoot: '/.well-known/oauth-protected-resource',
      prmMcp: '/.well-known/oauth-protected-resource/mcp',
      authMd: '/auth.md',
      mcp: '/mcp',
    });
  });
});

describe('tagSlug', () => {
  it.each([
    ['vLLM', 'vllm'],
    ['麒麟 OS', '麒麟-os'],
    ['  C++ / Rust  ', 'c-rust'],
    ['ＡＢＣ', 'abc'],
    ['!!!', 'tag'],
    ['a--b', 'a-b'],
  ])('%s -> %s', (tag, slug) => expect(tagSlug(tag)).toBe(slug));
});

describe('inChrome', () => {
  it('keeps a page in its own language and puts the other language’s copy under /<lang>', () => {
    expect(inChrome('zh', '/solutions/bank', 'zh')).toBe('/solutions/bank');
    expect(inChrome('zh', '/solutions/bank', 'en')).toBe('/zh/solutions/bank');
    expect(inChrome('en', '/blog/tag/私有化部署', 'zh')).toBe('/en/blog/tag/私有化部署');
    expect(inChrome('zh', '/', 'en')).toBe('/zh');
  });
});

describe('blogAll', () => {
  it('is the listing of both languages in each chrome: /blog in English, /zh/blog/all in Chinese', () => {
    expect([paths.blogAll('en'), paths.blogAll('en', 2), paths.blogAll('zh'), paths.blogAll('zh', 3)]).toEqual([
      '/blog',
      '/blog/page/2',
      '/zh/blog/all',
      '/zh/blog/all/page/3',
    ]);
    expect(sectionIn('en', paths.blogAll('zh', 2))).toBe('/en/blog');
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
