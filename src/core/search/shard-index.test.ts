import { describe, expect, it } from 'vitest';
import type { Document } from '../content/catalog.ts';
import { buildSearchIndex, serializeSearchIndex } from './build-index.ts';
import { decodeBase64 } from './codec.ts';
import { POSTINGS_SHARD_HEADER_BYTES, SEARCH_HEAD_FILE, SEARCH_INDEX_VERSION, type SearchIndexHead } from './index-data.ts';
import { loadSearchIndex, MAX_RESULT_LIMIT } from './search-index.ts';
import { inMemoryShardLoader, shardSearchIndex } from './shard-index.ts';
import { loadShardedSearchIndex, type ShardLoader } from './shard-reader.ts';
import { documentMaker } from '../../../tests/support/core-fixtures.ts';

const doc = documentMaker();

const DOCS: Document[] = [
  doc('vector-db-zh', '向量数据库选型：Milvus 与 pgvector', '我们对比了 Milvus、pgvector 与 Elasticsearch 三种向量数据库。', {
    category: 'rag',
  }),
  doc('knowledge-base-zh', '企业知识库问答实践', '知识库问答需要稳定的检索链路，文档切分决定了召回率。', { category: 'rag' }),
  doc('gateway-zh', 'API 网关的限流与熔断', '在大模型 API 前部署网关，实现按租户的限流、熔断与配额管理。', { category: 'api-gateway' }),
  doc('private-zh', '大模型私有化部署指南', '私有化部署 LLM 需要评估显存、GPU 数量与推理框架，例如 vLLM。', {
    category: 'private-deployment',
  }),
  doc('agents-zh', '多智能体编排实践', '用 Agent 编排工具调用与工作流，处理失败重试与人工审批。', {
    category: 'ai-agents',
    type: 'solution',
    path: '/solutions/agents-zh',
  }),
  doc('speculative', 'Speculative decoding for faster inference', 'A draft model proposes tokens and the target model verifies them.'),
  doc('deploying', 'Deploying distilled reasoning models', 'Our deployment runs `vllm serve --tensor-parallel-size 4` on H100 nodes.', {
    category: 'private-deployment',
  }),
  doc('hallucination', 'Hallucination detection in RAG answers', 'We check each answer sentence against retrieved passages.', {
    category: 'rag',
  }),
  doc('injection', 'Prompt injection defense for agents', 'Untrusted tool output can carry injected instructions.', {
    category: 'ai-agents',
  }),
  doc('rate-limits', 'Rate limiting at the LLM gateway', 'Token-based rate limiting protects shared GPU capacity; deployment quotas.', {
    category: 'api-gateway',
  }),
  doc('astral', '𠀀𠀁 emoji 😀', 'Lone surrogate \uD800 in text, deploy notes.'),
];
const QUERIES = [
  '向量数据库',
  'deploying',
  'deploy',
  'speculat',
  'hallucinaton',
  'API 网关',
  '库',
  'agent 编排',
  '𠀀𠀁',
  'rate limit gpu',
  'zzz',
  '',
];

const data = buildSearchIndex(DOCS);
const whole = loadSearchIndex(data);

type Files = Map<string, string | Uint8Array>;
const text = (files: Files, name: string): string => files.get(name) as string;
const encode = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));

/** A loader over the split files that records what it read. */
function recording(files: Files): { load: ShardLoader; reads: string[] } {
  const reads: string[] = [];
  const inner = inMemoryShardLoader(files);
  return {
    reads,
    load: (file) => {
      reads.push(file);
      return inner(file);
    },
  };
}

describe('shardSearchIndex + loadShardedSearchIndex', () => {
  it.each([
    ['default shard sizes', {}],
    ['one term and one document per shard', { postingsShardBytes: 1, storedFieldsShardBytes: 1 }],
    ['a few terms and documents per shard', { postingsShardBytes: 40, storedFieldsShardBytes: 400 }],
  ])('answers every query exactly as the unsharded index (%s)', (_name, options) => {
    const files = shardSearchIndex(data, options);
    const sharded = loadShardedSearchIndex(recording(files).load);
    for (const query of QUERIES) {
      for (const opts of [undefined, { limit: MAX_RESULT_LIMIT }, { limit: 2 }, { category: 'rag' }, { category: 'nope' }]) {
        expect(JSON.stringify(sharded.search(query, opts)), `${query} ${JSON.stringify(opts)}`).toBe(
          JSON.stringify(whole.search(query, opts)),
        );
      }
    }
    expect(sharded.documentCount).toBe(DOCS.length);
    expect(sharded.contentHash).toBe(data.hash);
  });

  it('writes a head and stored-field shards as ASCII JSON, postings shards of consecutive terms as bytes', () => {
    const files = shardSearchIndex(data, { postingsShardBytes: 40, storedFieldsShardBytes: 400 });
    const json = [...files].filter(([name]) => name.endsWith('.json'));
    for (const [, contents] of json) expect(contents).toMatch(/^[\x20-\x7e]*$/);
    const head = JSON.parse(text(files, SEARCH_HEAD_FILE)) as SearchIndexHead;
    expect(head.terms).toEqual(data.terms);
    expect(head.postingShards[0]).toBe(0);
    const postings = head.postingShards.map((_, k) => files.get(`postings-${k}.bin`));
    expect(postings.every((p) => p instanceof Uint8Array)).toBe(true);
    expect(files.size).toBe(1 + postings.length + Math.ceil(DOCS.length / head.docsPerShard));
    // The same postings bytes: the shards' streams joined are the unsharded stream.
    const streams = postings.map((p, k) => {
      const count = (head.postingShards[k + 1] ?? head.terms.length) - head.postingShards[k]!;
      return [...(p as Uint8Array).subarray(POSTINGS_SHARD_HEADER_BYTES + 4 * (count + 1))];
    });
    expect(streams.flat()).toEqual([...decodeBase64(data.post)]);
  });

  it('reads the head when created, then only the shards a query needs, once', () => {
    const files = shardSearchIndex(data, { postingsShardBytes: 1, storedFieldsShardBytes: 1 });
    const { load, reads } = recording(files);
    const sharded = loadShardedSearchIndex(load);
    expect(reads).toEqual([SEARCH_HEAD_FILE]);
    const hits = sharded.search('speculative', { limit: 1 });
    expect(hits.map((h) => h.slug)).toEqual(['speculative']);
    // One term (one postings shard: one term each here) and one hit (one document each).
    expect(reads.slice(1)).toHaveLength(2);
    expect(reads.slice(1).filter((f) => f.startsWith('postings-'))).toHaveLength(1);
    expect(reads.slice(1).filter((f) => f.startsWith('docs-'))).toHaveLength(1);
    expect(reads.length).toBeLessThan(files.size / 4);
    sharded.search('speculative', { limit: 1 });
    expect(reads).toHaveLength(3); // kept for the instance
    sharded.search('zzz');
    expect(reads).toHaveLength(3); // a term the dictionary lacks reads nothing
  });

  it('refuses a head of another version or format, and shards of another build or missing', () => {
    const files = shardSearchIndex(data);
    const load = inMemoryShardLoader(files);
    const head = JSON.parse(text(files, SEARCH_HEAD_FILE)) as SearchIndexHead;
    const withHead =
      (value: unknown): ShardLoader =>
      (file) =>
        file === SEARCH_HEAD_FILE ? encode(value) : load(file);
    expect(() => loadShardedSearchIndex(withHead({ ...head, v: SEARCH_INDEX_VERSION + 1 }))).toThrow(/version/);
    expect(() => loadShardedSearchIndex(() => new TextEncoder().encode(serializeSearchIndex(data)))).toThrow(/not a sharded index head/);
    expect(() => loadShardedSearchIndex(withHead({ ...head, category: [] }))).toThrow(/category/);
    expect(() => loadShardedSearchIndex(withHead({ ...head, postingShards: [1] }))).toThrow(/postingShards/);
    expect(() => loadShardedSearchIndex(withHead(null))).toThrow(/not an object/);

    const other = inMemoryShardLoader(shardSearchIndex(buildSearchIndex(DOCS.slice(1))));
    const mixedPostings = loadShardedSearchIndex((file) => (file.startsWith('postings-') ? other : load)(file));
    expect(() => mixedPostings.search('deploying')).toThrow(/postings-0.bin is not from the same build/);
    const mixedDocs = loadShardedSearchIndex((file) => (file.startsWith('docs-') ? other : load)(file));
    expect(() => mixedDocs.search('deploying')).toThrow(/docs-0.json is not from the same build/);
    const truncated = loadShardedSearchIndex((file) => (file.startsWith('postings-') ? load(file).subarray(0, -1) : load(file)));
    expect(() => truncated.search('deploying')).toThrow(/truncated/);
    const missing = loadShardedSearchIndex((file) => {
      if (file !== SEARCH_HEAD_FILE) throw new Error(`ENOENT ${file}`);
      return load(file);
    });
    expect(() => missing.search('deploying')).toThrow(/ENOENT/);
    expect(missing.search('zzz')).toEqual([]);
  });

  it('works on an empty index', () => {
    const files = shardSearchIndex(buildSearchIndex([]));
    expect([...files.keys()]).toEqual([SEARCH_HEAD_FILE]);
    const empty = loadShardedSearchIndex(inMemoryShardLoader(files));
    expect(empty.search('anything')).toEqual([]);
    expect(empty.documentCount).toBe(0);
  });
});
