import { describe, expect, it } from 'vitest';
import type { Document } from '../content/catalog.ts';
import { buildSearchIndex, type SearchIndexOptions } from './build-index.ts';
import { IndexFile, inMemoryIndexFile, type IndexFileReader } from './index-file.ts';
import { MAX_RESULT_LIMIT, loadSearchIndex } from './search-index.ts';
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
const OPTIONS = [undefined, { limit: MAX_RESULT_LIMIT }, { limit: 2 }, { category: 'rag' }, { category: 'nope' }];

/** A reader over `file` that records every range it is asked for. */
function recording(file: Uint8Array): { read: IndexFileReader; ranges: [number, number][]; bytes: () => number } {
  const inner = inMemoryIndexFile(file);
  const ranges: [number, number][] = [];
  return {
    ranges,
    read: (start, end) => {
      ranges.push([start, end]);
      return inner(start, end);
    },
    bytes: () => ranges.reduce((sum, [start, end]) => sum + end - start, 0),
  };
}

/** Which section of `file` each range lies in ('preamble', 'head' or a section name); throws on a range across sections. */
function sectionsOf(file: Uint8Array, ranges: [number, number][]): string[] {
  const { sections } = new IndexFile(inMemoryIndexFile(file));
  const bodyStart = sections.lengths[0];
  return ranges.map(([start, end]) => {
    if (end <= 12) return 'preamble';
    if (end <= bodyStart) return 'head';
    const found = Object.entries(sections).find(([, [s, e]]) => start >= s && end <= e && (start < e || s === e));
    if (found === undefined) throw new Error(`range ${start}–${end} crosses sections`);
    return found[0];
  });
}

describe('the index file, read by range', () => {
  const file = buildSearchIndex(DOCS, { termsPerBlock: 2, lexWordsPerBlock: 2 });

  it.each([
    ['default blocks', {}],
    ['one term and one word per block', { termsPerBlock: 1, lexWordsPerBlock: 1 }],
    ['three per block', { termsPerBlock: 3, lexWordsPerBlock: 3 }],
  ] as [string, SearchIndexOptions][])('answers alike whatever the block sizes (%s)', (_name, options) => {
    const reference = loadSearchIndex(buildSearchIndex(DOCS));
    const engine = loadSearchIndex(recording(buildSearchIndex(DOCS, options)).read);
    for (const query of QUERIES) {
      for (const opts of OPTIONS)
        expect(JSON.stringify(engine.search(query, opts)), `${query} ${JSON.stringify(opts)}`).toBe(
          JSON.stringify(reference.search(query, opts)),
        );
    }
    expect(reference.search('向量数据库').length).toBeGreaterThan(0);
  });

  it('reads the head when opened; a query reads the lengths, one dictionary block, its postings and its hits, once', () => {
    const { read, ranges, bytes } = recording(file);
    const engine = loadSearchIndex(read);
    // The preamble, the head, and the file's last byte (a file cut short is refused when opened).
    expect(sectionsOf(file, ranges)).toEqual(['preamble', 'head', 'stored']);
    expect(ranges[2]).toEqual([file.length - 1, file.length]);
    const headBytes = bytes();

    const opened = new IndexFile(inMemoryIndexFile(file));
    const term = opened.terms.indexOf('网关');
    const postings = opened.postingsBytes(term);
    const hits = engine.search('网关');
    expect(hits.map((h) => h.slug)).toEqual(['gateway-zh']);
    // A Han bigram: no expansion, one term. Exactly: its dictionary block, its postings, one hit's offsets and fields.
    expect(sectionsOf(file, ranges.slice(3))).toEqual(['terms', 'lengths', 'postings', 'storedAt', 'stored']);
    const [postingsRange, storedAtRange] = [ranges[5]!, ranges[6]!];
    expect(postingsRange[1] - postingsRange[0]).toBe(postings.length);
    expect(storedAtRange[1] - storedAtRange[0]).toBe(8);
    const [lengthsStart, lengthsEnd] = opened.sections.lengths;
    const block = ranges[3]![1] - ranges[3]![0];
    const stored = ranges[7]![1] - ranges[7]![0];
    expect(bytes()).toBe(headBytes + block + (lengthsEnd - lengthsStart) + postings.length + 8 + stored);

    const before = ranges.length;
    expect(engine.search('网关')).toEqual(hits);
    expect(ranges).toHaveLength(before); // kept: a warm query reads nothing
    engine.search('网关', { category: 'api-gateway' });
    expect(sectionsOf(file, ranges.slice(before))).toEqual(['category']);
    engine.search('网关', { category: 'rag' });
    expect(ranges).toHaveLength(before + 1);
  });

  it('reads the lexicon blocks a prefix spans, and all of them only for typo tolerance', () => {
    const lexBlocks = Math.ceil(new IndexFile(inMemoryIndexFile(file)).lex.length / 2);
    const prefix = recording(file);
    loadSearchIndex(prefix.read).search('speculat');
    const lexReads = (ranges: [number, number][]): number => sectionsOf(file, ranges).filter((s) => s === 'lex').length;
    expect(lexReads(prefix.ranges)).toBeGreaterThan(0);
    expect(lexReads(prefix.ranges)).toBeLessThanOrEqual(2);
    const typo = recording(file);
    expect(loadSearchIndex(typo.read).search('hallucinaton')[0]?.slug).toBe('hallucination');
    expect(lexReads(typo.ranges)).toBe(lexBlocks);
  });

  it('fails with a clear error on a file cut short or corrupt, never with a wrong answer', () => {
    const opened = new IndexFile(inMemoryIndexFile(file));
    const query =
      (bytes: Uint8Array): (() => unknown) =>
      () =>
        loadSearchIndex(bytes).search('网关');
    const withBytes = (at: number, values: number[]): Uint8Array => {
      const copy = file.slice();
      copy.set(values, at);
      return copy;
    };
    // Cut short: refused when opened, whatever part is missing.
    expect(() => loadSearchIndex(file.subarray(0, file.length - 1))).toThrow(/outside the file/);
    expect(() => loadSearchIndex(file.subarray(0, opened.sections.postings[0] + 1))).toThrow(/outside the file/);
    // A dictionary block whose first term is not the head's.
    expect(() => new IndexFile(inMemoryIndexFile(withBytes(opened.sections.terms[0] + 1, [0x21]))).terms.at(0)).toThrow(
      /terms block 0 does not match the head/,
    );
    // The first document's stored fields no longer JSON; the second's end pointing past the section.
    expect(() => loadSearchIndex(withBytes(opened.sections.stored[0], [0x7b])).search('向量数据库', { limit: MAX_RESULT_LIMIT })).toThrow(
      /stored fields of document 0: not JSON/,
    );
    expect(() =>
      loadSearchIndex(withBytes(opened.sections.storedAt[0] + 4, [0xff, 0xff, 0xff, 0x7f])).search('向量数据库', {
        limit: MAX_RESULT_LIMIT,
      }),
    ).toThrow(/outside their section/);
    // Lengths: a varint left open at the end of the section.
    expect(query(withBytes(opened.sections.lengths[1] - 1, [0x80]))).toThrow(/lengths section does not hold/);
  });
});
