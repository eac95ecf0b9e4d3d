import { describe, expect, it } from 'vitest';
import { phrases } from './phrases.ts';

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
});
