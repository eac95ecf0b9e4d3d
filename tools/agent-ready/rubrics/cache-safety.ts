/**
 * Cache safety (this checker's own rubric): whether a page that negotiates markdown can be cached without
 * serving the wrong variant. A shared cache that ignores `Vary: Accept` stores whichever variant it saw
 * first and hands it to everyone: browsers then get markdown, or agents HTML (Ghost, LibreChat and
 * react.dev hit this behind CDNs). No public scanner probes for it.
 *
 * The interleaving check asks for the same URL, with no cache-busting, as a browser and as agents do,
 * alternately and twice: against the origin alone it always passes; behind a CDN that ignores `Vary` it
 * fails on the second request. The other three check what makes a cache behave: `Vary: Accept` on both
 * variants, a `Content-Location` that names the right variant, and an alternate link to the markdown.
 * @module
 */
import { builtForOtherOrigin, type Fetched, get, looksLikeHtml, mediaType, otherOriginOf } from '../http.ts';
import { parseLinkHeader } from '../checks/link-headers.ts';
import { variesOnAccept } from '../checks/markdown.ts';
import { htmlOf } from '../html.ts';
import { gradePages, pageGrade, type PageGrade } from '../pages.ts';
import {
  BROWSER_ACCEPT,
  CLAUDE_CODE_ACCEPT,
  CURSOR_ACCEPT,
  getPage,
  isHtmlPage,
  isMarkdown,
  memo,
  negotiatedMarkdown,
  shortUrl,
} from '../site.ts';
import type { Check, CheckContext, CheckResult, Rubric, RubricSummary, Verdict } from '../types.ts';
import { CHECKER_VERSION } from '../version.ts';

/** This checker's own rubric is defined in its README (the package's, relative to it). */
const README = 'README.md#cache-safety';

/** One client in the interleaving: the `Accept` it sends and what it must get. */
export interface ClientProfile {
  name: string;
  accept: string;
  /** `html` always; `markdown` whenever the page negotiates; `consistent` = the same variant every time. */
  expects: 'html' | 'markdown' | 'consistent';
}

/** The clients interleaved, in the order of one round. */
export const INTERLEAVED_CLIENTS: readonly ClientProfile[] = [
  { name: 'markdown agent', accept: 'text/markdown', expects: 'markdown' },
  { name: 'browser', accept: BROWSER_ACCEPT, expects: 'html' },
  { name: 'Claude Code', accept: CLAUDE_CODE_ACCEPT, expects: 'consistent' },
  { name: 'browser', accept: BROWSER_ACCEPT, expects: 'html' },
  { name: 'Cursor', accept: CURSOR_ACCEPT, expects: 'markdown' },
  { name: 'browser', accept: BROWSER_ACCEPT, expects: 'html' },
];
/** Rounds of the interleaving (the issue's "twice": a cache serves its stored variant from the second round on). */
export const ROUNDS = 2;

/** The variant a response carries. */
export function variantOf(res: Fetched): 'markdown' | 'html' | 'other' {
  if (res.error || res.status !== 200) return 'other';
  const type = mediaType(res);
  if (type === 'text/html' || looksLikeHtml(res.text)) return 'html';
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  return 'other';
}

/** The interleaved run for one page (memoised: the checks below read the same run). */
function interleave(
  ctx: CheckContext,
  url: string,
): Promise<{ client: ClientProfile; res: Fetched; variant: ReturnType<typeof variantOf> }[]> {
  return memo(ctx, `interleave ${url}`, async () => {
    const seen = [];
    for (let round = 0; round < ROUNDS; round++)
      for (const client of INTERLEAVED_CLIENTS) {
        const res = await get(ctx, url, { accept: client.accept, fresh: true });
        seen.push({ client, res, variant: variantOf(res) });
      }
    return seen;
  });
}

/** The query parameter that makes a URL no cache has seen (origins ignore parameters they do not know). */
export const CACHE_BUSTER = 'agent-ready-check-fresh';

/**
 * Whether the origin negotiates markdown for a page: `Accept: text/markdown` on a cache-busted copy of the
 * URL (a cache miss reaches the origin), or any agent answered with markdown during the interleaving. The
 * busted request is the ground truth a poisoned cache cannot hide: one that stored HTML answers agents
 * with HTML on the real URL while the origin negotiates.
 */
function negotiates(ctx: CheckContext, url: string): Promise<boolean> {
  return memo(ctx, `negotiates ${url}`, async () => {
    const busted = new URL(url);
    busted.searchParams.set(CACHE_BUSTER, String(Date.now()));
    if (variantOf(await get(ctx, busted.href, { accept: 'text/markdown', fresh: true })) === 'markdown') return true;
    return (await interleave(ctx, url)).some((s) => s.client.expects !== 'html' && s.variant === 'markdown');
  });
}

async function gradeInterleaving(ctx: CheckContext, url: string): Promise<PageGrade & { evidence: string[] }> {
  const run = await interleave(ctx, url);
  const evidence = run.map(
    (s, i) =>
      `#${i + 1} ${s.client.name} (Accept: ${s.client.accept.length > 40 ? `${s.client.accept.slice(0, 40)}…` : s.client.accept}) → ${s.res.status} ${mediaType(s.res) || '-'} (${s.variant})`,
  );
  if (!(await negotiates(ctx, url))) return { ...pageGrade('na', 'no markdown variant: one representation, nothing to poison'), evidence };
  const problems: string[] = [];
  const claude = run.filter((s) => s.client.expects === 'consistent').map((s) => s.variant);
  for (const [i, s] of run.entries()) {
    const after = i > 0 ? ` after a ${run[i - 1]!.client.name} request` : '';
    if (s.client.expects === 'html' && s.variant !== 'html') problems.push(`#${i + 1} the browser got ${s.variant}${after}`);
    if (s.client.expects === 'markdown' && s.variant !== 'markdown') problems.push(`#${i + 1} ${s.client.name} got ${s.variant}${after}`);
  }
  if (new Set(claude).size > 1) problems.push(`Claude Code got ${claude.join(', then ')}`);
  return problems.length
    ? { ...pageGrade('fail', problems.slice(0, 2).join('; ')), evidence }
    : {
        ...pageGrade(
          'pass',
          `${run.length} interleaved requests: browsers always HTML, agents ${claude[0] === 'markdown' ? 'always markdown' : 'consistent'}`,
        ),
        evidence,
      };
}

async function checkInterleaved(ctx: CheckContext): Promise<Verdict> {
  // The evidence of the first page that fails (else of the first page): one page's twelve requests read best.
  let evidence: string[] = [];
  let failed = false;
  const verdict = await gradePages(
    ctx,
    async (url) => {
      const grade = await gradeInterleaving(ctx, url);
      if (!failed && (grade.status === 'fail' || evidence.length === 0)) evidence = [`${shortUrl(ctx, url)}:`, ...grade.evidence];
      failed ||= grade.status === 'fail';
      return grade;
    },
    {
      fix: 'Make every cache in front of the site key on Accept (honour Vary: Accept), or bypass the cache for negotiated pages and serve markdown only at distinct .md URLs.',
    },
  );
  return { ...verdict, evidence };
}

/** `Vary: Accept` on both variants of a negotiated page. */
async function checkVary(ctx: CheckContext): Promise<Verdict> {
  return gradePages(
    ctx,
    async (url) => {
      if (!(await negotiates(ctx, url))) return pageGrade('na', 'no markdown variant');
      const html = await getPage(ctx, url);
      const md = await negotiatedMarkdown(ctx, url);
      const missing = [!variesOnAccept(html.headers.get('vary')) && 'HTML', !variesOnAccept(md.headers.get('vary')) && 'markdown'].filter(
        Boolean,
      );
      return missing.length
        ? pageGrade('fail', `the ${missing.join(' and ')} variant has no Vary: Accept (Vary: ${html.headers.get('vary') ?? 'absent'})`)
        : pageGrade('pass', 'both variants send Vary: Accept');
    },
    { fix: 'Send Vary: Accept on both the HTML and the markdown response of every negotiated URL (append to Vary, do not overwrite it).' },
  );
}

/**
 * A `Content-Location`, when sent, names the URL of that representation (RFC 9110 §8.7): fetched without
 * negotiation, it must serve the same variant. A markdown answer that names the page URL itself tells
 * caches the markdown lives there, which is what browsers get from it.
 */
async function checkContentLocation(ctx: CheckContext): Promise<Verdict> {
  return gradePages(
    ctx,
    async (url) => {
      if (!(await negotiates(ctx, url))) return pageGrade('na', 'no markdown variant');
      const notes: string[] = [];
      for (const [variant, res] of [
        ['html', await getPage(ctx, url)],
        ['markdown', await negotiatedMarkdown(ctx, url)],
      ] as const) {
        const location = res.headers.get('content-location');
        if (!location) continue;
        const served = variantOf(await get(ctx, new URL(location, url).href));
        if (served !== variant)
          return pageGrade('fail', `the ${variant} response says Content-Location: ${location}, which serves ${served}`);
        notes.push(`${variant} → ${location}`);
      }
      return pageGrade('pass', notes.length ? `Content-Location ${notes.join(', ')}` : 'no Content-Location (nothing to contradict)');
    },
    {
      fix: 'Either omit Content-Location, or point each variant at a URL that serves it without negotiation (the markdown at its .md twin).',
    },
  );
}

/**
 * An HTML page that has markdown advertises it: `<link rel="alternate" type="text/markdown">` or the same in `Link`. A link
 * to another origin that serves no markdown fails naming that origin (`otherOrigin`): a site built for another origin
 * than the scanned one, not a caching fault.
 */
async function checkAlternate(ctx: CheckContext): Promise<Verdict> {
  const elsewhere = new Set<string>();
  let failedHere = false;
  const verdict = await gradePages(
    ctx,
    async (url) => {
      const page = await getPage(ctx, url);
      if (!isHtmlPage(page)) return pageGrade('na', 'not an HTML page');
      const inHtml = htmlOf(page).links.find((l) => l.rels.includes('alternate') && l.type === 'text/markdown')?.href;
      const inHeader = parseLinkHeader(page.headers.get('link') ?? '').links.find(
        (l) => l.rels.includes('alternate') && (l.params.type ?? '').split(';')[0]!.trim().toLowerCase() === 'text/markdown',
      )?.href;
      const href = inHtml ?? inHeader;
      if (!href) {
        if (!(await negotiates(ctx, url))) return pageGrade('na', 'no markdown to advertise');
        failedHere = true;
        return pageGrade('fail', 'markdown is negotiated, but the page does not link it (rel="alternate" type="text/markdown")');
      }
      const target = new URL(href, page.url).href;
      const res = await get(ctx, target, { accept: 'text/markdown' });
      if (isMarkdown(res)) return pageGrade('pass', `alternate ${shortUrl(ctx, target)} serves markdown`);
      const answered = res.error ?? `${res.status} ${mediaType(res)}`.trim();
      const other = otherOriginOf(ctx, target);
      if (other) {
        elsewhere.add(other);
        return pageGrade('fail', `alternate ${target} → ${answered}: it is on ${builtForOtherOrigin(ctx, other)}`);
      }
      failedHere = true;
      return pageGrade('fail', `alternate ${shortUrl(ctx, target)} → ${answered}`);
    },
    {
      fix: 'Add <link rel="alternate" type="text/markdown" href="…/page.md"> to each page (and the same Link header) pointing at a URL that serves the markdown.',
    },
  );
  if (verdict.status !== 'fail' || failedHere || elsewhere.size === 0) return verdict;
  const origins = [...elsewhere].join(', ');
  return {
    ...verdict,
    fix: `Link each page's markdown on the origin it is served at, not ${origins}: build the site for the origin it is served at.`,
    otherOrigin: origins,
  };
}

const CHECKS: Check[] = [
  {
    id: 'interleaved-requests',
    title: 'Browsers and agents each get their variant',
    scored: true,
    definition: README,
    run: checkInterleaved,
  },
  { id: 'vary-accept', title: 'Vary: Accept on both variants', scored: true, definition: README, run: checkVary },
  {
    id: 'content-location',
    title: 'Content-Location names the right variant',
    scored: true,
    definition: README,
    run: checkContentLocation,
  },
  { id: 'alternate-link', title: 'Pages link their markdown', scored: true, definition: README, run: checkAlternate },
];

/** The cache-safety rubric. */
export const CACHE_SAFETY: Rubric = {
  id: 'cache-safety',
  name: 'Cache safety (agent-ready-check)',
  version: CHECKER_VERSION,
  definition: README,
  checks: CHECKS,
  summarize(results: readonly CheckResult[]): RubricSummary {
    const failed = results.filter((r) => r.status === 'fail');
    // A failure caused by the site naming another origin (built for it) is not a caching fault: said so, not "unsafe".
    const cacheFaults = failed.filter((r) => !r.otherOrigin).map((r) => r.id);
    const elsewhere = failed.filter((r) => r.otherOrigin);
    const origins = [...new Set(elsewhere.map((r) => r.otherOrigin!))].join(', ');
    const otherOriginNote = elsewhere.length
      ? `${elsewhere.map((r) => r.id).join(', ')} fail${elsewhere.length === 1 ? 's' : ''} because the site names another origin, ${origins} (was it built for the scanned one?)`
      : '';
    if (cacheFaults.length)
      return { headline: `unsafe: ${cacheFaults.join(', ')}${otherOriginNote ? `; ${otherOriginNote}` : ''}`, safe: false };
    if (elsewhere.length) {
      const passed = results.filter((r) => r.status === 'pass').map((r) => r.id);
      return {
        headline: `not judged: ${otherOriginNote}, not because of caching${passed.length ? `; ${passed.join(', ')} pass` : ''}`,
        safe: null,
      };
    }
    // Nothing to judge (no page negotiates markdown, or none could be read) is not a verdict of safety.
    if (!results.some((r) => r.status === 'pass')) return { headline: 'not evaluated: no sampled page negotiates markdown', safe: null };
    return { headline: 'safe to cache', safe: true };
  },
};
