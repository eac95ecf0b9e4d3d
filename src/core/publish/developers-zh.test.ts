import { describe, expect, it } from 'vitest';
import { developersHub } from './developers.ts';
import { developersHubZh, TRANSLATED_HUB } from './developers-zh.ts';

describe('developersHubZh', () => {
  const hub = developersHub('https://example.test', 'Acme AI', 'AI-industry feed');
  const zh = developersHubZh(hub, '艾克米智能', 'AI 行业动态');

  it('translates the title, the summary and every section of the hub', () => {
    expect(zh.title).toBe('开发者');
    expect(zh.summary).toContain('艾克米智能');
    expect(hub.sections.map((s) => s.id).filter((id) => !TRANSLATED_HUB.sections.includes(id))).toEqual([]);
    for (const section of zh.sections) expect(section.intro, section.id).toMatch(/\p{Script=Han}/u);
    expect(zh.sections.find((s) => s.id === 'mcp')!.intro).toContain('https://example.test/mcp');
  });

  it('translates every link except the agent skills, whose words come from the skills themselves (marked English)', () => {
    const untranslated = zh.sections.flatMap((s) => s.links.filter((l) => l.lang === 'en').map((l) => `${s.id} ${l.path}`));
    expect(untranslated.every((line) => line.startsWith('skills '))).toBe(true);
    for (const link of zh.sections.flatMap((s) => s.links.filter((l) => l.lang === 'zh')))
      expect(link.description).toMatch(/\p{Script=Han}/u);
  });

  it('names the feed as company.yaml does, spaced from a Latin name only (the Chinese typography of the page)', () => {
    const intro = (feedName: string): string =>
      developersHubZh(hub, '北极光数据', feedName).sections.find((s) => s.id === 'http-api')!.intro;
    expect(intro('AI 行业动态')).toContain('读取 AI 行业动态、');
    expect(intro('数据工程动态')).toContain('读取数据工程动态、');
    expect(developersHub('https://example.test', 'Borealis Data', 'data-engineering feed').sections[0]!.intro).toContain(
      'read the data-engineering feed,',
    );
  });

  it('keeps every link target and the MCP endpoint', () => {
    expect(zh.sections.flatMap((s) => s.links.map((l) => l.path))).toEqual(hub.sections.flatMap((s) => s.links.map((l) => l.path)));
    expect(zh.mcp.endpoint).toBe(hub.mcp.endpoint);
    expect(zh.mcp.connect.map((c) => c.code)).toEqual(hub.mcp.connect.map((c) => c.code));
  });
});
