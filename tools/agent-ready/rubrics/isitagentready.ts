/**
 * Cloudflare's isitagentready.com scanner as a rubric: its checks (checks/, ids as the scanner names
 * them), its score and its levels 0-5 (score.ts, the rules the scanner publishes).
 * @module
 */
import { CHECKS } from '../registry.ts';
import { LEVEL_NAMES, levelOf, scoreOf } from '../score.ts';
import type { CheckResult, Rubric, RubricSummary } from '../types.ts';

/** The scanner publishes its checks, scoring and levels for agents in one document. */
export const ISITAGENTREADY_DEFINITION = 'https://isitagentready.com/llms-full.txt';

/** The isitagentready.com rubric. */
export const ISITAGENTREADY: Rubric = {
  id: 'isitagentready',
  name: 'Cloudflare isitagentready.com',
  // The checks as the scanner listed them in September 2026 (22 ids; the five commerce checks are not
  // run here: they are neutral on any site that sells nothing).
  version: '2026-09 (22 checks; scan-site guide v3.1)',
  definition: ISITAGENTREADY_DEFINITION,
  checks: CHECKS.map((check) => ({ ...check, definition: ISITAGENTREADY_DEFINITION })),
  summarize(results: readonly CheckResult[]): RubricSummary {
    const { level, next } = levelOf(results);
    const score = scoreOf(results);
    return {
      headline: `Level ${level} (${LEVEL_NAMES[level]}), score ${score}/100${next ? `; level ${next.level} needs ${next.requirements.join('; ')}` : ''}`,
      score,
      level,
      levelName: LEVEL_NAMES[level],
      nextLevel: next,
    };
  },
};
