/**
 * Per-page verdicts name every page that does not pass (bounded), not only the worst one: a reader fixes them
 * all in one round, from the text report or from --json.
 */
import { describe, expect, it } from 'vitest';
import { formatReport } from './node/cli.ts';
import { gradePages, PAGES_LISTED, pageGrade } from './pages.ts';
import { scan } from './scan.ts';
import { doc, FIXTURE_ORIGIN, goodRoutes, memoryFetch, TOOL_NAME } from './test/good-site.ts';
import type { CheckContext } from './types.ts';

const O = FIXTURE_ORIGIN;
const ctx: CheckContext = { baseUrl: O, fetch: memoryFetch(goodRoutes(O)) };

describe('gradePages evidence', () => {
  it('lists every page that does not pass, worst first, in its evidence', async () => {
    const pages = ['/a', '/b', '/c', '/d'].map((p) => `${O}${p}`);
    const notes: Record<string, [status: 'pass' | 'warn' | 'fail', note: string]> = {
      '/a': ['pass', 'fine'],
      '/b': ['warn', 'b is short'],
      '/c': ['fail', 'c lost its table'],
      '/d': ['fail', 'd lost its list'],
    };
    const verdict = await gradePages(ctx, (url) => pageGrade(...notes[new URL(url).pathname]!), { fix: 'Fix it.', pages });
    expect(verdict.status).toBe('fail');
    expect(verdict.evidence).toEqual(['FAIL /c: c lost its table', 'FAIL /d: d lost its list', 'WARN /b: b is short']);
    expect(verdict.pages).toEqual({ passed: 1, applicable: 4 });
  });

  it(`names at most ${PAGES_LISTED} pages and counts the rest`, async () => {
    const pages = Array.from({ length: PAGES_LISTED + 5 }, (_, i) => `${O}/p${i}`);
    const verdict = await gradePages(ctx, () => pageGrade('fail', 'missing'), { fix: 'Fix it.', pages });
    expect(verdict.evidence).toHaveLength(PAGES_LISTED + 1);
    expect(verdict.evidence!.at(-1)).toBe('… and 5 more page(s) that do not pass');
  });

  it('a passing verdict carries no evidence', async () => {
    const verdict = await gradePages(ctx, () => pageGrade('pass', 'fine'), { fix: 'Fix it.', pages: [`${O}/`] });
    expect(verdict.evidence).toBeUndefined();
  });
});

describe('markdown-content-parity on two broken twins', () => {
  it('the text report and the JSON report name both pages', async () => {
    const routes = goodRoutes(O);
    const thin = (title: string) =>
      doc(`---\ntitle: ${title}\n---\n\n# ${title}\n\nInstall it.\n`, { 'content-type': 'text/markdown', 'cache-control': 'max-age=60' });
    routes.set('/docs/guide.md', thin('Getting started'));
    routes.set('/docs/glossary.md', thin('Glossary'));
    const report = await scan({ baseUrl: O, fetch: memoryFetch(routes), probeWebMcp: async () => [TOOL_NAME], behaviour: true });
    const parity = report.rubrics.find((r) => r.id === 'afdocs')!.checks.find((c) => c.id === 'markdown-content-parity')!;
    expect(parity.status).toBe('fail');
    const json = JSON.parse(JSON.stringify(report)) as typeof report;
    const evidence = json.rubrics.find((r) => r.id === 'afdocs')!.checks.find((c) => c.id === 'markdown-content-parity')!.evidence!;
    expect(evidence.some((line) => line.startsWith('FAIL /docs/guide: '))).toBe(true);
    expect(evidence.some((line) => line.startsWith('FAIL /docs/glossary: '))).toBe(true);
    const text = formatReport(report);
    expect(text).toMatch(/> FAIL \/docs\/guide: \d+ of \d+/);
    expect(text).toMatch(/> FAIL \/docs\/glossary: \d+ of \d+/);
  });
});
