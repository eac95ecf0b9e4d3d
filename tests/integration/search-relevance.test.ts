/**
 * Relevance over the seed content: labelled queries (zh, en, mixed) with their expected first
 * result, run against the index the build produced (the one /api/search loads).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEARCH_INDEX_FILE } from '../../src/core/search/index-data.ts';
import { loadSearchIndex } from '../../src/core/search/search-index.ts';
import labelled from '../fixtures/search-relevance.json' with { type: 'json' };

const engine = loadSearchIndex(readFileSync(`generated/data/search/${SEARCH_INDEX_FILE}`));

describe('search relevance on the seed content', () => {
  const queries = labelled.queries;

  it('has at least 30 labelled queries of each kind mix', () => {
    expect(queries.length).toBeGreaterThanOrEqual(30);
    for (const kind of ['zh', 'en', 'mixed']) expect(queries.filter((q) => q.kind === kind).length).toBeGreaterThanOrEqual(8);
  });

  it('puts the expected document first for at least 90% of queries', () => {
    const misses = queries
      .map((q) => ({ ...q, got: engine.search(q.q, { limit: 5 }).map((h) => h.slug) }))
      .filter((q) => q.got[0] !== q.expect);
    const hitAt1 = 1 - misses.length / queries.length;
    console.log(
      `hit@1 = ${hitAt1.toFixed(3)} over ${queries.length} queries; misses: ${misses.map((m) => `${m.q} -> ${m.got[0]} (want ${m.expect})`).join('; ') || 'none'}`,
    );
    expect(hitAt1).toBeGreaterThanOrEqual(0.9);
    // Every expected document is at least in the top 5.
    expect(misses.filter((m) => !m.got.includes(m.expect))).toEqual([]);
  });

  it('handles the mixed queries the issue names', () => {
    for (const q of ['私有化部署 LLM', 'API 网关', 'agent 编排']) expect(engine.search(q).length, q).toBeGreaterThan(0);
    expect(engine.search('私有化部署 LLM')[0]!.slug).toBe('private-llm-deployment-guide-zh');
    expect(engine.search('API 网关')[0]!.category).toBe('api-gateway');
    expect(engine.search('agent 编排')[0]!.category).toBe('ai-agents');
  });
});
