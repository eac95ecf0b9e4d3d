/** The README lists every check of every rubric with its source id, and every rubric with the version the checks follow. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUBRICS } from './scan.ts';

const README = readFileSync(path.join(import.meta.dirname, 'README.md'), 'utf8');

describe('README.md', () => {
  it.each(RUBRICS.map((r) => [r.id, r] as const))('%s: every check id and the rubric version', (_id, rubric) => {
    const section = README.slice(README.indexOf(`### ${rubric.id}\n`));
    expect(section.length, `a "### ${rubric.id}" section`).toBeLessThan(README.length);
    const body = section.slice(0, section.indexOf('\n### ', 5) > 0 ? section.indexOf('\n### ', 5) : undefined);
    for (const check of rubric.checks) expect(body, `${rubric.id} ${check.id}`).toContain(`| \`${check.id}\``);
    expect(README).toContain(rubric.version);
  });
});
