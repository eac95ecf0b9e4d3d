import { describe, expect, it } from 'vitest';
import { markdownToSearchText } from './markdown-text.ts';
import { tokenize } from './tokenize.ts';

const words = (markdown: string): string[] => tokenize(markdownToSearchText(markdown)).map((t) => t.word ?? t.term);

describe('markdownToSearchText', () => {
  it('keeps code text but drops fence info strings', () => {
    expect(words('```bash\nvllm serve --tensor-parallel-size 4\n```')).toEqual(['vllm', 'serve', 'tensor', 'parallel', 'size', '4']);
    expect(words('Run `kubectl get pods` first.')).toEqual(['run', 'kubectl', 'get', 'pods', 'first']);
  });

  it('keeps link and image text, drops their URLs', () => {
    expect(words('See [the gateway guide](https://example.com/docs/gateway?x=1) and ![GPU chart](/img/gpu.png).')).toEqual([
      'see',
      'gateway',
      'guide',
      'gpu',
      'chart',
    ]);
    expect(words('[guide]: https://example.com/guide "Guide"\nText')).toEqual(['text']);
    expect(words('Mail <mailto:team@example.com> or visit https://example.com/x.')).toEqual(['mail', 'visit']);
  });

  it('drops HTML tags, comments and entities', () => {
    expect(words('<div class="note">Quota&nbsp;limits</div><!-- hidden draft -->')).toEqual(['quota', 'limits']);
  });

  it('leaves Chinese text alone', () => {
    expect(markdownToSearchText('## 向量数据库选型\n\n**Milvus** 与 pgvector。')).toBe('## 向量数据库选型\n\n**Milvus** 与 pgvector。');
  });
});
