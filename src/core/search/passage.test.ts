import Slugger from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { bestPassage, headedSections, type MatchMarker, windowAround } from './passage.ts';

/** Marks every word that starts with one of `prefixes` (the search page's matcher decides this for real). */
function marker(...prefixes: string[]): MatchMarker {
  return (text) => {
    const pattern = new RegExp(`(\\b(?:${prefixes.join('|')})\\w*)`, 'giu');
    return text
      .split(pattern)
      .filter((part) => part !== '')
      .map((part) => ({ text: part, match: prefixes.some((p) => part.toLowerCase().startsWith(p.toLowerCase())) }));
  };
}

const TWIN = `> Index of this site for agents: http://localhost/llms.txt

# Token budgets in an LLM gateway

> Request limits do not work for LLM traffic; the gateway meters tokens.

- URL: http://localhost/blog/token-budgets
- Tags: gateway, budgets

## Why request counts are the wrong unit

A classic API gateway limits requests per minute. One request might be a 50-token classification.

## Reserve, then reconcile

Streaming answers are metered as they arrive: the budget reserves an estimate, then reconciles.

\`\`\`yaml
# not a heading: a comment in code
reserve: 4096
\`\`\`

## Reserve, then reconcile

A second section with the same heading gets the slugger's suffix.
`;

describe('headedSections', () => {
  it('gives each section under a heading the id the page gives it, skipping the title and the code', () => {
    const sections = headedSections(TWIN);
    expect(sections.map((s) => s.anchor)).toEqual([
      'why-request-counts-are-the-wrong-unit',
      'reserve-then-reconcile',
      'reserve-then-reconcile-1',
    ]);
    const slugger = new Slugger();
    expect(sections.map((s) => s.anchor)).toEqual(sections.map((s) => slugger.slug(s.heading)));
    expect(sections[1]!.text).toContain('reserve: 4096');
    expect(sections.some((s) => s.heading.includes('comment in code'))).toBe(false);
  });

  it('reads a table as its cells, without the delimiter row or a thematic break', () => {
    const [section] = headedSections(
      '## 熔断与降级\n\n| 触发条件 | 建议阈值 |\n| --- | :---: |\n| 5xx 错误率 | 60 秒窗口内超过 30% |\n\n---\n\nAfter the rule.\n',
    );
    expect(section!.text).toBe('触发条件 建议阈值 5xx 错误率 60 秒窗口内超过 30% After the rule.');
  });

  it('drops inline markup from headings as the page shows them', () => {
    expect(headedSections('## The `budget` of **one** [key](/keys)\n\ntext')[0]).toMatchObject({
      heading: 'The budget of one key',
      anchor: 'the-budget-of-one-key',
    });
  });
});

describe('quotes as the page shows them (issue 28 stranger #11)', () => {
  it('makes straight quotes typographic in prose and headings, keeping code and the anchor as written', () => {
    const [section] = headedSections('# T\n\n## 为什么说"省钱"\n\n另外两个"省钱"手段，别写 `x = "a"`：\n\n```js\nconst s = "raw";\n```\n');
    expect(section!.heading).toBe('为什么说“省钱”');
    expect(section!.anchor).toBe('为什么说省钱');
    expect(section!.text).toContain('另外两个“省钱”手段');
    expect(section!.text).toContain('x = "a"');
    expect(section!.text).toContain('const s = "raw"');
  });
});

describe('bestPassage', () => {
  it('quotes the section with the most distinct matched words and links to its heading', () => {
    const passage = bestPassage(TWIN, marker('reserve', 'reconcil'));
    expect(passage).toEqual({
      anchor: 'reserve-then-reconcile',
      heading: 'Reserve, then reconcile',
      text: expect.stringContaining('the budget reserves an estimate, then reconciles'),
    });
  });

  it('leaves out the twin header: a word only the title, summary or facts hold has no passage', () => {
    expect(bestPassage(TWIN, marker('traffic'))).toBeUndefined();
    expect(bestPassage(TWIN, marker('tags'))).toBeUndefined();
  });

  it('finds a match in a section body past the first, and in Chinese text', () => {
    expect(bestPassage(TWIN, marker('classification'))?.anchor).toBe('why-request-counts-are-the-wrong-unit');
    const zh = '# 标题\n\n## 私有化部署\n\n企业在本地机房部署大模型，需要考虑算力与合规。';
    const han: MatchMarker = (text) => text.split(/(算力)/).map((part) => ({ text: part, match: part === '算力' }));
    expect(bestPassage(zh, han)).toEqual({
      anchor: '私有化部署',
      heading: '私有化部署',
      text: '企业在本地机房部署大模型，需要考虑算力与合规。',
    });
  });
});

describe('windowAround', () => {
  const words = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');

  it('keeps a short text whole', () => {
    expect(windowAround('short text', 3)).toBe('short text');
  });

  it('cuts a long one around the match, on spaces, with an ellipsis at each cut', () => {
    const focus = words.indexOf('word40');
    const text = windowAround(words, focus, 100);
    expect(text).toMatch(/^…word\d+ .* word\d+…$/);
    expect(text).toContain('word40');
    expect(text.length).toBeLessThanOrEqual(102);
  });

  it('keeps the match within the first third of the window, whatever its size', () => {
    const focus = words.indexOf('word40');
    for (const chars of [90, 220]) {
      const text = windowAround(words, focus, chars);
      expect(text.indexOf('word40'), `${chars}`).toBeGreaterThan(chars * 0.2);
      expect(text.indexOf('word40'), `${chars}`).toBeLessThanOrEqual(chars * 0.34);
    }
  });

  it('starts at the beginning when the match is there, and never splits a surrogate pair', () => {
    expect(windowAround(words, 0, 50).startsWith('word0 ')).toBe(true);
    const emoji = '😀'.repeat(200);
    const cut = windowAround(emoji, 150, 51);
    expect(cut.replace(/…/g, '')).toMatch(/^(😀)+$/u);
  });
});
