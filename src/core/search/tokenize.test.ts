import { describe, expect, it } from 'vitest';
import { MAX_WORD_CHARS, forEachToken, isStopWord, queryOfText, termOfWord, tokenize, type Token } from './tokenize.ts';

const terms = (text: string): string[] => tokenize(text).map((t) => t.term);

describe('tokenize', () => {
  it('applies NFKC and lowercases (full-width Latin folds to ASCII)', () => {
    expect(terms('ＬＬＭ Ｈ１００')).toEqual(['llm', 'h100']);
  });

  it('turns a Han run into overlapping bigrams', () => {
    expect(tokenize('向量数据库')).toEqual<Token[]>([
      { term: '向量', kind: 'bigram', word: null },
      { term: '量数', kind: 'bigram', word: null },
      { term: '数据', kind: 'bigram', word: null },
      { term: '据库', kind: 'bigram', word: null },
    ]);
  });

  it('turns a one-character Han run into a unigram', () => {
    expect(tokenize('库')).toEqual<Token[]>([{ term: '库', kind: 'unigram', word: null }]);
    expect(terms('用 LoRA')).toEqual(['用', 'lora']);
  });

  it('splits on script boundaries before any CJK handling', () => {
    expect(terms('用LoRA微调基于RAG的问答')).toEqual(['用', 'lora', '微调', '调基', '基于', 'rag', '的问', '问答']);
  });

  it('handles astral Han characters (CJK Extension B) by code point', () => {
    expect(terms('𠀀𠀁𠀂')).toEqual(['𠀀𠀁', '𠀁𠀂']);
    expect(tokenize('𠀀')).toEqual<Token[]>([{ term: '𠀀', kind: 'unigram', word: null }]);
  });

  it('stems with Porter2, so deploying and deployment share a term', () => {
    expect(terms('deploying deployment deployed deploys')).toEqual(['deploy', 'deploy', 'deploy', 'deploy']);
    expect(termOfWord('hallucinations')).toBe(termOfWord('hallucination'));
    expect(termOfWord('speculative')).toBe('specul');
  });

  it('stems only words of three or more letters a–z', () => {
    expect(terms('Qwen2.5 h100s gpus café')).toEqual(['qwen2', '5', 'h100s', 'gpus', 'café']);
    expect(termOfWord('ab')).toBe('ab');
  });

  it('drops English stop words and keeps the rest', () => {
    expect(terms('The deployment of the models is in progress')).toEqual(['deploy', 'model', 'progress']);
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('gateway')).toBe(false);
    expect(tokenize('the and of')).toEqual([]);
  });

  it('splits command-line flags into words', () => {
    expect(terms('vllm serve --tensor-parallel-size 4')).toEqual(['vllm', 'serv', 'tensor', 'parallel', 'size', '4']);
  });

  it('exposes the unstemmed surface word of non-Han tokens', () => {
    const tokens = tokenize('Speculative 解码');
    expect(tokens[0]).toEqual({ term: 'specul', kind: 'word', word: 'speculative' });
    expect(tokens[1]).toEqual({ term: '解码', kind: 'bigram', word: null });
  });

  it('drops words longer than MAX_WORD_CHARS', () => {
    expect(terms(`keep ${'x'.repeat(MAX_WORD_CHARS + 1)} ${'y'.repeat(MAX_WORD_CHARS)}`)).toEqual(['keep', 'y'.repeat(MAX_WORD_CHARS)]);
  });

  it('returns a string term for words that name Object.prototype members', () => {
    for (const word of ['constructor', 'valueof', 'hasownproperty', 'proto']) expect(typeof termOfWord(word)).toBe('string');
  });

  it('yields nothing for punctuation, emoji and lone surrogates, and never throws', () => {
    for (const text of ['', '   ', '!!! ??? ...', '😀🚀', '\uD800', '\uDC00abc\uD800', '\u0000\u200b', '。，、！']) {
      expect(() => tokenize(text)).not.toThrow();
    }
    expect(tokenize('!!! 😀 \uD800')).toEqual([]);
    expect(terms('\uD800abc')).toEqual(['abc']);
  });

  it('tokenizes very long input', () => {
    const text = '大模型推理 inference '.repeat(1_000);
    expect(tokenize(text).length).toBe(5_000);
  });

  it('forEachToken emits the same tokens as tokenize', () => {
    const text = '私有化部署 LLM with vLLM on H100: deploying 70B models';
    const emitted: Token[] = [];
    forEachToken(text, (term, kind, word) => emitted.push({ term, kind, word }));
    expect(emitted).toEqual(tokenize(text));
  });
});

describe('queryOfText', () => {
  const QUESTION =
    'We are a regional bank planning to deploy a large language model on premise inside our own data centre because of ' +
    'regulatory requirements. What GPU sizing, inference stack and retrieval setup would you recommend, and do you have case studies?';

  it('keeps a text that fits as it is', () => {
    expect(queryOfText('vLLM on Kubernetes?', 200)).toBe('vLLM on Kubernetes?');
  });

  it('a long question keeps its words in order without stop words or repeats, the last clause included', () => {
    const query = queryOfText(QUESTION, 200);
    expect(query.length).toBeLessThanOrEqual(200);
    expect(query.startsWith('regional bank planning deploy large language model premise')).toBe(true);
    expect(query.endsWith('case studies')).toBe(true);
    expect(query.split(' ')).not.toContain('the');
    expect(queryOfText(`${QUESTION} ${QUESTION}`, 200)).toBe(query);
  });

  it('cuts at a word, or a Han run between characters, never inside a surrogate pair', () => {
    expect(queryOfText('alpha beta gamma delta', 16)).toBe('alpha beta gamma');
    expect(queryOfText('私有化部署大模型需要多少显存', 6)).toBe('私有化部署大');
    expect(queryOfText('部署𠀀𠀁𠀂', 5)).toBe('部署𠀀');
    expect(queryOfText('GPU 私有化部署大模型需要多少显存', 10)).toBe('GPU 私有化部署大');
  });
});
