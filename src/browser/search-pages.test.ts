import { describe, expect, it } from 'vitest';
import { queryMatcher } from './search-highlight.ts';
import { matchNamedPages, type NamedPage } from './search-pages.ts';

const pages: NamedPage[] = [
  {
    title: 'LLM Gateway',
    description: 'One API for every model, with budgets.',
    path: '/products/llm-gateway',
    type: 'product',
    lang: 'en',
  },
  { title: 'Agent Studio', description: 'Build AI agents with tools.', path: '/products/agent-studio', type: 'product', lang: 'en' },
  {
    title: 'AI-industry feed · API reference',
    description: 'GET /api/tweets: the feed.',
    path: '/docs/api/get-tweets',
    type: 'page',
    lang: 'en',
  },
  {
    title: 'Revoke an access or refresh token (RFC 7009) · API reference',
    description: 'POST /oauth/revoke.',
    path: '/docs/api/revoke',
    type: 'page',
    lang: 'en',
  },
  {
    title: 'Get an access token (RFC 6749) · API reference',
    description: 'POST /oauth/token.',
    path: '/docs/api/token',
    type: 'page',
    lang: 'en',
  },
];
const named = (query: string, limit = 5): string[] => matchNamedPages(pages, queryMatcher(query), query, limit).map((p) => p.path);

describe('matchNamedPages', () => {
  it('names a product by its name, a typo of it, or its description', () => {
    expect(named('gateway')).toEqual(['/products/llm-gateway']);
    expect(named('gatway')).toEqual(['/products/llm-gateway']);
    expect(named('budgets')).toEqual(['/products/llm-gateway']);
  });

  it('ranks the page whose title holds more of the query first, and keeps the limit', () => {
    expect(named('revoke token')).toEqual(['/docs/api/revoke', '/docs/api/token']);
    expect(named('revoke token', 1)).toEqual(['/docs/api/revoke']);
  });

  it('names nothing on a short common match inside a longer query (AI in a Chinese question)', () => {
    expect(named('广告法 绝对化用语 AI 生成内容标识')).toEqual([]);
    expect(named('私有化部署')).toEqual([]);
  });
});
