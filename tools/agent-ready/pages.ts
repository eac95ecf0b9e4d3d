/**
 * Per-page checks: grade each sampled page, then fold the grades into one verdict with a tally (the Agent
 * Readability score counts each page; AFDocs grades "all / some / none").
 * @module
 */
import { type Fetched, summary } from './http.ts';
import { isHtmlPage, samplePages, shortUrl } from './site.ts';
import type { CheckContext, CheckStatus, Verdict } from './types.ts';

/** One page's grade; `na` leaves the page out (the check does not apply to it). */
export interface PageGrade {
  status: 'pass' | 'warn' | 'fail' | 'na';
  note: string;
}

export const pageGrade = (status: PageGrade['status'], note: string): PageGrade => ({ status, note });

/**
 * The grade of a page-level HTML check when the page's answer to a browser's request is not a 200 HTML
 * page, else null. A 200 answer of another type fails: a browser asked for HTML and got markdown (a cache
 * that ignores `Vary: Accept`) or a file, which is no page (a14y http.content-type-html wants text/html).
 * An answer that is not 200 is left out with what came back: http.status-200 and its peers report it.
 */
export function notHtmlGrade(ctx: CheckContext, res: Fetched): PageGrade | null {
  if (isHtmlPage(res)) return null;
  if (!res.error && res.status === 200) return pageGrade('fail', `${summary(ctx, res)} to a browser's request: not an HTML page`);
  return pageGrade('na', `could not load the page (${summary(ctx, res)})`);
}

const RANK: Record<PageGrade['status'], number> = { na: 0, pass: 1, warn: 2, fail: 3 };

/**
 * How grades fold: `worst` (a page that fails fails the check), or `share` (AFDocs: every page passes →
 * pass, none → fail, some → warn).
 */
export type FoldMode = 'worst' | 'share';

/** Pages a failing or warning verdict lists one by one in its evidence (the rest are counted). */
export const PAGES_LISTED = 20;

/** Grades every sampled page with `grade` and folds the grades. Pages where the check does not apply are left out. */
export async function gradePages(
  ctx: CheckContext,
  grade: (url: string) => Promise<PageGrade> | PageGrade,
  options: { fix: string; mode?: FoldMode; pages?: string[] },
): Promise<Verdict> {
  const pages = options.pages ?? (await samplePages(ctx));
  const graded: { url: string; grade: PageGrade }[] = [];
  for (const url of pages) graded.push({ url, grade: await grade(url) });
  const applicable = graded.filter((g) => g.grade.status !== 'na');
  const passed = applicable.filter((g) => g.grade.status === 'pass').length;
  const tally = { passed, applicable: applicable.length };
  if (applicable.length === 0)
    return {
      status: 'neutral',
      reason: `not applicable to the ${pages.length} sampled page(s): ${graded[0]?.grade.note ?? ''}`,
      fix: options.fix,
      pages: tally,
    };
  let status: CheckStatus;
  if (options.mode === 'share')
    status = passed === applicable.length ? 'pass' : passed === 0 && !applicable.some((g) => g.grade.status === 'warn') ? 'fail' : 'warn';
  else status = (['pass', 'pass', 'warn', 'fail'] as const)[Math.max(...applicable.map((g) => RANK[g.grade.status]))]!;
  const worstFirst = [...applicable].sort((a, b) => RANK[b.grade.status] - RANK[a.grade.status]);
  const worst = worstFirst[0]!;
  const reason =
    status === 'pass'
      ? `${passed} of ${applicable.length} sampled page(s): ${applicable.length === 1 ? worst.grade.note : `e.g. ${shortUrl(ctx, applicable[0]!.url)}: ${applicable[0]!.grade.note}`}`
      : `${passed} of ${applicable.length} sampled page(s) pass; ${shortUrl(ctx, worst.url)}: ${worst.grade.note}`;
  if (status === 'pass') return { status, reason, pages: tally };
  // Every page that did not pass, worst first (the reason names one): a reader fixes them all in one round.
  const notPassing = worstFirst.filter((g) => g.grade.status !== 'pass');
  const evidence = notPassing.slice(0, PAGES_LISTED).map((g) => `${g.grade.status.toUpperCase()} ${shortUrl(ctx, g.url)}: ${g.grade.note}`);
  if (notPassing.length > PAGES_LISTED) evidence.push(`… and ${notPassing.length - PAGES_LISTED} more page(s) that do not pass`);
  return { status, reason, fix: options.fix, pages: tally, evidence };
}
