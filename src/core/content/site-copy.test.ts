import { describe, expect, it } from 'vitest';
import { siteCopy } from './site-copy.ts';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';

const company = FIXTURE_CATALOG.company;

describe('siteCopy', () => {
  it('takes every sentence about the subject matter from company.yaml’s copy block', () => {
    const copy = {
      blog_lead: 'Notes on CDC pipelines.',
      blog_lead_zh: '关于 CDC 管道的笔记。',
      blog_lang_lead: 'Notes on CDC pipelines, in English.',
      blog_all_description: 'Articles on CDC pipelines and lineage.',
      search_description_zh: '搜索 CDC 与数据血缘文章。',
      search_example: 'CDC ordering, lineage',
      search_example_zh: 'CDC 顺序、数据血缘',
      contact_lead: 'Tell us about your pipelines.',
      products_description: 'Borealis tools for data teams',
      products_description_zh: '面向数据团队的产品',
      feed_name: 'data-engineering feed',
      feed_name_zh: '数据工程动态',
    };
    const en = siteCopy({ ...company, copy }, 'en');
    const zh = siteCopy({ ...company, copy }, 'zh');
    expect(en.blogLead).toBe(copy.blog_lead);
    expect(zh.blogLead).toBe(copy.blog_lead_zh);
    expect(en.blogLangLead).toBe(copy.blog_lang_lead);
    expect(en.blogAllDescription(2, 5)).toBe('Articles on CDC pipelines and lineage (page 2 of 5).');
    expect(zh.blogAllDescription(2, 5)).toBe(`${copy.blog_lead_zh}中文文章在前，英文文章标有语言（第 2/5 页）。`);
    expect(zh.searchDescription).toBe(copy.search_description_zh);
    expect(en.searchPlaceholder).toBe('e.g. CDC ordering, lineage');
    expect(zh.searchPlaceholder).toBe('例如：CDC 顺序、数据血缘');
    expect(en.contactLead).toBe(copy.contact_lead);
    expect(en.contactDescription).toBe(`Contact ${company.name}: its contact channels and a form. ${copy.contact_lead}`);
    expect(en.productsDescription(['A', 'B'])).toBe('Borealis tools for data teams: A, B.');
    expect(zh.productsDescription(['A', 'B'])).toBe(`面向数据团队的产品：A、B。${company.tagline_zh ?? company.tagline}`);
    expect(en.feedName).toBe(copy.feed_name);
    expect(zh.feedName).toBe(copy.feed_name_zh);
  });

  it('without a copy block names the company and no topic, and the search box shows no example', () => {
    const fork = { ...company, name: 'Borealis Data', name_zh: '北极光数据', tagline: 'CDC pipelines.', tagline_zh: undefined };
    for (const lang of ['en', 'zh'] as const) {
      const copy = siteCopy(fork, lang);
      expect(copy.searchPlaceholder).toBeUndefined();
      const sentences = [
        copy.blogLead,
        copy.blogLangLead,
        copy.blogAllDescription(1, 1),
        copy.searchDescription,
        copy.contactLead,
        copy.contactDescription,
        copy.productsDescription(['X']),
        copy.solutionsLead,
        copy.solutionsDescription,
        copy.glossaryDescription,
        copy.feedName,
      ];
      for (const sentence of sentences)
        expect(sentence).not.toMatch(
          /LLM|AIGC|agent|gateway|deployment|hardware|GPU|AI|部署|智能体|网关|硬件|大模型|press|媒体|sales|销售/,
        );
      expect(copy.blogLead).toContain(lang === 'zh' ? fork.name_zh : fork.name);
    }
  });
});
