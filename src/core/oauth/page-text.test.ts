/** The words of the OAuth pages follow the browser's language. */
import { describe, expect, it } from 'vitest';
import { pageText, pageTextFor } from './page-text.ts';

const request = (acceptLanguage?: string) =>
  new Request('https://site.example/', { headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });

describe('pageTextFor', () => {
  it.each([
    [undefined, 'en'],
    ['en-GB', 'en'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN'],
    ['fr, zh;q=0.5', 'zh-CN'],
    ['de', 'en'],
  ])('Accept-Language %j: %s', (header, htmlLang) => expect(pageTextFor(request(header)).htmlLang).toBe(htmlLang));

  it('every sentence exists in both languages, and scopes are described in each', () => {
    const en = pageText('en');
    const zh = pageText('zh');
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    expect(en.scope('content:export')).toContain('export_article_index');
    expect(zh.scope('content:export')).toContain('导出');
    expect(zh.scope('articles:read')).toContain('搜索');
    expect(en.tooMany(30)).toBe('Too many codes tried; wait 30 seconds.');
    expect(zh.tooMany(30)).toBe('尝试的代码过多，请等待 30 秒。');
  });
});
