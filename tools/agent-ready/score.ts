/**
 * Score and level, as the isitagentready.com scanner documents them (docs/reference/agent-discovery.md §1.2):
 * score = round(100 · pass / (pass + fail)) over scored checks, neutral excluded; the level is
 * independent of the score.
 * @module
 */
import type { CheckResult } from './types.ts';

export const LEVEL_NAMES = ['Not Ready', 'Basic Web Presence', 'Bot-Aware', 'Agent-Readable', 'Agent-Integrated', 'Agent-Native'] as const;

/** What the next level needs. */
export interface NextLevel {
  level: number;
  name: string;
  /** One line per unmet requirement, naming check ids. */
  requirements: string[];
}

export interface Report {
  url: string;
  checkedAt: string;
  /** 0-100. */
  score: number;
  level: number;
  levelName: string;
  counts: { pass: number; fail: number; neutral: number };
  nextLevel: NextLevel | null;
  checks: CheckResult[];
}

/** round(100 · pass / (pass + fail)) over scored checks; 0 when nothing was scored. */
export function scoreOf(results: readonly CheckResult[]): number {
  const scored = results.filter((r) => r.scored && r.status !== 'neutral');
  if (scored.length === 0) return 0;
  return Math.round((100 * scored.filter((r) => r.status === 'pass').length) / scored.length);
}

const L1 = ['robotsTxt', 'sitemap', 'linkHeaders'];
const L2 = ['robotsTxtAiRules', 'contentSignals'];
const L3 = ['markdownNegotiation'];
/** The four integration documents (L4: any one; L5 option b: all four). */
const INTEGRATIONS = ['mcpServerCard', 'a2aAgentCard', 'agentSkills', 'apiCatalog'];
const AUTH = ['oauthDiscovery', 'authMd'];

/**
 * The level and what the next one needs (the scanner's published rubric, isitagentready.com
 * llms-full.txt):
 * - L1: 2 of robotsTxt, sitemap, linkHeaders. L2: + robotsTxtAiRules and contentSignals.
 *   L3: + markdownNegotiation. L4: + 1 of mcpServerCard, a2aAgentCard, agentSkills, apiCatalog.
 * - L5: + 2 of 3: (a) webBotAuth; (b) all four integration documents; (c) auth metadata
 *   (oauthDiscovery or authMd). Only passing checks count: a neutral webBotAuth or a2aAgentCard
 *   (nothing published) does not.
 */
export function levelOf(results: readonly CheckResult[]): { level: number; next: NextLevel | null } {
  const passed = new Set(results.filter((r) => r.status === 'pass').map((r) => r.id));
  const has = (id: string): boolean => passed.has(id);
  const missing = (ids: string[]): string[] => ids.filter((id) => !has(id));
  const steps: { ok: boolean; needs: () => string[] }[] = [
    { ok: L1.filter(has).length >= 2, needs: () => [`2 of ${L1.join(', ')} (missing: ${missing(L1).join(', ')})`] },
    { ok: L2.every(has), needs: () => missing(L2) },
    { ok: L3.every(has), needs: () => missing(L3) },
    { ok: INTEGRATIONS.some(has), needs: () => [`1 of ${INTEGRATIONS.join(', ')}`] },
    {
      ok: [has('webBotAuth'), INTEGRATIONS.every(has), AUTH.some(has)].filter(Boolean).length >= 2,
      needs: () => [
        `2 of 3: webBotAuth${has('webBotAuth') ? ' (met)' : ''}; all of ${INTEGRATIONS.join(', ')}${INTEGRATIONS.every(has) ? ' (met)' : ` (missing: ${missing(INTEGRATIONS).join(', ')})`}; 1 of ${AUTH.join(', ')}${AUTH.some(has) ? ' (met)' : ''}`,
      ],
    },
  ];
  let level = 0;
  for (const step of steps) {
    if (!step.ok) return { level, next: { level: level + 1, name: LEVEL_NAMES[level + 1]!, requirements: step.needs() } };
    level++;
  }
  return { level, next: null };
}

/** The full report for `url`. */
export function buildReport(url: string, results: CheckResult[], now: Date = new Date()): Report {
  const { level, next } = levelOf(results);
  const count = (status: CheckResult['status']): number => results.filter((r) => r.status === status).length;
  return {
    url,
    checkedAt: now.toISOString(),
    score: scoreOf(results),
    level,
    levelName: LEVEL_NAMES[level]!,
    counts: { pass: count('pass'), fail: count('fail'), neutral: count('neutral') },
    nextLevel: next,
    checks: results,
  };
}
