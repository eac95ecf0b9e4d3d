import { describe, expect, it } from 'vitest';
import { lastSegment, rankSuggestions, slugSimilarity, suggestionQuery } from './not-found.ts';

describe('suggestionQuery', () => {
  it('takes the words of the last segment', () => {
    expect(suggestionQuery('/blog/vllm-deploy-gude')).toBe('vllm deploy gude');
    expect(suggestionQuery('/blog/%E7%A7%81%E6%9C%89%E5%8C%96-llm.md')).toBe('私有化 llm');
    expect(suggestionQuery('/blog/private-llm-zh/')).toBe('private llm');
  });
  it('survives a malformed escape', () => {
    expect(lastSegment('/blog/%E7%A7')).toBe('%e7%a7');
  });
});

describe('slugSimilarity', () => {
  it('is 1 for equal slugs, higher for a typo than for another slug, 0 for nothing shared', () => {
    expect(slugSimilarity('gateway', 'gateway')).toBe(1);
    expect(slugSimilarity('llm-gateway-design', 'llm-gatway-design')).toBeGreaterThan(
      slugSimilarity('llm-gateway-design', 'llm-platform-guide'),
    );
    expect(slugSimilarity('abc', 'xyz')).toBe(0);
  });
});

describe('rankSuggestions', () => {
  const hits = [
    { url: 'https://x.test/blog/llm-platform-guide', title: 'Platform', lang: 'en' as const },
    { url: 'https://x.test/blog/llm-gateway-design-zh', title: '网关设计', lang: 'zh' as const },
    { url: 'https://x.test/blog/llm-gateway-design', title: 'Gateway design', lang: 'en' as const },
  ];
  it('puts the reader’s language first, then the closest address', () => {
    expect(rankSuggestions('/blog/llm-gatway-design', hits, 'en').map((h) => h.title)).toEqual(['Gateway design', 'Platform', '网关设计']);
    expect(rankSuggestions('/blog/llm-gatway-design', hits, 'zh').map((h) => h.title)).toEqual(['网关设计', 'Gateway design', 'Platform']);
    expect(rankSuggestions('/x', hits, 'en', 1)).toHaveLength(1);
  });
});
