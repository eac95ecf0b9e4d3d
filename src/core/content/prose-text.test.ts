import { describe, expect, it } from 'vitest';
import { joinCjkLines, proseText, smartQuotes } from './prose-text.ts';

describe('joinCjkLines', () => {
  it('drops the space a folded YAML line break leaves after Chinese punctuation and between ideographs', () => {
    // content/company.yaml's description_zh, as YAML folds it.
    expect(joinCjkLines('客户案例均为虚构。 在本站设定中，艾克米智能提供大模型 API 网关； 站内技术文章力求准确、可直接参考。')).toBe(
      '客户案例均为虚构。在本站设定中，艾克米智能提供大模型 API 网关；站内技术文章力求准确、可直接参考。',
    );
    expect(joinCjkLines('私有化部署 与运维')).toBe('私有化部署与运维');
    expect(joinCjkLines('数据， 模型： 人工！ 审核？')).toBe('数据，模型：人工！审核？');
    expect(joinCjkLines('AI （人工智能）')).toBe('AI（人工智能）');
  });

  it('keeps the spaces an author puts between Han and Latin, and leaves Latin text alone', () => {
    expect(joinCjkLines('私有化大模型平台、AI 智能体与大模型网关')).toBe('私有化大模型平台、AI 智能体与大模型网关');
    expect(joinCjkLines('基于 vLLM 的 Kubernetes 部署')).toBe('基于 vLLM 的 Kubernetes 部署');
    const english = 'Acme AI builds on-premise LLM platforms.  Two spaces stay: this is not Chinese.';
    expect(joinCjkLines(english)).toBe(english);
  });
});

describe('smartQuotes', () => {
  it('pairs double quotes between ideographs, as the bodies’ smart punctuation does', () => {
    expect(smartQuotes('本文介绍"规则 + 模型 + 人工"三层审核流水线')).toBe('本文介绍“规则 + 模型 + 人工”三层审核流水线');
    expect(smartQuotes('出现"全网第一""根治""国家级"之类的用语')).toBe('出现“全网第一”“根治”“国家级”之类的用语');
  });

  it('turns English quotes and apostrophes typographic', () => {
    expect(smartQuotes('Little\'s law and the "headroom" rule')).toBe('Little’s law and the “headroom” rule');
    expect(smartQuotes("a 'quoted' word")).toBe('a ‘quoted’ word');
    expect(smartQuotes('(“already” curly) stay')).toBe('(“already” curly) stay');
  });

  it('decides an unpaired double quote by what precedes it', () => {
    expect(smartQuotes('he said "yes')).toBe('he said “yes');
    expect(smartQuotes('6" screen')).toBe('6” screen');
  });
});

describe('proseText', () => {
  it('joins folded Chinese lines and makes quotes typographic in one pass', () => {
    expect(proseText('采用"主管-专家"模式。 随后')).toBe('采用“主管-专家”模式。随后');
  });
});
