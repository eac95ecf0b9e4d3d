import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { isScheduled, type ProductImage, productImageIn, siteProfile, utcDay } from './catalog.ts';

describe('siteProfile', () => {
  it('keeps company, categories and products and drops every document body', () => {
    const profile = siteProfile(FIXTURE_CATALOG);
    expect(profile.company).toEqual(FIXTURE_CATALOG.company);
    expect(profile.categories).toEqual(FIXTURE_CATALOG.categories);
    expect(profile.products).toEqual(FIXTURE_CATALOG.products);
    expect(profile.origin).toBe(FIXTURE_CATALOG.origin);
    const json = JSON.stringify(profile);
    for (const doc of [...FIXTURE_CATALOG.articles, ...FIXTURE_CATALOG.solutions]) expect(json).not.toContain(doc.markdown);
    expect(Object.keys(profile).sort()).toEqual(['categories', 'company', 'exampleArticleSlug', 'origin', 'products']);
  });

  it('names an English article as the example when there is one, else any article, else "example"', () => {
    const english = FIXTURE_CATALOG.articles.find((a) => a.lang === 'en')!;
    expect(siteProfile(FIXTURE_CATALOG).exampleArticleSlug).toBe(english.slug);
    const chineseOnly = FIXTURE_CATALOG.articles.filter((a) => a.lang === 'zh');
    expect(chineseOnly.length).toBeGreaterThan(0);
    expect(siteProfile({ ...FIXTURE_CATALOG, articles: chineseOnly }).exampleArticleSlug).toBe(chineseOnly[0]!.slug);
    expect(siteProfile({ ...FIXTURE_CATALOG, articles: [] }).exampleArticleSlug).toBe('example');
  });
});

describe('productImageIn', () => {
  const image: ProductImage = {
    src: '/_astro/gateway.svg',
    width: 800,
    height: 360,
    alt: 'Diagram: the gateway',
    alt_zh: '示意图：网关',
    zh: { src: '/_astro/gateway.zh.svg', width: 800, height: 380 },
  };

  it('a Chinese page shows the Chinese-labelled picture, its own size and the Chinese text alternative', () => {
    expect(productImageIn(image, 'zh')).toEqual({ src: '/_astro/gateway.zh.svg', width: 800, height: 380, alt: '示意图：网关' });
    expect(productImageIn(image, 'en')).toEqual({ src: '/_astro/gateway.svg', width: 800, height: 360, alt: 'Diagram: the gateway' });
  });

  it('without the Chinese variants a Chinese page falls back to the English picture and text', () => {
    const { zh: _zh, alt_zh: _alt, ...english } = image;
    expect(productImageIn(english, 'zh')).toEqual({ src: '/_astro/gateway.svg', width: 800, height: 360, alt: 'Diagram: the gateway' });
    expect(productImageIn({ ...english, alt_zh: '示意图' }, 'zh').alt).toBe('示意图');
  });
});

describe('isScheduled', () => {
  it('holds back only what is dated after the build day, counted in UTC', () => {
    // 00:30 on 2026-11-28 in Beijing is 16:30 on 2026-11-27 in UTC: the build day is the UTC one.
    const today = utcDay(new Date('2026-11-28T00:30:00+08:00'));
    expect(today).toBe('2026-11-27');
    expect(isScheduled('2026-11-27', today)).toBe(false);
    expect(isScheduled('2026-11-26', today)).toBe(false);
    expect(isScheduled('2026-11-28', today)).toBe(true);
    expect(isScheduled('2027-01-01', today)).toBe(true);
  });
});
