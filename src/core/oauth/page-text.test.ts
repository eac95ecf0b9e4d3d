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

describe('sentences with a slot', () => {
  it.each(['en', 'zh'] as const)('%s: each shows what it is given', (lang) => {
    const text = pageText(lang);
    expect(text.nothingSent('SITE')).toContain('SITE');
    expect(text.consentTitle('CLIENT')).toContain('CLIENT');
    for (const sentence of [text.consentHeading('CLIENT', 'SITE'), text.unverifiedName('CLIENT', 'SITE')]) {
      expect(sentence).toContain('CLIENT');
      expect(sentence).toContain('SITE');
    }
    expect(text.claimIntro('SITE')).toContain('SITE');
    expect(text.tooMany(42)).toContain('42');
    expect(text.agentName('AGENT')).toContain('AGENT');
    expect(text.claimNote('SITE')).toContain('SITE');
    const claimed = text.claimed('NAME', 'ID');
    expect(claimed).toContain('NAME');
    expect(claimed).toContain('<code>ID</code>');
    // Each says more than its slot.
    for (const sentence of [text.nothingSent(''), text.consentTitle(''), text.claimIntro(''), text.agentName(''), text.claimNote('')])
      expect(sentence.length).toBeGreaterThan(2);
  });
});
