/**
 * The Agent-Friendly Documentation Spec (AFDocs, agentdocsspec.com, v0.4.0 of 2026-04-21; the rubric
 * behind Fern's Agent Score and the `afdocs` tool): 22 checks in 7 categories, each pass / warn / fail,
 * dependent checks skipped when their prerequisite fails. Thresholds are the spec's defaults.
 *
 * Where the spec leaves the method to the implementation, this one: samples the pages from the sitemap
 * (home + `--pages`), samples up to 50 same-origin llms.txt links (off-origin links are not fetched), and
 * converts HTML to "what an agent sees" by keeping the visible text (scripts, styles, `<noscript>` and
 * `<template>` removed) rather than running a full HTML-to-markdown converter: sizes are therefore a
 * lower bound of a Turndown conversion.
 * @module
 */
import { get, isHttpUrl, looksLikeHtml, mediaType, sameOrigin, summary } from '../http.ts';
import { elementText, headingsIn, htmlOf } from '../html.ts';
import { gradePages, notHtmlGrade, pageGrade, type PageGrade } from '../pages.ts';
import {
  getPage,
  isHtmlPage,
  isMarkdown,
  markdownLinks,
  memo,
  negotiatedMarkdown,
  resolveShare,
  samplePages,
  share,
  shortUrl,
  sitemapOf,
  spread,
  twinOf,
} from '../site.ts';
import {
  type Check,
  type CheckContext,
  type CheckResult,
  fail,
  neutral,
  pass,
  type Rubric,
  type RubricSummary,
  type Verdict,
  warn,
} from '../types.ts';

const SPEC = 'https://agentdocsspec.com/spec/';
const def = (id: string): string => `${SPEC}#${id}`;

/** Size thresholds of the spec (characters): pass under the first, warn up to the second, fail above. */
export const SIZE_PASS_CHARS = 50_000;
export const SIZE_FAIL_CHARS = 100_000;
/** llms.txt links sampled for links-resolve. */
export const AFDOCS_LINKS_SAMPLED = 50;
/** Non-markdown llms.txt links tried for a `.md` variant (links-markdown's warn). */
const VARIANT_PROBES = 5;

/** Grades a size against the spec's two thresholds. */
function sizeGrade(chars: number, what: string): PageGrade {
  if (chars <= SIZE_PASS_CHARS) return pageGrade('pass', `${what} ${chars} characters`);
  if (chars <= SIZE_FAIL_CHARS) return pageGrade('warn', `${what} ${chars} characters (50,000-100,000: truncated on some platforms)`);
  return pageGrade('fail', `${what} ${chars} characters (over 100,000: truncated by Claude Code and others)`);
}

const toVerdict = (g: PageGrade, fix: string): Verdict =>
  g.status === 'pass'
    ? pass(g.note)
    : g.status === 'warn'
      ? warn(g.note, fix)
      : g.status === 'fail'
        ? fail(g.note, fix)
        : neutral(g.note, fix);

/** Every llms.txt the spec's discovery finds: `{origin}/llms.txt` and `{origin}/docs/llms.txt`. */
function discoveredLlms(ctx: CheckContext) {
  return memo(ctx, 'afdocs llms', async () => {
    const found: { url: string; text: string }[] = [];
    const crossHost: string[] = [];
    const tried: string[] = [];
    for (const path of ['/llms.txt', '/docs/llms.txt']) {
      const res = await get(ctx, path);
      if (res.offOrigin) crossHost.push(`${path} → ${res.offOrigin}`);
      else if (
        !res.error &&
        res.status === 200 &&
        mediaType(res).startsWith('text/') &&
        mediaType(res) !== 'text/html' &&
        !looksLikeHtml(res.text) &&
        res.text.trim()
      )
        found.push({ url: res.url, text: res.text });
      else tried.push(summary(ctx, res));
    }
    return { found, crossHost, tried };
  });
}

const SKIP_LLMS = neutral('skipped: llms-txt-exists did not pass', 'Publish /llms.txt first.');

/** Nested indexes fetched for coverage at most (a root that links more is read up to here, and the reason says so). */
export const AFDOCS_NESTED_INDEXES = 100;

/** Is a URL a `.txt` file (an llms index or aggregate, never a page: the afdocs tool's rule)? */
const isTxtUrl = (url: string): boolean => /\.txt$/i.test(new URL(url).pathname);

/** The page links the llms.txt files give an agent that follows them as the afdocs tool does. */
interface LlmsPageLinks {
  /** Same-origin page URLs linked by a discovered llms.txt or by a nested index it links. */
  pages: string[];
  /** Same-origin `.txt` links of a discovered llms.txt that were read as nested indexes. */
  walked: string[];
  /** Nested links that did not answer a non-HTML text (URL and what came back). */
  unreadable: string[];
  /** `.txt` links inside a nested index: not followed; their folders' sitemap pages are left out of coverage. */
  omitted: string[];
  /** Nested links beyond {@link AFDOCS_NESTED_INDEXES}, not fetched. */
  notFetched: number;
}

/**
 * Progressive disclosure as the afdocs tool reads it (`walkAggregateLinks` in its get-page-urls.ts): a
 * same-origin `.txt` link of llms.txt is a nested index (a per-language or per-product llms.txt, or an
 * aggregate file), fetched and read for its page links, one level deep; a `.txt` link inside a nested
 * index is not followed but recorded, and the sitemap pages in its folder are left out of coverage.
 */
function llmsPageLinks(ctx: CheckContext): Promise<LlmsPageLinks> {
  return memo(ctx, 'afdocs llms pages', async () => {
    const { found } = await discoveredLlms(ctx);
    const own = new Set(found.map((f) => f.url));
    const out: LlmsPageLinks = { pages: [], walked: [], unreadable: [], omitted: [], notFetched: 0 };
    const nested: string[] = [];
    for (const file of found)
      for (const link of markdownLinks(file.text, file.url)) {
        const url = link.url.split('#')[0]!;
        if (!sameOrigin(ctx, url)) continue;
        if (!isTxtUrl(url)) out.pages.push(url);
        else if (!own.has(url) && !nested.includes(url)) nested.push(url);
      }
    out.notFetched = Math.max(0, nested.length - AFDOCS_NESTED_INDEXES);
    for (const url of nested.slice(0, AFDOCS_NESTED_INDEXES)) {
      const res = await get(ctx, url);
      const type = mediaType(res);
      if (
        res.error ||
        res.status !== 200 ||
        !type.startsWith('text/') ||
        type === 'text/html' ||
        looksLikeHtml(res.text) ||
        !res.text.trim()
      ) {
        out.unreadable.push(`${shortUrl(ctx, url)} → ${res.error ?? `${res.status} ${type || 'no Content-Type'}`}`);
        continue;
      }
      out.walked.push(url);
      for (const link of markdownLinks(res.text, res.url)) {
        const sub = link.url.split('#')[0]!;
        if (!sameOrigin(ctx, sub)) continue;
        if (isTxtUrl(sub)) {
          if (!out.omitted.includes(sub)) out.omitted.push(sub);
        } else out.pages.push(sub);
      }
    }
    return out;
  });
}

/** Runs `fn` on every discovered llms.txt and keeps the worst grade; skipped when none exists. */
function onEachLlms(fix: string, fn: (ctx: CheckContext, file: { url: string; text: string }) => Promise<PageGrade> | PageGrade) {
  return async (ctx: CheckContext): Promise<Verdict> => {
    const { found } = await discoveredLlms(ctx);
    if (!found.length) return SKIP_LLMS;
    const grades: PageGrade[] = [];
    for (const file of found) grades.push(await fn(ctx, file));
    const order = ['fail', 'warn', 'pass', 'na'];
    const worst = [...grades].sort((a, b) => order.indexOf(a.status) - order.indexOf(b.status))[0]!;
    return toVerdict(worst, fix);
  };
}

/** Whether the site serves markdown at all (the prerequisite of the markdown checks). */
async function servesMarkdown(ctx: CheckContext): Promise<boolean> {
  for (const url of await samplePages(ctx)) {
    if ('res' in (await twinOf(ctx, url))) return true;
    if (isMarkdown(await negotiatedMarkdown(ctx, url))) return true;
  }
  return false;
}

/** The markdown a page serves: its `.md` twin, else what `Accept: text/markdown` returns. */
async function markdownOf(
  ctx: CheckContext,
  url: string,
): Promise<{ text: string; where: string; res: Awaited<ReturnType<typeof get>> } | null> {
  const twin = await twinOf(ctx, url);
  if ('res' in twin) return { text: twin.res.text, where: shortUrl(ctx, twin.url), res: twin.res };
  const negotiated = await negotiatedMarkdown(ctx, url);
  return isMarkdown(negotiated) ? { text: negotiated.text, where: `${shortUrl(ctx, url)} (Accept: text/markdown)`, res: negotiated } : null;
}

const SKIP_MARKDOWN = neutral(
  'skipped: the site serves no markdown (markdown-url-support and content-negotiation fail)',
  'Serve markdown first.',
);

/** The first CommonMark fence left open in a markdown text (the opening line), or null. */
export function unclosedFence(markdown: string): { line: number; marker: string } | null {
  let open: { char: string; length: number; line: number; marker: string } | null = null;
  markdown.split(/\r?\n/).forEach((text, i) => {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(text);
    if (!m) return;
    const marker = m[1]!;
    if (!open) {
      if (marker[0] === '`' && m[2]!.includes('`')) return; // a backtick fence's info string may not contain a backtick
      open = { char: marker[0]!, length: marker.length, line: i + 1, marker };
    } else if (marker[0] === open.char && marker.length >= open.length && !m[2]!.trim()) open = null;
  });
  return open ? { line: (open as { line: number }).line, marker: (open as { marker: string }).marker } : null;
}

/** Lower-case words only: what content parity compares. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Directive hrefs: a link to an llms.txt (the spec's "documentation index"). */
const isDirectiveHref = (href: string): boolean => /(?:^|\/)llms(?:-full)?\.txt(?:[?#].*)?$/i.test(href);

/** Hosts of the SSO providers the spec names (an auth redirect to one of them gates the page). */
const SSO_HOSTS = /(?:^|\.)(?:okta\.com|auth0\.com|login\.microsoftonline\.com|accounts\.google\.com|onelogin\.com)$/i;

const CHECKS: Check[] = [
  // 1. Content discoverability
  {
    id: 'llms-txt-exists',
    title: 'llms.txt exists',
    scored: true,
    definition: def('llms-txt-exists'),
    run: async (ctx) => {
      const { found, crossHost, tried } = await discoveredLlms(ctx);
      const fix = 'Create /llms.txt with an H1, a blockquote summary and markdown links to your key pages.';
      if (found.length) return pass(`found at ${found.map((f) => shortUrl(ctx, f.url)).join(' and ')}`);
      if (crossHost.length)
        return warn(
          `only reachable through a cross-host redirect (${crossHost.join('; ')})`,
          'Serve llms.txt from the docs host itself or redirect on the same host.',
        );
      return fail(`not found (${tried.join('; ')})`, fix);
    },
  },
  {
    id: 'llms-txt-valid',
    title: 'llms.txt follows the llmstxt.org structure',
    scored: true,
    definition: def('llms-txt-valid'),
    run: onEachLlms(
      'Give llms.txt an H1 first line, a "> summary" and heading-delimited sections of [name](url): description links.',
      (_ctx, { url, text }) => {
        const links = markdownLinks(text, url).length;
        if (!links) return pageGrade('fail', `${url} has no parseable links`);
        const lines = text.split(/\r?\n/);
        const h1 = /^#\s+\S/.test(lines.find((l) => l.trim()) ?? '');
        const quote = lines.some((l) => /^>\s?\S/.test(l));
        let sectionWithLinks = false;
        let inSection = false;
        for (const line of lines.slice(1)) {
          if (/^#{1,6}\s+\S/.test(line)) inSection = true;
          else if (inSection && markdownLinks(line, url).length) sectionWithLinks = true;
        }
        const missing = [
          !h1 && 'an H1 first line',
          !quote && 'a blockquote summary',
          !sectionWithLinks && 'a heading-delimited section of links',
        ].filter(Boolean);
        return missing.length
          ? pageGrade('warn', `${links} link(s), but missing: ${missing.join(', ')}`)
          : pageGrade('pass', `H1, summary and sections with ${links} link(s)`);
      },
    ),
  },
  {
    id: 'llms-txt-size',
    title: 'llms.txt fits in one agent fetch',
    scored: true,
    definition: def('llms-txt-size'),
    run: onEachLlms(
      'Keep llms.txt under 50,000 characters: split it into a root index linking section-level llms.txt files.',
      (ctx, { url, text }) => sizeGrade(text.length, shortUrl(ctx, url)),
    ),
  },
  {
    id: 'llms-txt-links-resolve',
    title: 'llms.txt links resolve',
    scored: true,
    definition: def('llms-txt-links-resolve'),
    run: onEachLlms('Fix or remove the broken links in llms.txt.', async (ctx, { url, text }) => {
      const links = [...new Set(markdownLinks(text, url).map((l) => l.url.split('#')[0]!))].filter((u) => sameOrigin(ctx, u));
      if (!links.length) return pageGrade('na', 'no same-origin links to resolve');
      const { ok, total, broken } = await resolveShare(ctx, spread(links, AFDOCS_LINKS_SAMPLED));
      const note = `${share(ok, total)} sampled same-origin links answer 200${broken[0] ? `; ${shortUrl(ctx, broken[0].url)} → ${broken[0].status}` : ''}`;
      return pageGrade(ok === total ? 'pass' : ok / total > 0.9 ? 'warn' : 'fail', note);
    }),
  },
  {
    id: 'llms-txt-links-markdown',
    title: 'llms.txt links point to markdown',
    scored: true,
    definition: def('llms-txt-links-markdown'),
    run: onEachLlms('Point llms.txt links at the .md version of each page.', async (ctx, { url, text }) => {
      const links = markdownLinks(text, url);
      if (!links.length) return pageGrade('fail', 'no links');
      const md = links.filter((l) => /\.mdx?$/i.test(new URL(l.url).pathname));
      if (md.length / links.length > 0.5) return pageGrade('pass', `${share(md.length, links.length)} links are .md`);
      const others = links.filter((l) => !md.includes(l) && sameOrigin(ctx, l.url)).slice(0, VARIANT_PROBES);
      for (const link of others)
        if ('res' in (await twinOf(ctx, link.url)))
          return pageGrade('warn', `${share(md.length, links.length)} links are .md, but .md variants exist`);
      return pageGrade('fail', `${share(md.length, links.length)} links are .md and no .md variant was found`);
    }),
  },
  {
    id: 'llms-txt-directive',
    title: 'Pages point agents to llms.txt',
    scored: true,
    definition: def('llms-txt-directive'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const res = await getPage(ctx, url);
          const notHtml = notHtmlGrade(ctx, res);
          if (notHtml) return notHtml;
          const html = htmlOf(res);
          const anchor = html.anchors.find((a) => isDirectiveHref(a.href));
          if (!anchor) return pageGrade('fail', 'no link to llms.txt in the served HTML');
          const at = html.text.indexOf(anchor.text || 'llms.txt');
          const position = html.text.length ? at / html.text.length : 0;
          return position <= 0.5
            ? pageGrade('pass', `links ${anchor.href} near the top`)
            : pageGrade('warn', `the llms.txt link is ${Math.round(position * 100)} % into the page`);
        },
        {
          mode: 'share',
          fix: 'Put a short directive near the top of every page: "> For the complete documentation index, see [llms.txt](/llms.txt)" (it may be visually hidden, not display:none).',
        },
      ),
  },
  // 2. Markdown availability
  {
    id: 'markdown-url-support',
    title: '.md URLs serve markdown',
    scored: true,
    definition: def('markdown-url-support'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const twin = await twinOf(ctx, url);
          return 'res' in twin
            ? pageGrade('pass', `${shortUrl(ctx, twin.url)} is markdown`)
            : pageGrade('fail', `no markdown at ${twin.tried.map((t) => summary(ctx, t)).join('; ')}`);
        },
        { mode: 'share', fix: 'Serve every page as markdown at <page>.md (the home page at /index.md).' },
      ),
  },
  {
    id: 'content-negotiation',
    title: 'Accept: text/markdown returns markdown',
    scored: true,
    definition: def('content-negotiation'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const res = await negotiatedMarkdown(ctx, url);
          if (isMarkdown(res)) return pageGrade('pass', `text/markdown`);
          if (!res.error && res.status === 200 && !looksLikeHtml(res.text) && mediaType(res) !== 'text/html')
            return pageGrade('warn', `markdown served as ${mediaType(res) || 'no Content-Type'}`);
          return pageGrade('fail', `Accept: text/markdown → ${res.error ?? `${res.status} ${mediaType(res)}`}`);
        },
        { mode: 'share', fix: 'Answer Accept: text/markdown with the page as markdown and Content-Type: text/markdown.' },
      ),
  },
  // 3. Page size and truncation risk
  {
    id: 'rendering-strategy',
    title: 'Content is in the server response',
    scored: true,
    definition: def('rendering-strategy'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const res = await getPage(ctx, url);
          const notHtml = notHtmlGrade(ctx, res);
          if (notHtml) return notHtml;
          const html = htmlOf(res);
          const words = html.text.split(' ').filter(Boolean).length;
          const shell = /id=["'](?:__next|___gatsby|__nuxt|root|app)["']/.test(res.text);
          if (words < 20 && shell) return pageGrade('fail', `an SPA shell: ${words} words of text and a framework root element`);
          if (words < 50 || html.headings.length === 0)
            return pageGrade('warn', `sparse: ${words} words, ${html.headings.length} heading(s)`);
          return pageGrade('pass', `${words} words and ${html.headings.length} heading(s) without JavaScript`);
        },
        { fix: 'Render page content on the server (or prerender it); agents do not run JavaScript.' },
      ),
  },
  {
    id: 'page-size-markdown',
    title: 'Markdown pages fit in one fetch',
    scored: true,
    definition: def('page-size-markdown'),
    run: async (ctx) => {
      if (!(await servesMarkdown(ctx))) return SKIP_MARKDOWN;
      return gradePages(
        ctx,
        async (url) => {
          const md = await markdownOf(ctx, url);
          return md ? sizeGrade(md.text.length, md.where) : pageGrade('na', 'no markdown for this page');
        },
        { fix: 'Split pages whose markdown is over 50,000 characters.' },
      );
    },
  },
  {
    id: 'page-size-html',
    title: 'HTML pages fit in one fetch after conversion',
    scored: true,
    definition: def('page-size-html'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const res = await getPage(ctx, url);
          const notHtml = notHtmlGrade(ctx, res);
          if (notHtml) return notHtml;
          const converted = htmlOf(res).text.length;
          const grade = sizeGrade(converted, `${res.text.length} characters of HTML →`);
          return {
            ...grade,
            note: `${grade.note} of text (${Math.round(100 - (100 * converted) / Math.max(1, res.text.length))} % markup)`,
          };
        },
        { fix: 'Cut navigation and serialised boilerplate, or split large pages; offer markdown versions.' },
      ),
  },
  {
    id: 'content-start-position',
    title: 'Content starts near the top',
    scored: true,
    definition: def('content-start-position'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const res = await getPage(ctx, url);
          const notHtml = notHtmlGrade(ctx, res);
          if (notHtml) return notHtml;
          const html = htmlOf(res);
          if (!html.h1) return pageGrade('na', 'no <h1> to locate the content by');
          const at = html.text.indexOf(html.h1);
          const percent = Math.round((100 * Math.max(0, at)) / Math.max(1, html.text.length));
          return pageGrade(percent < 10 ? 'pass' : percent < 50 ? 'warn' : 'fail', `the <h1> starts ${percent} % into the page text`);
        },
        { fix: 'Reduce the navigation, breadcrumbs and sidebars that precede the content in the HTML.' },
      ),
  },
  // 4. Content structure
  {
    id: 'tabbed-content-serialization',
    title: 'Tabbed content stays small when serialised',
    scored: true,
    definition: def('tabbed-content-serialization'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const res = await getPage(ctx, url);
          const notHtml = notHtmlGrade(ctx, res);
          if (notHtml) return notHtml;
          const panels = htmlOf(res).tabPanels;
          if (!panels.length) return pageGrade('pass', 'no tabbed content');
          return sizeGrade(
            panels.reduce((n, p) => n + elementText(p).length, 0),
            `${panels.length} tab panel(s) serialise to`,
          );
        },
        { fix: 'Move tab variants to their own pages, or let agents request one variant.' },
      ),
  },
  {
    id: 'section-header-quality',
    title: 'Headers in tabs name their variant',
    scored: true,
    definition: def('section-header-quality'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const res = await getPage(ctx, url);
          const notHtml = notHtmlGrade(ctx, res);
          if (notHtml) return notHtml;
          const panels = htmlOf(res).tabPanels;
          if (!panels.length) return pageGrade('na', 'no tabbed content');
          const headings = panels.map((p) => new Set(headingsIn(p).map((h) => h.toLowerCase())));
          const all = headings.flatMap((set) => [...set]);
          if (!all.length) return pageGrade('pass', 'no headings inside tab panels');
          const generic = all.filter((h) => headings.filter((set) => set.has(h)).length > 1).length;
          const ratio = generic / all.length;
          return pageGrade(
            ratio <= 0.25 ? 'pass' : ratio <= 0.5 ? 'warn' : 'fail',
            `${share(generic, all.length)} headers repeat across tab variants`,
          );
        },
        { fix: 'Add the variant to each header inside tabs ("Step 1 (Python)").' },
      ),
  },
  {
    id: 'markdown-code-fence-validity',
    title: 'Code fences are closed',
    scored: true,
    definition: def('markdown-code-fence-validity'),
    run: async (ctx) => {
      if (!(await servesMarkdown(ctx))) return SKIP_MARKDOWN;
      const { found } = await discoveredLlms(ctx);
      const texts: { where: string; text: string }[] = found.map((f) => ({ where: shortUrl(ctx, f.url), text: f.text }));
      for (const url of await samplePages(ctx)) {
        const md = await markdownOf(ctx, url);
        if (md) texts.push({ where: md.where, text: md.text });
      }
      const broken = texts.flatMap((t) => {
        const open = unclosedFence(t.text);
        return open ? [`${t.where} line ${open.line} (${open.marker})`] : [];
      });
      return broken.length
        ? fail(
            `unclosed code fence: ${broken.join('; ')}`,
            'Close every ``` or ~~~ fence with a fence of the same character and at least the same length.',
          )
        : pass(`${texts.length} markdown document(s), every fence closed`);
    },
  },
  // 5. URL stability
  {
    id: 'http-status-codes',
    title: 'Missing pages answer 404',
    scored: true,
    definition: def('http-status-codes'),
    run: async (ctx) => {
      const pages = await samplePages(ctx);
      const probes = [...new Set([pages[1] ?? pages[0]!, pages[0]!])].map((p) => `${p.replace(/\/$/, '')}/agent-ready-check-missing-page`);
      for (const probe of probes) {
        const res = await get(ctx, probe);
        if (res.status === 200)
          return fail(`${shortUrl(ctx, probe)} → 200 (a soft 404)`, 'Answer unknown URLs with 404, not a 200 "not found" page.');
        if (res.status < 400 && !res.offOrigin)
          return fail(`${summary(ctx, res)} for a page that does not exist`, 'Answer unknown URLs with 404.');
      }
      return pass(`${probes.length} made-up URL(s) under real pages answer 4xx`);
    },
  },
  {
    id: 'redirect-behavior',
    title: 'Redirects are same-host HTTP redirects',
    scored: true,
    definition: def('redirect-behavior'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const res = await getPage(ctx, url);
          if (res.offOrigin) return pageGrade('warn', `redirects to another host (${res.offOrigin})`);
          if (res.error && res.redirects.length) return pageGrade('fail', `the redirects never reach a page (${res.error})`);
          if (res.error) return pageGrade('na', `could not load the page (${summary(ctx, res)})`);
          const html = isHtmlPage(res) ? htmlOf(res) : null;
          if (html?.metaRefresh && /url=/i.test(html.metaRefresh))
            return pageGrade('fail', `a <meta http-equiv="refresh"> redirect (${html.metaRefresh})`);
          if (html && /(?:window\.)?location(?:\.href)?\s*=\s*['"`]|location\.replace\(/.test(html.inlineScripts))
            return pageGrade('fail', 'a JavaScript redirect in an inline script');
          return pageGrade('pass', res.redirects.length ? `${res.redirects.length} same-host redirect(s)` : 'no redirect');
        },
        { fix: 'Use HTTP 301/308 redirects on the same host; replace JavaScript and meta-refresh redirects.' },
      ),
  },
  // 6. Observability
  {
    id: 'llms-txt-coverage',
    title: 'llms.txt covers the sitemap',
    scored: true,
    definition: def('llms-txt-coverage'),
    run: async (ctx) => {
      const { found } = await discoveredLlms(ctx);
      if (!found.length) return SKIP_LLMS;
      const { entries } = await sitemapOf(ctx);
      const links = await llmsPageLinks(ctx);
      // The folder of each nested index left unread: its pages are the subtree that index would list.
      const omittedFolders = links.omitted.map((u) => new URL(u).pathname.replace(/\/[^/]*$/, '').toLowerCase()).filter(Boolean);
      const inOmitted = (key: string): boolean => {
        const path = new URL(key).pathname.toLowerCase();
        return omittedFolders.some((folder) => path === folder || path.startsWith(`${folder}/`));
      };
      const sitemapPages = [
        ...new Set(
          entries
            .map((e) => e.loc)
            .filter((loc) => isHttpUrl(loc) && sameOrigin(ctx, loc))
            .map(pageKey),
        ),
      ];
      const pages = sitemapPages.filter((p) => !inOmitted(p));
      if (!sitemapPages.length) return neutral('no sitemap pages to compare with', 'Publish a sitemap.');
      if (!pages.length)
        return neutral('every sitemap page is under a nested index not followed', 'Link the nested indexes from llms.txt itself.');
      const listed = new Set(links.pages.map(pageKey));
      const covered = pages.filter((p) => listed.has(p));
      const missing = pages.filter((p) => !listed.has(p));
      const ratio = covered.length / pages.length;
      const what = links.walked.length ? `llms.txt and the ${links.walked.length} nested index(es) it links` : 'llms.txt';
      const notes = [
        links.omitted.length &&
          `${links.omitted.length} deeper index(es) not followed (${sitemapPages.length - pages.length} sitemap pages under them left out)`,
        links.unreadable.length && `${links.unreadable.length} nested index(es) unreadable (${links.unreadable[0]})`,
        links.notFetched && `${links.notFetched} nested index(es) past the first ${AFDOCS_NESTED_INDEXES} not read`,
      ].filter(Boolean);
      const reason =
        `${what} ${links.walked.length ? 'link' : 'links'} ${share(covered.length, pages.length)} sitemap pages` +
        `${missing.length ? `; not listed e.g. ${missing.slice(0, 3).join(', ')}` : ''}${notes.length ? `; ${notes.join('; ')}` : ''}`;
      const fix =
        'Generate llms.txt from the same source as the sitemap (or list the intentional exclusions); a large site can link nested llms.txt files from it, one level deep.';
      return ratio >= 0.95 ? pass(reason) : ratio >= 0.8 ? warn(reason, fix) : fail(reason, fix);
    },
  },
  {
    id: 'markdown-content-parity',
    title: 'Markdown carries the HTML content',
    scored: true,
    definition: def('markdown-content-parity'),
    run: async (ctx) => {
      if (!(await servesMarkdown(ctx))) return SKIP_MARKDOWN;
      return gradePages(
        ctx,
        async (url) => {
          const res = await getPage(ctx, url);
          const md = await markdownOf(ctx, url);
          const notHtml = notHtmlGrade(ctx, res);
          if (notHtml) return notHtml;
          if (!md) return pageGrade('na', 'no markdown for this page');
          const segments = [
            ...new Set(
              htmlOf(res)
                .segments.map(normalizeText)
                .filter((s) => s.length > 0),
            ),
          ];
          const markdown = normalizeText(md.text);
          const missing = segments.filter((s) => !markdown.includes(s));
          const ratio = segments.length ? missing.length / segments.length : 0;
          const note = `${share(missing.length, segments.length)} HTML content blocks missing from ${md.where}${missing[0] ? ` (e.g. "${missing[0].slice(0, 50)}")` : ''}`;
          if (segments.length < 10) return pageGrade('pass', `${note} (under 10 blocks: too few to judge, passes)`);
          if (ratio < 0.05) return pageGrade('pass', note);
          return pageGrade(ratio < 0.2 ? 'warn' : 'fail', note);
        },
        { fix: 'Generate the markdown from the same source as the HTML, so both carry the same content.' },
      );
    },
  },
  {
    id: 'cache-header-hygiene',
    title: 'Agent resources are not cached for long',
    scored: true,
    definition: def('cache-header-hygiene'),
    run: async (ctx) => {
      const targets: { where: string; res: Awaited<ReturnType<typeof get>> }[] = [];
      // Only an llms.txt that exists (a soft 404 or an unreadable one has no cache policy to judge).
      const { found } = await discoveredLlms(ctx);
      for (const file of found) targets.push({ where: shortUrl(ctx, file.url), res: await get(ctx, file.url) });
      for (const url of await samplePages(ctx)) {
        const md = await markdownOf(ctx, url);
        if (md) targets.push({ where: md.where, res: md.res });
      }
      if (!targets.length) return neutral('no llms.txt or markdown endpoint to inspect', 'Publish llms.txt or markdown first.');
      const grades = targets.map((t) => ({ where: t.where, grade: cacheGrade(t.res.headers) }));
      const order = ['fail', 'warn', 'pass'];
      const worst = [...grades].sort((a, b) => order.indexOf(a.grade.status) - order.indexOf(b.grade.status))[0]!;
      return toVerdict(
        {
          status: worst.grade.status,
          note: `${grades.filter((g) => g.grade.status === 'pass').length} of ${grades.length} agent resource(s) pass; ${worst.where}: ${worst.grade.note}`,
        },
        'Serve llms.txt and markdown with max-age under 3600, or must-revalidate with an ETag or Last-Modified.',
      );
    },
  },
  // 7. Authentication
  {
    id: 'auth-gate-detection',
    title: 'Pages need no login',
    scored: true,
    definition: def('auth-gate-detection'),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const res = await getPage(ctx, url);
          if (res.offOrigin && SSO_HOSTS.test(new URL(res.offOrigin).hostname))
            return pageGrade('fail', `redirects to a login provider (${res.offOrigin})`);
          if (res.status === 401 || res.status === 403) return pageGrade('fail', `answers ${res.status}`);
          if (res.error) return pageGrade('na', `could not load the page (${summary(ctx, res)})`);
          if (isHtmlPage(res) && (htmlOf(res).passwordInput || /\b(?:sign|log) ?in\b/i.test(htmlOf(res).title)))
            return pageGrade('fail', 'a login page');
          return pageGrade('pass', `answers ${res.status} with content`);
        },
        { mode: 'share', fix: 'Keep documentation public, or give agents another way in (public llms.txt, an MCP server).' },
      ),
  },
  {
    id: 'auth-alternative-access',
    title: 'Gated docs have another way in',
    scored: true,
    definition: def('auth-alternative-access'),
    run: async (ctx) => {
      const gate = await memo(ctx, 'afdocs gate', () => CHECKS.find((c) => c.id === 'auth-gate-detection')!.run(ctx));
      if (gate.status === 'pass') return neutral('skipped: the pages are public (auth-gate-detection passes)', 'Nothing to do.');
      const { found } = await discoveredLlms(ctx);
      return found.length
        ? pass('a public llms.txt indexes the gated content')
        : fail(
            'no public llms.txt or markdown for the gated pages',
            'Publish a public llms.txt, ungate the reference docs, or offer an MCP server.',
          );
    },
  },
];

/** A page's identity for coverage: the URL without `.md`, `/index.md`, a trailing slash, query or fragment. */
function pageKey(url: string): string {
  const u = new URL(url);
  const path =
    u.pathname
      .replace(/\/index\.md$/i, '/')
      .replace(/\.md$/i, '')
      .replace(/\/+$/, '') || '/';
  return `${u.origin}${path}`;
}

/** The cache grade of one agent resource (the spec's rules). */
export function cacheGrade(headers: Headers): PageGrade {
  const cc = (headers.get('cache-control') ?? '').toLowerCase();
  const validators = !!(headers.get('etag') || headers.get('last-modified'));
  const revalidate = /must-revalidate|no-cache|proxy-revalidate/.test(cc);
  const ageMatch = /(?:s-maxage|max-age)=(\d+)/.exec(cc);
  const age = ageMatch ? Number(ageMatch[1]) : undefined;
  if (/no-store/.test(cc)) return pageGrade('pass', 'no-store');
  if (!cc && !headers.get('expires'))
    return validators ? pageGrade('pass', 'no Cache-Control, but ETag/Last-Modified') : pageGrade('fail', 'no cache headers at all');
  if (revalidate && validators) return pageGrade('pass', `${cc} with a validator`);
  if (age !== undefined && age < 3600) return pageGrade('pass', `max-age=${age}`);
  if (age !== undefined && age <= 86_400) return pageGrade('warn', `max-age=${age} (1-24 hours)`);
  if (age === undefined)
    return validators
      ? pageGrade('pass', `${cc || 'Expires'} with a validator`)
      : pageGrade('warn', `${cc || `Expires: ${headers.get('expires')}`} without max-age`);
  return pageGrade('fail', `max-age=${age} (over 24 hours) without revalidation`);
}

/** The AFDocs rubric. */
export const AFDOCS: Rubric = {
  id: 'afdocs',
  name: 'Agent-Friendly Documentation Spec (AFDocs)',
  version: '0.4.0 (2026-04-21)',
  definition: SPEC,
  checks: CHECKS,
  summarize(results: readonly CheckResult[]): RubricSummary {
    const count = (s: string) => results.filter((r) => r.status === s).length;
    const skipped = results.filter((r) => r.status === 'neutral').length;
    return {
      headline: `${count('pass')} pass, ${count('warn')} warn, ${count('fail')} fail, ${skipped} skipped or not applicable`,
      pass: count('pass'),
      warn: count('warn'),
      fail: count('fail'),
      skipped,
    };
  },
};
