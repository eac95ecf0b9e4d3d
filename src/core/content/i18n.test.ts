import { describe, expect, it } from 'vitest';
import { formatDate, langTag, languageSwitchTitle, messages, negotiateLang, otherLang } from './i18n.ts';

describe('dictionary', () => {
  it('has every key in both languages, and no Chinese entry is left in English', () => {
    const en = messages('en');
    const zh = messages('zh');
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    const sample = (v: unknown): string => (typeof v === 'function' ? String((v as (...a: unknown[]) => string)(2, 3)) : String(v));
    // Brand names, "llms.txt", "English" and code-ish labels may legitimately be the same.
    const sameOk = new Set(['switchLabel', 'langName']);
    const untranslated = Object.keys(en).filter(
      (k) => !sameOk.has(k) && sample(en[k as keyof typeof en]) === sample(zh[k as keyof typeof zh]),
    );
    expect(untranslated).toEqual([]);
  });

  it('counts and interpolates', () => {
    expect(messages('en').minRead(5)).toBe('5 min read');
    expect(messages('zh').minRead(5)).toBe('阅读约 5 分钟');
    expect(messages('zh').sent('7F3A-09C2')).toContain('7F3A-09C2');
  });
});

describe('formatDate', () => {
  it('writes a day as each language does, in UTC', () => {
    expect(formatDate('2025-06-17', 'en')).toBe('June 17, 2025');
    expect(formatDate('2025-06-17', 'zh')).toBe('2025年6月17日');
    expect(formatDate('not a date', 'en')).toBe('not a date');
  });
});

describe('negotiateLang', () => {
  it.each([
    [null, 'en'],
    ['', 'en'],
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh'],
    ['en-US,en;q=0.9,zh-CN;q=0.8', 'en'],
    ['fr-FR,fr;q=0.9,zh-TW;q=0.5', 'zh'],
    ['en;q=0.2, zh;q=0.9', 'zh'],
    ['zh;q=0, en', 'en'],
    ['de, fr', 'en'],
    ['ZH-hans', 'zh'],
  ] as const)('%j -> %s', (header, lang) => {
    expect(negotiateLang(header)).toBe(lang);
  });
  it('keeps the fallback for headers naming neither', () => {
    expect(negotiateLang('ja', 'zh')).toBe('zh');
  });
});

describe('langTag and otherLang', () => {
  it('map the two languages', () => {
    expect(langTag('zh')).toBe('zh-CN');
    expect(langTag('en')).toBe('en');
    expect(otherLang('zh')).toBe('en');
  });
});

describe('languageSwitchTitle', () => {
  it('"this article" only for an article whose translation the switch opens; "this site" for every other page', () => {
    expect(languageSwitchTitle('en', { article: true, translated: true })).toBe('Read this article in Chinese');
    expect(languageSwitchTitle('zh', { article: true, translated: true })).toBe('阅读本文的英文版');
    for (const lang of ['en', 'zh'] as const)
      for (const page of [
        { article: true, translated: false },
        { article: false, translated: true },
        { article: false, translated: false },
      ])
        expect(languageSwitchTitle(lang, page)).toBe(messages(lang).switchTitle);
  });
});
