/**
 * The site as every rubric sees it, fetched once per scan: the sitemap's URLs, the sample of pages the
 * per-page checks read, each page's markdown twin, llms.txt and its links. Memoised per check context,
 * on top of the per-request memo in http.ts, so rubrics that ask the same question share the answer.
 * @module
 */
import { XMLParser } from 'fast-xml-parser';
import { type Fetched, get, isHttpUrl, looksLikeHtml, mediaType, sameOrigin, siteUrl } from './http.ts';
import { fetchRobots } from './checks/robots.ts';
import { MAX_SITEMAP_BYTES, SITEMAP_FALLBACK_PATHS, xmlOf } from './checks/sitemap.ts';
import type { CheckContext } from './types.ts';

/** Pages sampled for the per-page checks when `pageSample` is not set: the home page and four from the sitemap. */
export const DEFAULT_PAGE_SAMPLE = 5;
/** Child sitemaps read from a sitemap index (enough to sample pages; a site's whole index is not needed). */
export const MAX_CHILD_SITEMAPS = 3;

/** Chrome's `Accept` for a navigation: what a browser sends for a page. */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';
/** Claude Code's `Accept` (acceptmarkdown.com/status.md, 2026-04): markdown and HTML at equal weight. */
export const CLAUDE_CODE_ACCEPT = 'text/markdown, text/html, */*';
/** Cursor's `Accept` (acceptmarkdown.com/status.md, 2026-04). */
export const CURSOR_ACCEPT = 'text/markdown, text/plain;q=0.9, */*;q=0.8';

const memos = new WeakMap<CheckContext, Map<string, Promise<unknown>>>();

/** Computes `fn` once per context and key (concurrent callers share the promise). */
export function memo<T>(ctx: CheckContext, key: string, fn: () => Promise<T>): Promise<T> {
  let cache = memos.get(ctx);
  if (!cache) {
    cache = new Map();
    memos.set(ctx, cache);
  }
  let pending = cache.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = fn();
    cache.set(key, pending);
  }
  return pending;
}

/** One `<url>` of a sitemap. */
export interface SitemapEntry {
  loc: string;
  lastmod?: string;
}

/** The sitemap the site declares (robots.txt first, else the usual paths), flattened through one level of index. */
export interface Sitemap {
  /** The first sitemap document that answered 200 (null: none). */
  res: Fetched | null;
  kind: 'urlset' | 'sitemapindex' | null;
  /** Every `<url>` read (same-origin and off-origin alike). */
  entries: SitemapEntry[];
  /** Why no entries could be read, when that is the case. */
  problem?: string;
}

/** Reads sitemap XML loosely (the checks that judge validity parse it strictly). */
const xml = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, isArray: (name) => name === 'url' || name === 'sitemap' });

/** A sitemap's kind, its `<url>` entries and the child sitemaps of an index (an unreadable document: kind null). */
export function parseSitemap(text: string): { kind: Sitemap['kind']; urls: SitemapEntry[]; children: string[] } {
  try {
    const doc = xml.parse(text) as Record<string, { url?: { loc?: unknown; lastmod?: unknown }[]; sitemap?: { loc?: unknown }[] }>;
    const str = (v: unknown): string | undefined => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : undefined);
    if (doc.urlset)
      return {
        kind: 'urlset',
        urls: (doc.urlset.url ?? []).flatMap((u) => (str(u.loc) ? [{ loc: str(u.loc)!, lastmod: str(u.lastmod) }] : [])),
        children: [],
      };
    if (doc.sitemapindex)
      return {
        kind: 'sitemapindex',
        urls: [],
        children: (doc.sitemapindex.sitemap ?? []).flatMap((s) => (str(s.loc) ? [str(s.loc)!] : [])),
      };
  } catch {
    // Not XML: reported as "no entries" below; the sitemap checks say why in their own words.
  }
  return { kind: null, urls: [], children: [] };
}

/** The site's sitemap (memoised). */
export function sitemapOf(ctx: CheckContext): Promise<Sitemap> {
  return memo(ctx, 'sitemap', async () => {
    const { robots } = await fetchRobots(ctx);
    const declared = robots.sitemaps.filter((s) => isHttpUrl(s) && sameOrigin(ctx, s));
    for (const candidate of declared.length ? declared : SITEMAP_FALLBACK_PATHS) {
      const res = await get(ctx, candidate, { maxBytes: MAX_SITEMAP_BYTES });
      if (res.error || res.status !== 200) continue;
      const text = await xmlOf(ctx, res);
      if (typeof text !== 'string') return { res, kind: null, entries: [], problem: text.problem };
      const top = parseSitemap(text);
      const entries = [...top.urls];
      for (const child of top.children.filter((c) => isHttpUrl(c) && sameOrigin(ctx, c)).slice(0, MAX_CHILD_SITEMAPS)) {
        const childRes = await get(ctx, child, { maxBytes: MAX_SITEMAP_BYTES });
        const childText = childRes.status === 200 ? await xmlOf(ctx, childRes) : null;
        if (typeof childText === 'string') entries.push(...parseSitemap(childText).urls);
      }
      return { res, kind: top.kind, entries, problem: top.kind ? undefined : 'not a sitemaps.org document' };
    }
    return { res: null, kind: null, entries: [], problem: 'no sitemap found' };
  });
}

/** File extensions that are not pages (the per-page checks read HTML pages only). */
const NOT_A_PAGE = /\.(?:xml|txt|json|md|mdx|pdf|png|jpe?g|gif|svg|webp|avif|ico|css|js|zip|gz|rss|atom)$/i;

/**
 * The pages the per-page checks read: the home page, then evenly spaced same-origin pages from the
 * sitemap (deterministic for a given sitemap), `pageSample` in all.
 */
export function samplePages(ctx: CheckContext): Promise<string[]> {
  return memo(ctx, 'pages', async () => {
    const limit = Math.max(1, ctx.pageSample ?? DEFAULT_PAGE_SAMPLE);
    const home = siteUrl(ctx, '/');
    const { entries } = await sitemapOf(ctx);
    const candidates = [
      ...new Set(
        entries.map((e) => e.loc).filter((loc) => isHttpUrl(loc) && sameOrigin(ctx, loc) && !NOT_A_PAGE.test(new URL(loc).pathname)),
      ),
    ]
      .map((loc) => new URL(loc).href)
      .filter((loc) => loc !== home);
    const picked = [home];
    const wanted = Math.min(limit - 1, candidates.length);
    for (let i = 0; i < wanted; i++) picked.push(candidates[Math.floor((i * candidates.length) / wanted)]!);
    return [...new Set(picked)];
  });
}

/** The page as a browser would ask for it (Chrome's Accept). */
export function getPage(ctx: CheckContext, url: string): Promise<Fetched> {
  return get(ctx, url, { accept: BROWSER_ACCEPT });
}

/** A 200 HTML page (by media type). */
export function isHtmlPage(res: Fetched): boolean {
  return !res.error && res.status === 200 && (mediaType(res) === 'text/html' || mediaType(res) === 'application/xhtml+xml');
}

/** A 200 markdown answer: `text/markdown` (or `text/x-markdown`) and a body that is not an HTML document. */
export function isMarkdown(res: Fetched): boolean {
  return !res.error && res.status === 200 && ['text/markdown', 'text/x-markdown'].includes(mediaType(res)) && !looksLikeHtml(res.text);
}

/**
 * The URLs a page's markdown twin may live at, most common first: `<path>.md` (`/docs/a/` → `/docs/a.md`,
 * `/a.html` → `/a.md`), then `<path>/index.md`; the home page's twin is `/index.md`.
 */
export function twinCandidates(pageUrl: string): string[] {
  const url = new URL(pageUrl);
  const path = url.pathname.replace(/\/+$/, '').replace(/\.html?$/i, '');
  if (path === '') return [new URL('/index.md', url).href];
  return [new URL(`${path}.md`, url).href, new URL(`${path}/index.md`, url).href];
}

/** A page's markdown twin: the first candidate URL that answers markdown, or null (with what was tried). */
export function twinOf(ctx: CheckContext, pageUrl: string): Promise<{ url: string; res: Fetched } | { tried: Fetched[] }> {
  return memo(ctx, `twin ${pageUrl}`, async () => {
    const tried: Fetched[] = [];
    for (const candidate of twinCandidates(pageUrl)) {
      const res = await get(ctx, candidate, { accept: 'text/markdown, text/plain;q=0.5' });
      if (isMarkdown(res)) return { url: candidate, res };
      tried.push(res);
    }
    return { tried };
  });
}

/** The page asked for as markdown (`Accept: text/markdown`, what a markdown-first agent sends). */
export function negotiatedMarkdown(ctx: CheckContext, pageUrl: string): Promise<Fetched> {
  return get(ctx, pageUrl, { accept: 'text/markdown' });
}

/** A markdown link: `[label](url)`, the URL resolved against `base`. */
export interface MarkdownLink {
  label: string;
  href: string;
  url: string;
}

/** Every inline `[label](url)` link in a markdown text (image links excluded), resolved against `base`. */
export function markdownLinks(text: string, base: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  for (const match of text.matchAll(/(?<!!)\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    try {
      links.push({ label: match[1]!, href: match[2]!, url: new URL(match[2]!, base).href });
    } catch {
      // An unparsable URL is not a link an agent can follow; the link checks count only real ones.
    }
  }
  return links;
}

/**
 * Spreads a sample of at most `max` items evenly over a list (first item included), so a long
 * llms.txt is sampled across its sections rather than only at its head.
 */
export function spread<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)]!);
}

/** Fetches each URL (memoised GETs) and returns the share that answered 200, with the ones that did not. */
export async function resolveShare(
  ctx: CheckContext,
  urls: readonly string[],
): Promise<{ ok: number; total: number; broken: { url: string; status: string }[] }> {
  const broken: { url: string; status: string }[] = [];
  for (const url of urls) {
    const res = await get(ctx, url);
    if (res.error || res.status !== 200) broken.push({ url, status: res.error ?? String(res.status) });
  }
  return { ok: urls.length - broken.length, total: urls.length, broken };
}

/** A path for messages: same-origin URLs lose their origin. */
export function shortUrl(ctx: CheckContext, url: string): string {
  if (!sameOrigin(ctx, url)) return url;
  const u = new URL(url);
  return u.pathname + u.search;
}

/** `n of m` with a percentage, for reasons. */
export function share(n: number, m: number): string {
  return `${n} of ${m} (${m ? Math.round((100 * n) / m) : 0} %)`;
}
