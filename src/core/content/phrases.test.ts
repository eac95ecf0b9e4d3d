import { describe, expect, it } from 'vitest';
import { phrases, phrasesHtml } from './phrases.ts';

describe('phrases (where a Chinese headline may break)', () => {
  it('cuts between words, never inside one, and keeps punctuation with the word before it', () => {
    const parts = phrases('企业私有化部署大模型的完整指南');
    expect(parts.join('')).toBe('企业私有化部署大模型的完整指南');
    expect(parts).toContain('指南');
    expect(parts.some((p) => p.endsWith('指'))).toBe(false);
    const punctuated = phrases('量化、蒸馏与剪枝：怎么选？');
    expect(punctuated.join('')).toBe('量化、蒸馏与剪枝：怎么选？');
    expect(punctuated[0]).toBe('量化、');
    expect(punctuated.every((p) => !/^[、：？]/u.test(p))).toBe(true);
  });

  it('keeps an opening quote with the word after it, and Latin words whole', () => {
    const parts = phrases('为什么说“数据准备”是 RAG 的关键');
    expect(parts.join('')).toBe('为什么说“数据准备”是 RAG 的关键');
    expect(parts.some((p) => p.startsWith('“'))).toBe(true);
    expect(parts.some((p) => p.endsWith('“'))).toBe(false);
    expect(parts.some((p) => p.includes('RA') && !p.includes('RAG'))).toBe(false);
  });

  it('leaves text without Han characters as it is', () => {
    expect(phrases('Speculative decoding: faster LLM inference')).toEqual(['Speculative decoding: faster LLM inference']);
    expect(phrases('')).toEqual(['']);
  });

  it('marks the breaks in HTML with <wbr>, escaped, and leaves one-phrase text plain', () => {
    expect(phrasesHtml('量化、蒸馏与剪枝')).toBe(`<span class="phrases">${phrases('量化、蒸馏与剪枝').join('<wbr>')}</span>`);
    expect(phrasesHtml('量化、蒸馏与剪枝')).toMatch(/^<span class="phrases">量化、<wbr>蒸馏<wbr>/);
    expect(phrasesHtml('为什么说“数据<准备>”')).not.toContain('<准备>');
    expect(phrasesHtml('为什么说“数据<准备>”')).toContain('&lt;');
    expect(phrasesHtml('Tom & "Jerry"')).toBe('Tom &amp; &quot;Jerry&quot;');
  });
});
