import { describe, expect, it } from 'vitest';
import { queryMatcher } from './search-highlight.ts';

/** The text with matches in [brackets]. */
const marked = (query: string, text: string): string =>
  queryMatcher(query)
    .segments(text)
    .map((s) => (s.match ? `[${s.text}]` : s.text))
    .join('');

describe('queryMatcher', () => {
  it('marks Chinese by the query bigrams, merging adjacent ones', () => {
    expect(marked('私有化部署', '私有化部署大模型完整指南')).toBe('[私有化部署]大模型完整指南');
    expect(marked('私有化部署', '本地部署与私有云')).toBe('本地[部署]与[私有]云');
  });

  it('marks a single Han character query wherever it stands', () => {
    expect(marked('库', '向量数据库选型')).toBe('向量数据[库]选型');
    // Next to a bigram a lone character is not a match (the engine drops it too).
    expect(marked('多 微调', '多 LoRA 微调')).toBe('多 LoRA [微调]');
  });

  it('marks whole words by stem, never part of a word', () => {
    // `LLMs` stems to `llm`: the engine matches it, so it is marked, as a whole word.
    expect(marked('LLM', 'Deploying vLLM for LLM serving; LLMs too')).toBe('Deploying vLLM for [LLM] serving; [LLMs] too');
    expect(marked('deployment', 'Deploying vLLM, one deploy')).toBe('[Deploying] vLLM, one [deploy]');
  });

  it('treats the last word as a prefix of whole words (search as you type)', () => {
    expect(marked('kubern', 'Kubernetes and kube')).toBe('[Kubernetes] and kube');
    expect(marked('ku', 'Kubernetes')).toBe('Kubernetes');
    expect(marked('deploy vllm', 'Deploying vLLM on vllmx')).toBe('[Deploying] [vLLM] on [vllmx]');
  });

  it("marks the words a typo matched, within the engine's edit distance, when the text lacks the word typed", () => {
    expect(marked('retreival', 'Retrieval augmented generation')).toBe('[Retrieval] augmented generation');
    expect(marked('kubrnetis deploy', 'Deploy on Kubernetes')).toBe('[Deploy] on [Kubernetes]');
    // One edit below eight letters, none below four, none when the text holds the word as typed.
    expect(marked('gatway', 'LLM Gateway, gateways and getaway')).toBe('LLM [Gateway], [gateways] and getaway');
    expect(marked('rag', 'rat race')).toBe('rat race');
    expect(marked('model', 'the model and its mode')).toBe('the [model] and its mode');
  });

  it('handles mixed queries, full-width letters and text without matches', () => {
    expect(marked('Agent 编排', 'Agent 编排实践：agents')).toBe('[Agent] [编排]实践：[agents]');
    expect(marked('ＬＬＭ', 'LLM')).toBe('[LLM]');
    expect(marked('qqzxjv', 'nothing here')).toBe('nothing here');
    expect(marked('', 'nothing here')).toBe('nothing here');
  });

  it('returns the text unchanged when concatenated', () => {
    const text = 'RAG 文档切分与召回率优化：从 62% 到 91% 的实践记录 🚀';
    expect(
      queryMatcher('召回率 rag')
        .segments(text)
        .map((s) => s.text)
        .join(''),
    ).toBe(text);
  });
});
