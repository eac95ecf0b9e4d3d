import { describe, expect, it } from 'vitest';
import { editDistance, lastSegment, nearAddresses, rankSuggestions, slugSimilarity, suggestionQuery } from './not-found.ts';

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

describe('nearAddresses (issue 28 stranger #4)', () => {
  const known = [
    '/blog/llm-inference-cost-optimization-zh',
    '/blog/rag-chunking-recall-optimization-zh',
    '/blog/speculative-decoding-faster-inference',
    '/solutions/bank-private-knowledge-assistant',
    '/products/llm-gateway',
    '/zh/products/llm-gateway',
    '/products/llm-platform',
    '/zh/products/llm-platform',
    '/docs/api/search-articles',
    '/docs/api/send-feedback',
  ];
  it('finds the address one typo away, in the missing path’s section and chrome', () => {
    expect(nearAddresses('/blog/llm-inference-cost-optimisation-zh', known)).toEqual(['/blog/llm-inference-cost-optimization-zh']);
    expect(nearAddresses('/zh/products/llm-gatway', known)).toEqual(['/zh/products/llm-gateway']);
    expect(nearAddresses('/products/llm-gatway/', known)).toEqual(['/products/llm-gateway']);
    expect(nearAddresses('/docs/api/search-article', known)).toEqual(['/docs/api/search-articles']);
    // The right slug in the wrong chrome is a suggestion too (the document lives at its stable path).
    expect(nearAddresses('/zh/blog/speculative-decoding-faster-inference', known)).toEqual(['/blog/speculative-decoding-faster-inference']);
  });

  it('never crosses sections and stays within one typo in five characters', () => {
    expect(nearAddresses('/blog/llm-gateway', known)).toEqual([]);
    expect(nearAddresses('/products/llm-gatewayyyy', known)).toEqual([]);
    expect(nearAddresses('/products/llm-platfrom', known)).toEqual(['/products/llm-platform']);
    expect(nearAddresses('/', known)).toEqual([]);
    expect(nearAddresses('/blog/llm-inference-cost-optimization-zh', known)).toEqual([]);
  });

  it('finds a tag or category page one typo away, in the reader’s chrome, and forgives a typo in the section', () => {
    const listings = [
      ...known,
      '/blog/tag/rag',
      '/zh/blog/tag/rag',
      '/blog/tag/私有化部署',
      '/en/blog/tag/私有化部署',
      '/blog/category/api-gateway',
      '/zh/blog/category/api-gateway',
    ];
    expect(nearAddresses('/blog/tag/ragg', listings)).toEqual(['/blog/tag/rag']);
    expect(nearAddresses('/zh/blog/tag/ragg', listings)).toEqual(['/zh/blog/tag/rag']);
    expect(nearAddresses('/blog/tags/ragg', listings)).toEqual(['/blog/tag/rag']);
    expect(nearAddresses('/zh/blog/category/api-gatway', listings)).toEqual(['/zh/blog/category/api-gateway']);
    expect(nearAddresses('/blog/categories/api-gateway', listings)).toEqual(['/blog/category/api-gateway']);
    expect(nearAddresses(`/en/blog/tag/${encodeURIComponent('私有化部')}`, listings)).toEqual(['/en/blog/tag/私有化部署']);
    // A tag's slug is not an article's: no article is offered for a tag typo, nor a tag for an article typo.
    expect(nearAddresses('/blog/tag/llm-gatway', listings)).toEqual([]);
    expect(nearAddresses('/blog/ragg', listings)).toEqual([]);
  });

  it('measures edit distance over code points and gives up past its budget', () => {
    expect(editDistance('gateway', 'gatway', 2)).toBe(1);
    expect(editDistance('网关设计', '网关设', 1)).toBe(1);
    expect(editDistance('abc', 'xyz', 2)).toBe(Number.POSITIVE_INFINITY);
    expect(editDistance('a', 'abcdef', 2)).toBe(Number.POSITIVE_INFINITY);
  });
});
