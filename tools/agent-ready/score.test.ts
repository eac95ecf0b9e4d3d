/** Score and levels as the scanner documents them (docs/reference/agent-discovery.md §1.2). */
import { describe, expect, it } from 'vitest';
import { buildReport, levelOf, scoreOf } from './score.ts';
import type { CheckResult, CheckStatus } from './types.ts';

const result = (id: string, status: CheckStatus, scored = true): CheckResult => ({ id, title: id, status, reason: 'r', scored });
const passing = (...ids: string[]): CheckResult[] => ids.map((id) => result(id, 'pass'));

describe('score', () => {
  it('is pass / (pass + fail), rounded, neutral and unscored checks excluded', () => {
    const results = [
      ...Array.from({ length: 7 }, (_, i) => result(`p${i}`, 'pass')),
      ...Array.from({ length: 5 }, (_, i) => result(`f${i}`, 'fail')),
      result('n', 'neutral'),
      result('llmsTxt', 'fail', false),
    ];
    expect(scoreOf(results)).toBe(58); // developers.cloudflare.com: 7/12 → 58
    expect(scoreOf([result('a', 'pass'), result('b', 'fail'), result('c', 'fail')])).toBe(33);
    expect(scoreOf([result('a', 'neutral')])).toBe(0);
    expect(scoreOf(passing('a', 'b'))).toBe(100);
  });
});

describe('levels', () => {
  const L1 = ['robotsTxt', 'sitemap'];
  const L2 = [...L1, 'robotsTxtAiRules', 'contentSignals'];
  const L3 = [...L2, 'markdownNegotiation'];
  const L4 = [...L3, 'apiCatalog'];
  const table: [ids: string[], level: number][] = [
    [[], 0],
    [['robotsTxt'], 0],
    [['robotsTxt', 'linkHeaders'], 1],
    [L1, 1],
    [[...L1, 'robotsTxtAiRules'], 1],
    [L2, 2],
    [[...L2, 'apiCatalog'], 2],
    [L3, 3],
    [L4, 4],
    [[...L3, 'mcpServerCard'], 4],
    [[...L4, 'oauthDiscovery'], 4],
    [[...L4, 'webBotAuth'], 4],
    [[...L3, 'a2aAgentCard'], 4],
    [[...L4, 'mcpServerCard', 'agentSkills', 'authMd'], 4],
    [[...L4, 'mcpServerCard', 'agentSkills', 'a2aAgentCard'], 4],
    [[...L4, 'webBotAuth', 'oauthDiscovery'], 5],
    [[...L4, 'webBotAuth', 'authMd'], 5],
    [[...L4, 'mcpServerCard', 'agentSkills', 'a2aAgentCard', 'authMd'], 5],
    [[...L4, 'mcpServerCard', 'agentSkills', 'a2aAgentCard', 'webBotAuth'], 5],
    [[...L4, 'mcpServerCard', 'agentSkills', 'webBotAuth'], 4],
  ];
  it.each(table)('%j → L%i', (ids, level) => {
    expect(levelOf(passing(...ids)).level).toBe(level);
  });

  it('names what the next level needs', () => {
    expect(levelOf(passing('robotsTxt')).next).toEqual({
      level: 1,
      name: 'Basic Web Presence',
      requirements: ['2 of robotsTxt, sitemap, linkHeaders (missing: sitemap, linkHeaders)'],
    });
    expect(levelOf(passing(...L1, 'contentSignals')).next).toEqual({ level: 2, name: 'Bot-Aware', requirements: ['robotsTxtAiRules'] });
    expect(levelOf(passing(...L4, 'oauthDiscovery')).next!.requirements).toEqual([
      '2 of 3: webBotAuth; all of mcpServerCard, a2aAgentCard, agentSkills, apiCatalog (missing: mcpServerCard, a2aAgentCard, agentSkills); 1 of oauthDiscovery, authMd (met)',
    ]);
    expect(levelOf(passing(...L4, 'webBotAuth', 'authMd')).next).toBeNull();
  });

  it('a failing or neutral check never counts toward a level', () => {
    expect(levelOf([result('robotsTxt', 'pass'), result('sitemap', 'neutral'), result('linkHeaders', 'fail')]).level).toBe(0);
  });
});

describe('report', () => {
  it('carries counts, score, level and the checks', () => {
    const checks = [...passing('robotsTxt', 'sitemap'), result('linkHeaders', 'fail'), result('webBotAuth', 'neutral')];
    const report = buildReport('https://example.com', checks, new Date('2026-11-22T00:00:00Z'));
    expect(report).toEqual({
      url: 'https://example.com',
      checkedAt: '2026-11-22T00:00:00.000Z',
      score: 67,
      level: 1,
      levelName: 'Basic Web Presence',
      counts: { pass: 2, fail: 1, neutral: 1 },
      nextLevel: { level: 2, name: 'Bot-Aware', requirements: ['robotsTxtAiRules', 'contentSignals'] },
      checks,
    });
  });
});
