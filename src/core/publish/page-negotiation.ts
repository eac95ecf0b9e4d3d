/**
 * Serving a page URL as HTML or as its markdown twin, chosen by `Accept`. Runtime-neutral: the
 * edge function passes a `fetchPath` that reads the static build (Netlify's `context.next`).
 * @module
 */
import { appendVary } from '../kernel/handler.ts';
import { estimateTokens } from '../content/markdown.ts';
import { langTag, type Lang } from '../content/i18n.ts';
import { twinPathOf } from '../kernel/paths.ts';
import { choosePageVariant, PAGE_VARIANTS, type PageVariant } from '../kernel/negotiation.ts';
import { HttpProblem, problemResponse } from '../kernel/problem.ts';
import { wrongMethodFor } from '../kernel/respond.ts';
import { countRequest, type Usage } from '../kernel/metrics.ts';

/** Reads one path of the static build with GET. */
export type FetchPath = (path: string) => Promise<Response>;

/** HTML is revalidated on every request; hashed assets are immutable (netlify.toml). */
export const HTML_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** Extra `Link` header values for HTML responses (discovery documents), e.g. `</llms.txt>; rel="describedby"`. */
export type LinkValues = readonly string[];

function withHeaders(res: Response, edit: (h: Headers) => void, body?: BodyInit | null, status?: number): Response {
  const headers = new Headers(res.headers);
  edit(headers);
  return new Response(body === undefined ? res.body : body, {
    status: status ?? res.status,
    statusText: status ? '' : res.statusText,
    headers,
  });
}

/** Headers every markdown response carries, whether reached by URL (`/x.md`) or by negotiation. */
export function markdownHeaders(
  headers: Headers,
  markdown: string,
  canonicalPath: string | null,
  contentType = 'text/markdown; charset=utf-8',
): void {
  headers.set('content-type', contentType);
  headers.set('x-markdown-tokens', String(estimateTokens(markdown)));
  headers.delete('content-length');
  if (canonicalPath) headers.set('link', `<${canonicalPath}>; rel="canonical"; type="text/html"`);
  if (!headers.has('cache-control')) headers.set('cache-control', HTML_CACHE_CONTROL);
}

/** The page path a twin belongs to: `/index.md` -> `/`, `/blog/x.md` -> `/blog/x`. */
export function pagePathOfTwin(twinPath: string): string {
  return twinPath === '/index.md' ? '/' : twinPath.slice(0, -'.md'.length);
}

/**
 * Answers a GET for a page path (HEAD arrives as GET: kernel/handler.ts `asGet`). Returns `null`
 * when the path is not a page URL (a file), so the caller serves it untouched.
 */
export async function negotiatePage(req: Request, fetchPath: FetchPath, links: LinkValues = []): Promise<Response | null> {
  const { pathname } = new URL(req.url);

  if (pathname.endsWith('.md')) {
    const res = await fetchPath(pathname);
    if (res.status === 404 && !asksForHtml(req.headers.get('accept'))) return markdownNotFound(req, 'text/markdown');
    if (!res.ok) return res;
    const markdown = await res.text();
    return withHeaders(res, (h) => markdownHeaders(h, markdown, pagePathOfTwin(pathname)), markdown);
  }

  const twin = twinPathOf(pathname);
  if (!twin) return null;
  const variant = choosePageVariant(req.headers.get('accept'));

  if (variant === 'text/html') {
    const res = await fetchPath(pathname);
    return withHeaders(res, (h) => {
      appendVary(h, 'Accept');
      if (!res.ok) return;
      h.set('cache-control', HTML_CACHE_CONTROL);
      const twinLink = `<${twin}>; rel="alternate"; type="text/markdown"`;
      h.set('link', [twinLink, ...links, h.get('link')].filter(Boolean).join(', '));
    });
  }

  const twinRes = await fetchPath(twin);
  if (!twinRes.ok) {
    // No twin: either no such page (its 404 stands) or a page without a markdown variant.
    const page = await fetchPath(pathname);
    if (page.status === 404 && variant !== null) return markdownNotFound(req, variant);
    if (!page.ok) return withHeaders(page, (h) => appendVary(h, 'Accept'));
    return notAcceptable(['text/html']);
  }
  if (variant === null) return notAcceptable([...PAGE_VARIANTS]);

  const markdown = await twinRes.text();
  const contentType = variant === 'text/plain' ? 'text/plain; charset=utf-8' : 'text/markdown; charset=utf-8';
  return withHeaders(
    twinRes,
    (h) => {
      markdownHeaders(h, markdown, pathname, contentType);
      appendVary(h, 'Accept');
    },
    markdown,
    200,
  );
}

/** 406 listing what the URL can be served as (RFC 9110 §15.5.7). */
export function notAcceptable(available: readonly string[]): Response {
  const problem = new HttpProblem(
    406,
    'Not Acceptable',
    `This page is available as ${available.join(', ')}. Send an Accept header that allows one of them.`,
    {
      headers: { vary: 'Accept' },
      extensions: { available },
    },
  );
  return problemResponse(problem);
}

/** Whether the client names HTML as what it wants (browsers do); a bare wildcard does not count. */
function asksForHtml(accept: string | null): boolean {
  return /\btext\/html\b/i.test(accept ?? '') && choosePageVariant(accept) === 'text/html';
}

/** Words of the missing path to search for instead (`/blog/vllm-on-k8s.md` → `vllm on k8s`), or a generic query. */
export function searchHint(pathname: string): string {
  let last = pathname.replace(/\.md$/, '').replace(/\/+$/, '');
  last = last.slice(last.lastIndexOf('/') + 1);
  try {
    last = decodeURIComponent(last);
  } catch {
    // a malformed escape: search the raw segment
  }
  const words = last
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 100);
  return words === '' ? 'agents' : words;
}

/** The words of the markdown error answers, in the language of the address's chrome (`/zh/…` Chinese, as its HTML 404 page). */
const ERROR_TEXT: Record<
  Lang,
  {
    notFound(pathname: string): string;
    badRequest(pathname: string): string;
    indexes: string;
    search: string;
    sitemap: string;
    home: string;
  }
> = {
  en: {
    notFound: (pathname) => `# Not found\n\nThere is no page at \`${pathname}\` on this site.`,
    badRequest: (pathname) =>
      `# Bad request\n\nThe address \`${pathname}\` is not a valid URL: a \`%\` must start an escape of two hexadecimal digits (RFC 3986 §2.1) that spell UTF-8.`,
    indexes: 'what this site offers and where to find it (per language: ',
    search: 'Search: `GET /api/search?q=<words>` answers JSON hits with their page URLs ([example]',
    sitemap: 'every page (append `.md` to a page URL for its markdown)',
    home: '[Home](/)',
  },
  zh: {
    notFound: (pathname) => `# 页面不存在\n\n本站没有 \`${pathname}\` 这个页面。`,
    badRequest: (pathname) =>
      `# 请求有误\n\n地址 \`${pathname}\` 不是有效的 URL：\`%\` 后面必须是两位十六进制数字（RFC 3986 §2.1），并组成 UTF-8 字符。`,
    indexes: '本站提供什么、在哪里找（分语言：',
    search: '搜索：`GET /api/search?q=<关键词>` 返回 JSON 结果及页面地址（[示例]',
    sitemap: '全部页面（页面地址后加 `.md` 即得其 markdown）',
    home: '[中文首页](/zh)',
  },
};

/** The language of an address's chrome: Chinese under `/zh`, else English (as {@link notFoundPageOf}). */
const langOfPath = (pathname: string): Lang => (notFoundPageOf(pathname) === '/zh/404' ? 'zh' : 'en');

/**
 * The 404 for a client that asked for markdown (or plain text): a short text pointing at the
 * site's indexes and the search API (with a query made of the missing path's words), instead of
 * the HTML 404 page; in Chinese under `/zh`, as the HTML 404 page there.
 */
export function markdownNotFound(req: Request, variant: Exclude<PageVariant, 'text/html'>): Response {
  const { pathname } = new URL(req.url);
  const lang = langOfPath(pathname);
  return markdownError(404, ERROR_TEXT[lang].notFound(pathname), pathname, variant, lang);
}

/** A page error for an agent: what happened, then where to look instead (the indexes, a search made of the path's words). */
function markdownError(
  status: number,
  lead: string,
  pathname: string,
  variant: Exclude<PageVariant, 'text/html'>,
  lang: Lang = langOfPath(pathname),
): Response {
  const t = ERROR_TEXT[lang];
  const [colon, comma, close] = lang === 'zh' ? ['：', '、', '）'] : [': ', ', ', ')'];
  // Relative links: behind a proxy (and in the local emulation) the request URL's host is not the site's.
  const markdown = `${lead}

- [llms.txt](/llms.txt)${colon}${t.indexes}[/en/llms.txt](/en/llms.txt)${comma}[/zh/llms.txt](/zh/llms.txt)${close}
- ${t.search}(/api/search?q=${encodeURIComponent(searchHint(pathname))})${close}
- [sitemap.xml](/sitemap.xml)${colon}${t.sitemap}
- ${t.home}
`;
  const headers = new Headers({ vary: 'Accept', 'cache-control': 'no-store', 'content-language': langTag(lang) });
  markdownHeaders(headers, markdown, null, `${variant}; charset=utf-8`);
  return new Response(markdown, { status, headers });
}

/**
 * Whether a path holds a `%` that does not start an escape of UTF-8 (`/blog/%ZZ`, `/%E0%A4%A`): not URL syntax
 * (RFC 3986 §2.1), so no page has that address, and decoding it throws.
 */
export function isMalformedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/**
 * The 404 page of an address's chrome: `/zh/404` under `/zh`, else `/404`. netlify.toml's 404 rules say the same for
 * well-formed addresses (scripts/runtime/routes.test.ts checks they agree); this is for the answers that no rule
 * reaches, such as a malformed percent-escape.
 */
export function notFoundPageOf(pathname: string): '/zh/404' | '/404' {
  return pathname === '/zh' || pathname.startsWith('/zh/') ? '/zh/404' : '/404';
}

/**
 * The answer to a page address with a malformed percent-escape: 400, in the form of the site's other page
 * errors. A browser gets the 404 page of the address's chrome (`/zh/…` the Chinese one: a search box and
 * suggestions, the address names no page), an agent that asked for markdown or plain text a short text.
 */
export async function malformedPathAnswer(req: Request, fetchPath: FetchPath): Promise<Response> {
  const { pathname } = new URL(req.url);
  const accept = req.headers.get('accept');
  const variant = pathname.endsWith('.md') && !asksForHtml(accept) ? 'text/markdown' : choosePageVariant(accept);
  const lead = ERROR_TEXT[langOfPath(pathname)].badRequest(pathname);
  if (variant === 'text/markdown' || variant === 'text/plain') return markdownError(400, lead, pathname, variant);
  const page = await fetchPath(notFoundPageOf(pathname));
  if (!page.ok) return markdownError(400, lead, pathname, 'text/plain');
  return withHeaders(
    page,
    (h) => {
      h.set('cache-control', 'no-store');
      h.delete('etag');
      appendVary(h, 'Accept');
    },
    undefined,
    400,
  );
}

/** Static files and pages only read: a 405 naming GET, HEAD and OPTIONS (the CDN would answer a POST with the page). */
export function staticMethodNotAllowed(req: Request): Response {
  return problemResponse(wrongMethodFor(['GET']), new URL(req.url).pathname);
}

/** Files fetched as parts of a page (images, fonts, styles, scripts): not counted as requests. */
const ASSET_PATH = /\.(?:png|jpe?g|gif|webp|avif|svg|ico|woff2?|css|js|map)$/i;

/**
 * Counts a request the edge saw (kernel/metrics.ts): its audience under the `pages` surface, and the
 * documents agents read by kind (`llms.txt`, `llms-full.txt`, a markdown twin). A request passed on
 * to the CDN (`res` undefined) counts as answered; assets count nothing.
 */
export function countPageRequest(usage: Pick<Usage, 'count'>, req: Request, res: Response | undefined): void {
  const { pathname } = new URL(req.url);
  if (ASSET_PATH.test(pathname)) return;
  countRequest(usage, 'pages', req, res?.status ?? 200);
  if (pathname.endsWith('/llms.txt')) usage.count('documents.llms.txt');
  else if (pathname.endsWith('/llms-full.txt')) usage.count('documents.llms-full.txt');
  else if (pathname.endsWith('.md') || (res?.headers.get('content-type') ?? '').startsWith('text/markdown')) usage.count('documents.twin');
}
