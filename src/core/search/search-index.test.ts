import { describe, expect, it } from 'vitest';
import type { Document } from '../content/catalog.ts';
import { buildSearchIndex, type DocumentTerms, type DocumentTermsCache, documentTermsKey } from './build-index.ts';
import { SEARCH_INDEX_VERSION } from './index-data.ts';
import { IndexFile, inMemoryIndexFile } from './index-file.ts';
import {
  DEFAULT_RESULT_LIMIT,
  MAX_QUERY_CHARS,
  MAX_QUERY_TOKENS,
  MAX_RESULT_LIMIT,
  loadSearchIndex,
  type SearchEngine,
} from './search-index.ts';
import { documentMaker } from '../../../tests/support/core-fixtures.ts';

const doc = documentMaker();

const FIXTURES: Document[] = [
  doc(
    'vector-db-selection-zh',
    '向量数据库选型：Milvus 与 pgvector',
    '我们对比了 Milvus、pgvector 与 Elasticsearch 三种向量数据库在召回率与延迟上的表现。',
    { category: 'rag' },
  ),
  doc('knowledge-base-zh', '企业知识库问答实践', '知识库问答需要稳定的检索链路，文档切分决定了召回率。', { category: 'rag' }),
  doc('network-zh', '数据中心网络规划', '机房网络、交换机与带宽规划，网络隔离是安全的前提。', { category: 'private-deployment' }),
  doc('api-gateway-zh', 'API 网关的限流与熔断', '在大模型 API 前部署网关，实现按租户的限流、熔断与配额管理。', { category: 'api-gateway' }),
  doc('private-deployment-zh', '大模型私有化部署指南', '私有化部署 LLM 需要评估显存、GPU 数量与推理框架，例如 vLLM。', {
    category: 'private-deployment',
  }),
  doc('agent-orchestration-zh', '多智能体编排实践', '用 Agent 编排工具调用与工作流，处理失败重试与人工审批。', { category: 'ai-agents' }),
  doc(
    'speculative-decoding',
    'Speculative decoding for faster inference',
    'A draft model proposes tokens and the target model verifies them, which speeds up inference.',
  ),
  doc(
    'deploying-models',
    'Deploying distilled reasoning models',
    'Our deployment runs on Kubernetes with `vllm serve --tensor-parallel-size 4` on H100 nodes.',
    { category: 'private-deployment' },
  ),
  doc(
    'hallucination-detection',
    'Hallucination detection in RAG answers',
    'We check each answer sentence against the retrieved passages to catch hallucinations.',
    { category: 'rag' },
  ),
  doc(
    'prompt-injection',
    'Prompt injection defense for agents',
    'Untrusted tool output can carry injected instructions; isolate it from the system prompt.',
    { category: 'ai-agents' },
  ),
  doc(
    'gateway-rate-limits',
    'Rate limiting at the LLM gateway',
    'Token-based rate limiting protects shared GPU capacity. See [the docs](https://docs.example.com/limits) for quotas.',
    { category: 'api-gateway' },
  ),
  doc('kubernetes-notes', 'Kubernetes notes', 'Notes on scheduling. Rate limiting is mentioned once here.', {
    category: 'private-deployment',
  }),
];

const file = buildSearchIndex(FIXTURES);
const engine = loadSearchIndex(file);
const slugs = (query: string, options?: Parameters<SearchEngine['search']>[1]): string[] =>
  engine.search(query, options).map((h) => h.slug);
/** Every string of a string list in the file. */
const all = (list: IndexFile['terms']): string[] => Array.from({ length: list.length }, (_, i) => list.at(i));
const opened = new IndexFile(inMemoryIndexFile(file));

describe('buildSearchIndex', () => {
  it('writes a versioned file with a content hash', () => {
    expect(new TextDecoder().decode(file.subarray(0, 4))).toBe('SIDX');
    expect(new DataView(file.buffer, file.byteOffset).getUint32(4, true)).toBe(SEARCH_INDEX_VERSION);
    expect(engine.documentCount).toBe(FIXTURES.length);
    expect(engine.contentHash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is deterministic and order-independent; the hash follows the content and the block sizes', () => {
    expect(buildSearchIndex([...FIXTURES].reverse())).toEqual(file);
    const edited = buildSearchIndex(FIXTURES.map((d, i) => (i === 0 ? { ...d, markdown: `${d.markdown} 新增一句。` } : d)));
    expect(loadSearchIndex(edited).contentHash).not.toBe(engine.contentHash);
    expect(loadSearchIndex(buildSearchIndex(FIXTURES, { termsPerBlock: 3 })).contentHash).not.toBe(engine.contentHash);
  });

  it('builds the same bytes from a terms cache, and never reuses the terms of a document that changed', () => {
    const stored = new Map<string, DocumentTerms>();
    let counted = 0;
    const termsCache: DocumentTermsCache = {
      get: (key) => stored.get(key),
      set: (key, terms) => {
        counted++;
        stored.set(key, terms);
      },
    };
    expect(buildSearchIndex(FIXTURES, { termsCache })).toEqual(file);
    expect(counted).toBe(FIXTURES.length);
    // A second build tokenizes nothing and gives the same bytes.
    expect(buildSearchIndex(FIXTURES, { termsCache })).toEqual(file);
    expect(counted).toBe(FIXTURES.length);
    // Each field the terms come from changes the key: that document alone is tokenized again, and the bytes are a fresh build's.
    const edits: ((d: Document) => Document)[] = [
      (d) => ({ ...d, markdown: `${d.markdown} 新增一句 quokkaterm。` }),
      (d) => ({ ...d, title: `${d.title} quokkatitle` }),
      (d) => ({ ...d, excerpt: `${d.excerpt} quokkaexcerpt` }),
      (d) => ({ ...d, tags: [...d.tags, 'quokkatag'] }),
    ];
    for (const edit of edits) {
      const before = counted;
      const docs = FIXTURES.map((d, i) => (i === 1 ? edit(d) : d));
      expect(buildSearchIndex(docs, { termsCache })).toEqual(buildSearchIndex(docs));
      expect(counted).toBe(before + 1);
    }
    // Tags move between fields only with a new key: ["a b"] and ["a", "b"] are different documents.
    expect(documentTermsKey({ ...FIXTURES[0]!, tags: ['a b'] })).not.toBe(documentTermsKey({ ...FIXTURES[0]!, tags: ['a', 'b'] }));
    expect(documentTermsKey({ ...FIXTURES[0]!, title: 'ab', excerpt: 'c' })).not.toBe(
      documentTermsKey({ ...FIXTURES[0]!, title: 'a', excerpt: 'bc' }),
    );
  });

  it('a terms cache with keys writes the same file as a build without one (the content hash reads every body)', () => {
    const keyOf = (d: Document): string | undefined => (d.slug === FIXTURES[0]!.slug ? 'source v1' : undefined);
    expect(buildSearchIndex(FIXTURES, { termsCache: { get: () => undefined, set: () => {}, keyOf } })).toEqual(file);
  });

  it('keeps terms and lexicon sorted, and the lexicon unstemmed', () => {
    const sorted = (a: string[]): boolean => a.every((x, i) => i === 0 || a[i - 1]! < x);
    const terms = all(opened.terms);
    const lex = all(opened.lex);
    expect(sorted(terms)).toBe(true);
    expect(sorted(lex)).toBe(true);
    expect(lex).toContain('deploying');
    expect(lex).toContain('deployment');
    expect(terms).toContain('deploy');
    expect(terms).not.toContain('deploying');
  });

  it('indexes code text but not link URLs', () => {
    expect(all(opened.terms)).toContain('tensor');
    expect(all(opened.terms)).toContain('doc'); // link text "the docs"
    expect(all(opened.lex)).not.toContain('example');
    expect(all(opened.lex)).not.toContain('https');
  });

  it('keeps astral characters and lone surrogates of stored text as they are', () => {
    const odd = doc('astral', '𠀀𠀁 emoji 😀 \uD800', 'Lone surrogate \uDC00 in text.');
    const [hit] = loadSearchIndex(buildSearchIndex([...FIXTURES, odd])).search('𠀀𠀁');
    expect(hit?.slug).toBe('astral');
    expect(hit?.title).toBe(odd.title);
  });

  it('refuses duplicate slugs', () => {
    expect(() => buildSearchIndex([FIXTURES[0]!, { ...FIXTURES[1]!, slug: FIXTURES[0]!.slug }])).toThrow(/duplicate slugs/);
  });
});

describe('loadSearchIndex', () => {
  it('rejects a file that is not a search index of this version', () => {
    const withByte = (at: number, value: number): Uint8Array => {
      const copy = file.slice();
      copy[at] = value;
      return copy;
    };
    expect(() => loadSearchIndex(withByte(0, 0x20))).toThrow(/not a search index file/);
    expect(() => loadSearchIndex(withByte(4, SEARCH_INDEX_VERSION + 1))).toThrow(/version/);
    expect(() => loadSearchIndex(new TextEncoder().encode('{"v":1}'))).toThrow(/outside the file|not a search index/);
    expect(() => loadSearchIndex(file.subarray(0, 40))).toThrow(/outside the file/);
  });

  it('works on an empty index', () => {
    const empty = loadSearchIndex(buildSearchIndex([]));
    expect(empty.search('anything')).toEqual([]);
    expect(empty.documentCount).toBe(0);
  });
});

describe('search: matching', () => {
  it('matches Han text by bigrams', () => {
    expect(slugs('向量数据库')[0]).toBe('vector-db-selection-zh');
    expect(slugs('数据库选型')[0]).toBe('vector-db-selection-zh');
  });

  it('matches across inflections through Porter2 stems', () => {
    expect(slugs('deployment')).toContain('deploying-models');
    expect(slugs('deploying')).toContain('deploying-models');
    expect(slugs('hallucinations')[0]).toBe('hallucination-detection');
  });

  it('ignores stop words', () => {
    expect(slugs('the of and')).toEqual([]);
    expect(engine.search('the deployment of models')).toEqual(engine.search('deployment models'));
  });

  it('prefix-matches the last Latin word only', () => {
    expect(slugs('speculat')[0]).toBe('speculative-decoding');
    expect(slugs('faster inference speculat')[0]).toBe('speculative-decoding');
    expect(slugs('speculat zzzz')).toEqual([]);
    expect(slugs('sp')).toEqual([]); // below the minimum prefix length
  });

  it('tolerates typos in unknown Latin words', () => {
    expect(slugs('hallucinaton')[0]).toBe('hallucination-detection');
    expect(slugs('promt injection')[0]).toBe('prompt-injection');
    expect(slugs('kubernetse')[0]).toBe('kubernetes-notes');
  });

  it('allows one edit below 8 letters and two edits from 8 letters', () => {
    expect(slugs('defnse')[0]).toBe('prompt-injection'); // 6 letters, 1 edit
    expect(slugs('dfnse')).toEqual([]); // 5 letters, 2 edits
    expect(slugs('halucnation')[0]).toBe('hallucination-detection'); // 11 letters, 2 edits
    expect(slugs('hlucnation')).toEqual([]); // 3 edits
  });

  it('uses typo tolerance only for unknown words', () => {
    // "notes" is in the index, so it does not also match "nodes" (one edit away).
    expect(slugs('notes')).toEqual(['kubernetes-notes']);
  });

  it('does not fuzzy-match Han text (网关 never matches 网络)', () => {
    expect(slugs('网关')).toEqual(['api-gateway-zh']);
    expect(slugs('网关')).not.toContain('network-zh');
  });

  it('answers mixed Chinese/English queries', () => {
    expect(slugs('私有化部署 LLM')[0]).toBe('private-deployment-zh');
    expect(slugs('API 网关')[0]).toBe('api-gateway-zh');
    expect(slugs('agent 编排')[0]).toBe('agent-orchestration-zh');
    expect(slugs('ＡＰＩ网关')[0]).toBe('api-gateway-zh');
  });

  it('expands a single Han character to the bigrams that contain it', () => {
    const hits = slugs('库');
    expect(hits).toContain('vector-db-selection-zh');
    expect(hits).toContain('knowledge-base-zh');
    expect(hits).not.toContain('network-zh');
  });

  it('matches command-line flags from code', () => {
    expect(slugs('--tensor-parallel-size')[0]).toBe('deploying-models');
  });
});

describe('search: ranking', () => {
  it('boosts title matches over body matches', () => {
    const index = loadSearchIndex(
      buildSearchIndex([
        doc('in-body', 'Notes', 'Quantization of weights. Some filler words about other topics.', { date: '2025-06-01' }),
        doc('in-title', 'Quantization', 'Some filler words about other topics. Weights.', { date: '2025-01-01' }),
      ]),
    );
    expect(index.search('quantization').map((h) => h.slug)).toEqual(['in-title', 'in-body']);
  });

  it('ranks documents matching more query tokens first (coordination)', () => {
    expect(slugs('rate limiting gateway')[0]).toBe('gateway-rate-limits');
    const hits = engine.search('rate limiting gateway');
    expect(hits.findIndex((h) => h.slug === 'kubernetes-notes')).toBeGreaterThan(0);
  });

  it('orders best first and breaks ties by date (newest first), then slug', () => {
    const twins = loadSearchIndex(
      buildSearchIndex([
        doc('older', 'Same title', 'Same body', { date: '2024-01-01' }),
        doc('newer', 'Same title', 'Same body', { date: '2025-01-01' }),
        doc('b-same-day', 'Same title', 'Same body', { date: '2025-01-01' }),
      ]),
    );
    const hits = twins.search('same title');
    expect(hits.map((h) => h.slug)).toEqual(['b-same-day', 'newer', 'older']);
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
    const all = engine.search('部署');
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
  });

  it('returns every stored field a result needs', () => {
    const [hit] = engine.search('向量数据库');
    const source = FIXTURES[0]!;
    expect(hit).toEqual({
      slug: source.slug,
      title: source.title,
      category: 'rag',
      date: source.date,
      excerpt: source.excerpt,
      type: 'article',
      path: '/blog/vector-db-selection-zh',
      lang: 'zh',
      score: expect.any(Number),
    });
  });
});

describe('search: options', () => {
  const many = loadSearchIndex(
    buildSearchIndex(Array.from({ length: 70 }, (_, i) => doc(`gpu-${i}`, `GPU note ${i}`, 'GPU capacity planning.'))),
  );

  it('limits results (default, explicit, clamped)', () => {
    expect(many.search('gpu')).toHaveLength(DEFAULT_RESULT_LIMIT);
    expect(many.search('gpu', { limit: 3 })).toHaveLength(3);
    expect(many.search('gpu', { limit: 1_000 })).toHaveLength(MAX_RESULT_LIMIT);
    expect(many.search('gpu', { limit: 0 })).toHaveLength(1);
    expect(many.search('gpu', { limit: Number.NaN })).toHaveLength(DEFAULT_RESULT_LIMIT);
  });

  it('filters by category', () => {
    const hits = engine.search('部署', { category: 'private-deployment' });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.category === 'private-deployment')).toBe(true);
    expect(engine.search('rate limiting', { category: 'api-gateway' }).map((h) => h.slug)).not.toContain('kubernetes-notes');
    expect(engine.search('部署', { category: 'no-such-category' })).toEqual([]);
  });

  it('filters by language, alone and with a category', () => {
    const all = engine.search('deployment 部署', { limit: 50 });
    expect(new Set(all.map((h) => h.lang))).toEqual(new Set(['zh', 'en']));
    for (const lang of ['zh', 'en'] as const) {
      const hits = engine.search('deployment 部署', { limit: 50, lang });
      expect(hits.map((h) => h.slug)).toEqual(all.filter((h) => h.lang === lang).map((h) => h.slug));
    }
    const zhDeploy = engine.search('部署', { category: 'private-deployment', lang: 'zh' });
    expect(zhDeploy.length).toBeGreaterThan(0);
    expect(zhDeploy.every((h) => h.lang === 'zh' && h.category === 'private-deployment')).toBe(true);
    expect(engine.search('部署', { lang: 'fr' as never })).toEqual([]);
  });
});

describe('search: limits and adversarial input', () => {
  it('never throws and returns [] when nothing is searchable', () => {
    const inputs = ['', '   ', '!!!', '。，、', '😀🚀', '\uD800', '\uDC00\uD800', '\u0000', 'the', '%00', '<script>', '\u202e'];
    for (const query of inputs) {
      expect(() => engine.search(query)).not.toThrow();
      expect(engine.search(query)).toEqual([]);
    }
  });

  it('survives non-string queries and odd options from untyped callers', () => {
    const untyped = engine as unknown as { search: (q: unknown, o?: unknown) => unknown[] };
    for (const query of [undefined, null, 42, {}, ['gpu']]) expect(untyped.search(query)).toEqual([]);
    expect(() => untyped.search('gpu', null)).not.toThrow();
    expect(() => untyped.search('gpu', { limit: '5', category: 7 })).not.toThrow();
  });

  it('cuts long queries to MAX_QUERY_CHARS', () => {
    expect(() => engine.search('向'.repeat(10_000))).not.toThrow();
    expect(() => engine.search('a'.repeat(10_000))).not.toThrow();
    expect(() => engine.search('\uD800'.repeat(10_000))).not.toThrow();
    expect(slugs(`${' '.repeat(MAX_QUERY_CHARS)}kubernetes`)).toEqual([]);
    expect(slugs(`kubernetes${' '.repeat(10_000)}`)[0]).toBe('kubernetes-notes');
  });

  it('ignores tokens beyond MAX_QUERY_TOKENS', () => {
    const filler = Array.from({ length: MAX_QUERY_TOKENS }, (_, i) => `zz${i}`).join(' ');
    expect(slugs(`${filler} kubernetes`)).toEqual([]);
    expect(slugs(`kubernetes ${filler}`)[0]).toBe('kubernetes-notes');
  });

  it('handles random strings without throwing', () => {
    let seed = 7;
    const random = (): number => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let i = 0; i < 300; i++) {
      const length = Math.floor(random() * 60);
      const query = Array.from({ length }, () => String.fromCharCode(Math.floor(random() * 0x10000))).join('');
      expect(() => engine.search(query, { limit: 5 })).not.toThrow();
    }
  });
});
