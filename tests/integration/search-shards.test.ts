/**
 * The sharded search index the functions read (generated/data/search/) answers exactly as the
 * unsharded one: same hits, same order, same scores, byte for byte, on the repository's query
 * fixtures over the built seed content and on generated corpora (bench/generate-corpus.ts) with
 * their benchmark queries, at the default shard sizes and at tiny ones (every boundary exercised).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from '../../src/core/search/build-index.ts';
import type { SearchIndexData } from '../../src/core/search/index-data.ts';
import { loadSearchIndex, MAX_RESULT_LIMIT, type SearchEngine, type SearchOptions } from '../../src/core/search/search-index.ts';
import { inMemoryShardLoader, shardSearchIndex, type ShardOptions } from '../../src/core/search/shard-index.ts';
import { loadShardedSearchIndex } from '../../src/core/search/shard-reader.ts';
import { generateBenchQueries, generateCorpus } from '../../bench/generate-corpus.ts';
import typed from '../fixtures/search-queries.json' with { type: 'json' };
import labelled from '../fixtures/search-relevance.json' with { type: 'json' };

const DATA_DIR = path.resolve(import.meta.dirname, '..', '..', 'generated', 'data');
const SHARD_DIR = path.join(DATA_DIR, 'search');

/** Every query against both engines, with the options a caller can give; the first difference fails. */
function expectSameAnswers(whole: SearchEngine, sharded: SearchEngine, queries: readonly string[], categories: readonly string[]): number {
  const variants: (SearchOptions | undefined)[] = [
    undefined,
    { limit: MAX_RESULT_LIMIT },
    { limit: 1 },
    ...categories.map((category) => ({ category })),
  ];
  let compared = 0;
  for (const query of queries) {
    for (const options of variants) {
      const want = JSON.stringify(whole.search(query, options));
      expect(JSON.stringify(sharded.search(query, options)), `${query} ${JSON.stringify(options)}`).toBe(want);
      compared++;
    }
  }
  return compared;
}

/** Queries derived from the fixtures: each as typed, each prefix of its last word, and each first half (search-as-you-type). */
function withPrefixes(queries: readonly string[]): string[] {
  return [...new Set(queries.flatMap((q) => [q, q.slice(0, Math.ceil(q.length / 2)), q.slice(0, -1), q.slice(0, 3)]))];
}

describe('sharded search index', () => {
  const wholeData = JSON.parse(readFileSync(path.join(DATA_DIR, 'search-index.json'), 'utf8')) as SearchIndexData;

  it('is what the build wrote: the split of the unsharded index, file for file', () => {
    const expected = shardSearchIndex(wholeData);
    expect(readdirSync(SHARD_DIR).sort()).toEqual([...expected.keys()].sort());
    for (const [name, contents] of expected)
      expect(readFileSync(path.join(SHARD_DIR, name)).equals(Buffer.from(contents)), name).toBe(true);
  });

  it('answers the fixture queries over the seed content byte for byte as the unsharded index', () => {
    const whole = loadSearchIndex(wholeData);
    const sharded = loadShardedSearchIndex((file) => readFileSync(path.join(SHARD_DIR, file)));
    const queries = withPrefixes([...typed.queries.map((q) => q.q), ...labelled.queries.map((q) => q.q)]);
    const compared = expectSameAnswers(whole, sharded, queries, wholeData.tables.category);
    expect(compared).toBeGreaterThan(1000);
    // Not vacuous: most queries find something.
    expect(queries.filter((q) => whole.search(q).length > 0).length).toBeGreaterThan(queries.length * 0.8);
  });

  it.each([
    ['2,000 documents, default shards', 2_000, 42, {}],
    ['600 documents, tiny shards', 600, 7, { postingsShardBytes: 200, storedFieldsShardBytes: 300 }],
  ] as [string, number, number, ShardOptions][])(
    'answers generated-corpus queries byte for byte as the unsharded index (%s)',
    (_name, n, seed, options) => {
      const corpus = generateCorpus({ n, seed });
      const data = buildSearchIndex(corpus.documents);
      const files = shardSearchIndex(JSON.parse(JSON.stringify(data)) as SearchIndexData, options);
      expect(files.size).toBeGreaterThan(4);
      const whole = loadSearchIndex(data);
      const sharded = loadShardedSearchIndex(inMemoryShardLoader(files));
      const titles = corpus.documents.filter((_, i) => i % Math.ceil(n / 60) === 0).map((d) => d.title);
      const queries = withPrefixes([...corpus.planted.map((p) => p.query), ...generateBenchQueries({ count: 120, seed }), ...titles]);
      expectSameAnswers(whole, sharded, queries, data.tables.category.slice(0, 3));
    },
    120_000,
  );
});
