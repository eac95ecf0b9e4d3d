/**
 * Vercel's Agent Readability Spec (vercel.com/kb/guide/agent-readability-spec), as its open scorecard
 * operationalises it: a14y scorecard v0.2.0 (2026-04-06, frozen): 14 site-wide checks and 24 per-page
 * checks with stable ids, scored `flat-pool-v1` (passed over applicable, every page's checks in one pool).
 * The detection rules follow a14y's published check pages (timothyjordan/a14y, `content/checks/*.md`).
 *
 * Where this differs: a14y crawls the site (up to `--max-pages`); here the per-page checks run on the
 * sampled pages (home + `--pages` from the sitemap), so `discovery.indexed` is met by construction for
 * sitemap pages. The mirror of the home page is `/index.md` (a14y derives `/.md`), and the mirror is
 * fetched with GET (a14y sends HEAD; the checker fetches each document once and reuses it).
 * @module
 */
import robotsParser from 'robots-parser';
import { type Fetched, get, looksLikeHtml, mediaType, siteUrl, summary } from '../http.ts';
import { parseLinkHeader } from '../checks/link-headers.ts';
import { fetchRobots } from '../checks/robots.ts';
import { MAX_SITEMAP_BYTES } from '../checks/sitemap.ts';
import { htmlOf, jsonLdNodes, typesOf } from '../html.ts';
import { gradePages, notHtmlGrade, pageGrade, type PageGrade } from '../pages.ts';
import { getPage, MAX_CHILD_SITEMAPS, markdownLinks, memo, negotiatedMarkdown, parseSitemap, shortUrl, twinOf } from '../site.ts';
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

const SCORECARD = 'https://a14y.dev/scorecards/0.2.0/';
/** a14y's docs page for a check of scorecard 0.2.0 (its own `buildCheckDocsUrl` pattern). */
const def = (id: string): string => `https://a14y.dev/scorecards/0.2.0/checks/${id}/`;

const ok2xx = (res: Fetched): boolean => !res.error && res.status >= 200 && res.status < 300;

/**
 * The first of `paths` that answers 2xx with a document of its own: a 200 HTML page at a text, markdown or
 * XML path is a soft 404 and does not count (a14y counts any 2xx; stricter here, as for isitagentready).
 */
async function first2xx(ctx: CheckContext, paths: readonly string[]): Promise<{ path: string; res: Fetched } | null> {
  for (const path of paths) {
    // Sitemaps are read with the sitemap cap (and so share the fetch the other rubrics made).
    const res = await get(ctx, path, /\.xml$/.test(path) ? { maxBytes: MAX_SITEMAP_BYTES } : {});
    if (ok2xx(res) && mediaType(res) !== 'text/html' && !looksLikeHtml(res.text)) return { path, res };
  }
  return null;
}

/** What the first path answered (memoised: no new request), for a reason that says why nothing was found. */
async function whatCameBack(ctx: CheckContext, path: string, options: { maxBytes?: number } = {}): Promise<string> {
  const res = await get(ctx, path, options);
  const html = !res.error && (mediaType(res) === 'text/html' || looksLikeHtml(res.text));
  return `${summary(ctx, res)}${html ? ': an HTML page' : ''}`;
}

const LLMS_PATHS = ['/llms.txt', '/.well-known/llms.txt', '/docs/llms.txt'];
const LLMS_FULL_PATHS = LLMS_PATHS.map((p) => p.replace('llms.txt', 'llms-full.txt'));
const llmsFile = (ctx: CheckContext) =>
  memo(ctx, 'a14y llms', async () => (await first2xx(ctx, LLMS_PATHS)) ?? (await first2xx(ctx, LLMS_FULL_PATHS)));
const SITEMAP_PATHS = ['/sitemap.xml', '/sitemap_index.xml', '/sitemap-index.xml'];
const SITEMAP_MD_PATHS = ['/sitemap.md', '/docs/sitemap.md', '/.well-known/sitemap.md'];
/** The skill files a14y accepts, in its order. */
export const AGENTS_MD_PATHS = [
  '/AGENTS.md',
  '/agents.md',
  '/.well-known/agents.md',
  '/docs/AGENTS.md',
  '/llms-full.txt',
  '/CLAUDE.md',
  '/.cursor/rules',
  '/.cursorrules',
];
/** The AI crawlers robots-txt.allows-ai-bots asks about. */
export const A14Y_AI_BOTS = ['GPTBot', 'ClaudeBot', 'CCBot', 'Google-Extended'];

const NA = (why: string): Verdict => neutral(`not applicable: ${why}`, 'Nothing to do.');

/** A W3C Datetime (sitemaps.org): a date, or a date and time with a zone. */
export const W3C_DATETIME = /^\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?$/;
/** A schema.org Date or DateTime (the zone may be `+00:00` or `+0000`). */
const SCHEMA_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/** The top-level scalar keys of a markdown document's YAML front matter (null: no front matter). */
export function frontMatterKeys(markdown: string): string[] | null {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(markdown);
  if (!match) return null;
  return [...match[1]!.matchAll(/^([A-Za-z_][\w-]*)\s*:/gm)].map((m) => m[1]!);
}

const SITE_CHECKS: Check[] = [
  {
    id: 'llms-txt.exists',
    title: 'llms.txt is published',
    scored: true,
    definition: def('llms-txt.exists'),
    run: async (ctx) => {
      const found = await llmsFile(ctx);
      return found
        ? pass(`${found.path} answers ${found.res.status}`)
        : fail(
            `none of ${[...LLMS_PATHS, ...LLMS_FULL_PATHS].join(', ')} answers 2xx with a text file (${await whatCameBack(ctx, '/llms.txt')})`,
            'Publish /llms.txt listing your pages (llmstxt.org).',
          );
    },
  },
  {
    id: 'llms-txt.content-type',
    title: 'llms.txt is served as text/plain',
    scored: true,
    definition: def('llms-txt.content-type'),
    run: async (ctx) => {
      const found = await llmsFile(ctx);
      if (!found) return NA('no llms.txt');
      const type = found.res.headers.get('content-type') ?? '';
      return /text\/plain/i.test(type)
        ? pass(`Content-Type: ${type}`)
        : warn(`Content-Type: ${type || '(missing)'}`, 'Serve llms.txt as text/plain; charset=utf-8.');
    },
  },
  {
    id: 'llms-txt.non-empty',
    title: 'llms.txt is not empty',
    scored: true,
    definition: def('llms-txt.non-empty'),
    run: async (ctx) => {
      const found = await llmsFile(ctx);
      if (!found) return NA('no llms.txt');
      return found.res.text.trim()
        ? pass(`${found.res.text.length} characters`)
        : fail(`${found.path} is empty`, 'Put an index of your pages in llms.txt.');
    },
  },
  {
    id: 'llms-txt.md-extensions',
    title: 'llms.txt links use .md or .mdx',
    scored: true,
    definition: def('llms-txt.md-extensions'),
    run: async (ctx) => {
      const found = await llmsFile(ctx);
      if (!found) return NA('no llms.txt');
      const links = markdownLinks(found.res.text, found.res.url);
      if (!links.length) return warn('llms.txt has no links to evaluate', 'Link your pages from llms.txt.');
      const offenders = links.filter((l) => !/\.mdx?$/i.test(new URL(l.url).pathname));
      return offenders.length
        ? fail(
            `${offenders.length} of ${links.length} links are not .md/.mdx, e.g. ${offenders
              .slice(0, 3)
              .map((o) => o.href)
              .join(', ')}`,
            'Link the .md mirror of every page from llms.txt.',
          )
        : pass(`all ${links.length} links are .md/.mdx`);
    },
  },
  {
    id: 'robots-txt.exists',
    title: 'robots.txt is published',
    scored: true,
    definition: def('robots-txt.exists'),
    run: async (ctx) => {
      // The one robots.txt fetch of the scan (its first 500 KiB, RFC 9309 §2.5).
      const { res } = await fetchRobots(ctx);
      return ok2xx(res) && mediaType(res) !== 'text/html' && !looksLikeHtml(res.text)
        ? pass(`/robots.txt answers ${res.status}`)
        : fail(summary(ctx, res), 'Publish /robots.txt at the site root.');
    },
  },
  {
    id: 'robots-txt.allows-ai-bots',
    title: 'robots.txt allows AI bots',
    scored: true,
    definition: def('robots-txt.allows-ai-bots'),
    run: async (ctx) => {
      const { res } = await fetchRobots(ctx);
      if (!ok2xx(res)) return pass('no robots.txt: allow-all');
      const robots = robotsParser(res.url, res.text);
      const blocked = A14Y_AI_BOTS.filter((bot) => robots.isDisallowed(siteUrl(ctx, '/'), bot));
      return blocked.length
        ? fail(`robots.txt disallows / for ${blocked.join(', ')}`, 'Allow GPTBot, ClaudeBot, CCBot and Google-Extended to fetch /.')
        : pass(`${A14Y_AI_BOTS.join(', ')} may fetch /`);
    },
  },
  {
    id: 'robots-txt.allows-llms-txt',
    title: 'robots.txt does not disallow llms.txt',
    scored: true,
    definition: def('robots-txt.allows-llms-txt'),
    run: async (ctx) => {
      const { res } = await fetchRobots(ctx);
      if (!ok2xx(res)) return pass('no robots.txt: allow-all');
      const robots = robotsParser(res.url, res.text);
      const blocked = ['/llms.txt', '/.well-known/llms.txt'].filter((p) => robots.isDisallowed(siteUrl(ctx, p), '*'));
      return blocked.length
        ? fail(`robots.txt disallows ${blocked.join(', ')} for *`, 'Remove the Disallow rules that cover llms.txt.')
        : pass('llms.txt is allowed for every user agent');
    },
  },
  {
    id: 'sitemap-xml.exists',
    title: 'sitemap.xml is published',
    scored: true,
    definition: def('sitemap-xml.exists'),
    run: async (ctx) => {
      const found = await first2xx(ctx, SITEMAP_PATHS);
      return found
        ? pass(`${found.path} answers ${found.res.status}`)
        : fail(
            `none of ${SITEMAP_PATHS.join(', ')} answers 2xx with a sitemap (${await whatCameBack(ctx, '/sitemap.xml', { maxBytes: MAX_SITEMAP_BYTES })})`,
            'Publish /sitemap.xml listing every page.',
          );
    },
  },
  {
    id: 'sitemap-xml.valid',
    title: 'sitemap.xml parses as urlset or sitemapindex',
    scored: true,
    definition: def('sitemap-xml.valid'),
    run: async (ctx) => {
      const found = await first2xx(ctx, SITEMAP_PATHS);
      if (!found) return NA('no sitemap.xml');
      const parsed = parseSitemap(found.res.text);
      return parsed.kind
        ? pass(`<${parsed.kind}>`)
        : fail(`${found.path} is not a <urlset> or <sitemapindex> document`, 'Serve a sitemaps.org <urlset> or <sitemapindex> document.');
    },
  },
  {
    id: 'sitemap-xml.has-lastmod',
    title: 'sitemap entries include <lastmod>',
    scored: true,
    definition: def('sitemap-xml.has-lastmod'),
    run: async (ctx) => {
      const found = await first2xx(ctx, SITEMAP_PATHS);
      if (!found) return NA('no sitemap.xml');
      const parsed = parseSitemap(found.res.text);
      const entries = [...parsed.urls];
      for (const child of parsed.children.slice(0, MAX_CHILD_SITEMAPS)) {
        const res = await get(ctx, child, { maxBytes: MAX_SITEMAP_BYTES });
        if (ok2xx(res)) entries.push(...parseSitemap(res.text).urls);
      }
      if (!entries.length) return NA('no <url> entries');
      const missing = entries.filter((e) => !e.lastmod).length;
      const invalid = entries.filter((e) => e.lastmod && !W3C_DATETIME.test(e.lastmod)).length;
      return missing || invalid
        ? fail(
            `${missing} of ${entries.length} entries lack <lastmod>, ${invalid} have an invalid date`,
            'Give every <url> a <lastmod> in W3C Datetime format.',
          )
        : pass(`all ${entries.length} entries have a valid <lastmod>`);
    },
  },
  {
    id: 'sitemap-md.exists',
    title: 'sitemap.md is published',
    scored: true,
    definition: def('sitemap-md.exists'),
    run: async (ctx) => {
      const found = await first2xx(ctx, SITEMAP_MD_PATHS);
      return found
        ? pass(`${found.path} answers ${found.res.status}`)
        : fail(`none of ${SITEMAP_MD_PATHS.join(', ')} answers 2xx`, 'Publish /sitemap.md: the site map as markdown headings and links.');
    },
  },
  {
    id: 'sitemap-md.has-structure',
    title: 'sitemap.md has headings and links',
    scored: true,
    definition: def('sitemap-md.has-structure'),
    run: async (ctx) => {
      const found = await first2xx(ctx, SITEMAP_MD_PATHS);
      if (!found) return NA('no sitemap.md');
      const headings = found.res.text.split(/\r?\n/).filter((l) => /^#+\s/.test(l)).length;
      const links = markdownLinks(found.res.text, found.res.url).length;
      return headings && links
        ? pass(`${headings} heading(s), ${links} link(s)`)
        : fail(`${headings} heading(s), ${links} link(s)`, 'Give sitemap.md at least one heading and one link.');
    },
  },
  {
    id: 'agents-md.exists',
    title: 'AGENTS.md (or equivalent) is published',
    scored: true,
    definition: def('agents-md.exists'),
    run: async (ctx) => {
      const found = await first2xx(ctx, AGENTS_MD_PATHS);
      return found
        ? pass(`${found.path} answers ${found.res.status}`)
        : fail(`none of ${AGENTS_MD_PATHS.join(', ')} answers 2xx`, 'Publish /AGENTS.md with install, configuration and usage sections.');
    },
  },
  {
    id: 'agents-md.has-min-sections',
    title: 'agent skill file documents at least 2 of install/config/usage',
    scored: true,
    definition: def('agents-md.has-min-sections'),
    run: async (ctx) => {
      const found = await first2xx(ctx, AGENTS_MD_PATHS);
      if (!found) return NA('no skill file');
      const headings = found.res.text
        .split(/\r?\n/)
        .filter((l) => /^#+\s/.test(l))
        .join('\n');
      const families = [
        ['installation', /install|getting started|quickstart/i],
        ['configuration', /configuration|config|settings|options/i],
        ['usage', /usage|examples?|how to|reference|api/i],
      ] as const;
      const present = families.filter(([, re]) => re.test(headings)).map(([name]) => name);
      return present.length >= 2
        ? pass(`${found.path} covers ${present.join(', ')}`)
        : fail(
            `${found.path} covers ${present.join(', ') || 'none'} of installation, configuration, usage`,
            'Add headed install, configuration and usage sections.',
          );
    },
  },
];

/** A per-page check: graded on every sampled page (pages that are not HTML pages are left out). */
function perPage(
  id: string,
  title: string,
  fix: string,
  grade: (ctx: CheckContext, url: string, page: Fetched) => Promise<PageGrade> | PageGrade,
  requireHtml = true,
): Check {
  return {
    id,
    title,
    scored: true,
    definition: def(id),
    run: (ctx) =>
      gradePages(
        ctx,
        async (url) => {
          const page = await getPage(ctx, url);
          const notHtml = requireHtml ? notHtmlGrade(ctx, page) : null;
          if (notHtml) return notHtml;
          return grade(ctx, url, page);
        },
        { fix },
      ),
  };
}

const yes = (ok: boolean, passNote: string, failNote: string): PageGrade => pageGrade(ok ? 'pass' : 'fail', ok ? passNote : failNote);

/** The page's markdown mirror (`<path>.md`), or null. */
async function mirrorOf(ctx: CheckContext, url: string): Promise<{ url: string; res: Fetched } | null> {
  const twin = await twinOf(ctx, url);
  return 'res' in twin ? twin : null;
}

const PAGE_CHECKS: Check[] = [
  perPage(
    'http.status-200',
    'Page returns HTTP 200',
    'Serve the page with 200, or drop its URL from the sitemap.',
    (_c, _u, page) => yes(page.status === 200, '200', `${page.status}`),
    false,
  ),
  perPage(
    'http.redirect-chain',
    'Redirect chain is at most one hop',
    'Link to the final URL; keep at most one redirect.',
    (_c, _u, page) => yes(page.redirects.length <= 1, `${page.redirects.length} redirect(s)`, `${page.redirects.length} redirects`),
    false,
  ),
  perPage(
    'http.content-type-html',
    'Content-Type is text/html; charset=utf-8',
    'Send Content-Type: text/html; charset=utf-8.',
    (_c, _u, page) => {
      const type = (page.headers.get('content-type') ?? '').toLowerCase();
      return yes(type.includes('text/html') && type.includes('utf-8'), type, type || '(missing)');
    },
  ),
  perPage(
    'http.no-noindex-noai',
    'No noindex/noai X-Robots-Tag',
    'Remove noindex, noai and noimageai from X-Robots-Tag.',
    (_c, _u, page) => {
      const tag = (page.headers.get('x-robots-tag') ?? '').toLowerCase();
      const bad = ['noindex', 'noai', 'noimageai'].filter((t) => new RegExp(`\\b${t}\\b`).test(tag));
      return yes(!bad.length, tag ? `X-Robots-Tag: ${tag}` : 'no X-Robots-Tag', `X-Robots-Tag has ${bad.join(', ')}`);
    },
  ),
  perPage('html.canonical-link', 'Canonical link', 'Add <link rel="canonical" href="…">.', (_c, _u, page) => {
    const href = htmlOf(page).links.find((l) => l.rels.includes('canonical'))?.href;
    return yes(!!href, `canonical ${href}`, 'no <link rel="canonical">');
  }),
  perPage(
    'html.meta-description',
    'Meta description of 50+ characters',
    'Write a meta description of at least 50 characters.',
    (_c, _u, page) => {
      const text = (htmlOf(page).meta.get('description') ?? '').trim();
      return yes(text.length >= 50, `${text.length} characters`, text ? `${text.length} characters (under 50)` : 'no meta description');
    },
  ),
  perPage('html.og-title', 'og:title', 'Add <meta property="og:title">.', (_c, _u, page) =>
    yes(!!htmlOf(page).meta.get('og:title')?.trim(), 'present', 'no og:title'),
  ),
  perPage('html.og-description', 'og:description', 'Add <meta property="og:description">.', (_c, _u, page) =>
    yes(!!htmlOf(page).meta.get('og:description')?.trim(), 'present', 'no og:description'),
  ),
  perPage('html.lang-attribute', '<html lang>', 'Set <html lang="…">.', (_c, _u, page) =>
    yes(!!htmlOf(page).lang, `lang="${htmlOf(page).lang}"`, 'no lang attribute'),
  ),
  perPage('html.json-ld', 'JSON-LD that parses', 'Embed schema.org JSON-LD.', (_c, _u, page) => {
    const blocks = htmlOf(page).jsonLd;
    const good = blocks.filter((b) => {
      try {
        JSON.parse(b);
        return true;
      } catch {
        return false; // counted as not parsing
      }
    }).length;
    return yes(good > 0, `${good} block(s)`, blocks.length ? 'JSON-LD does not parse' : 'no JSON-LD');
  }),
  perPage('html.json-ld.date-modified', 'JSON-LD dateModified', 'Add dateModified (ISO 8601) to the page JSON-LD.', (_c, _u, page) => {
    const html = htmlOf(page);
    if (!html.jsonLd.length) return pageGrade('na', 'no JSON-LD');
    const date = jsonLdNodes(html)
      .map((n) => n.dateModified)
      .find((d) => typeof d === 'string' && SCHEMA_DATE.test(d));
    return yes(!!date, `dateModified ${String(date)}`, 'no valid dateModified');
  }),
  perPage('html.json-ld.breadcrumb', 'JSON-LD BreadcrumbList', 'Add a BreadcrumbList to the page JSON-LD.', (_c, _u, page) => {
    const html = htmlOf(page);
    if (!html.jsonLd.length) return pageGrade('na', 'no JSON-LD');
    return yes(
      jsonLdNodes(html).some((n) => typesOf(n).includes('BreadcrumbList')),
      'BreadcrumbList',
      'no BreadcrumbList',
    );
  }),
  perPage('html.headings', 'Three or more h1-h3 headings', 'Structure the page with at least three h1-h3 headings.', (_c, _u, page) => {
    const count = htmlOf(page).headings.filter((h) => ['h1', 'h2', 'h3'].includes(h)).length;
    return yes(count >= 3, `${count} headings`, `${count} h1-h3 heading(s)`);
  }),
  perPage(
    'html.text-ratio',
    'Text is over 15 % of the body',
    'Cut markup and inline scripts; keep the content in the HTML.',
    (_c, _u, page) => {
      const html = htmlOf(page);
      const ratio = html.text.length / Math.max(1, html.bodyLength);
      return yes(ratio > 0.15, `${Math.round(ratio * 100)} % text`, `${Math.round(ratio * 100)} % text (15 % needed)`);
    },
  ),
  perPage('html.glossary-link', 'Link to a glossary', 'Link a glossary or terminology page from each page.', (_c, _u, page) =>
    yes(
      htmlOf(page).anchors.some((a) => /glossary|terminology/i.test(a.text)),
      'links a glossary',
      'no link text mentions a glossary or terminology',
    ),
  ),
  perPage(
    'markdown.mirror-suffix',
    'Markdown mirror at <page>.md',
    'Serve each page as markdown at <page>.md.',
    async (ctx, url) => {
      const mirror = await mirrorOf(ctx, url);
      return yes(!!mirror, `mirror ${mirror ? shortUrl(ctx, mirror.url) : ''}`, 'no .md or .mdx mirror answers 2xx');
    },
    false,
  ),
  perPage(
    'markdown.alternate-link',
    '<link rel="alternate" type="text/markdown">',
    'Add <link rel="alternate" type="text/markdown" href="…/page.md">.',
    (_c, _u, page) => {
      const href = htmlOf(page).links.find((l) => l.rels.includes('alternate') && l.type === 'text/markdown')?.href;
      return yes(!!href, `alternate ${href}`, 'no markdown alternate link');
    },
  ),
  perPage(
    'markdown.frontmatter',
    'Mirror front matter',
    'Start each markdown mirror with YAML front matter: title, description, doc_version, last_updated.',
    async (ctx, url) => {
      const mirror = await mirrorOf(ctx, url);
      if (!mirror) return pageGrade('na', 'no mirror');
      const keys = frontMatterKeys(mirror.res.text);
      const missing = ['title', 'description', 'doc_version', 'last_updated'].filter((k) => !keys?.includes(k));
      return yes(
        !missing.length,
        'title, description, doc_version, last_updated',
        keys ? `front matter lacks ${missing.join(', ')}` : 'no YAML front matter',
      );
    },
    false,
  ),
  perPage(
    'markdown.canonical-header',
    'Mirror Link rel=canonical',
    'Send Link: <https://…/page>; rel="canonical" with each markdown mirror.',
    async (ctx, url) => {
      const mirror = await mirrorOf(ctx, url);
      if (!mirror) return pageGrade('na', 'no mirror');
      const canonical = parseLinkHeader(mirror.res.headers.get('link') ?? '').links.find((l) => l.rels.includes('canonical'));
      return yes(!!canonical, `canonical ${canonical?.href}`, 'the mirror sends no Link rel="canonical"');
    },
    false,
  ),
  perPage(
    'markdown.content-negotiation',
    'Accept: text/markdown returns markdown',
    'Answer Accept: text/markdown with the markdown of the page.',
    async (ctx, url) => {
      const res = await negotiatedMarkdown(ctx, url);
      const type = mediaType(res);
      return yes(
        ['text/markdown', 'text/x-markdown'].includes(type) && !looksLikeHtml(res.text),
        type,
        `Content-Type ${type || '(missing)'}`,
      );
    },
    false,
  ),
  perPage(
    'markdown.sitemap-section',
    'Mirror has a ## Sitemap section',
    'End each markdown mirror with a "## Sitemap" section linking the site map.',
    async (ctx, url) => {
      const mirror = await mirrorOf(ctx, url);
      if (!mirror) return pageGrade('na', 'no mirror');
      return yes(/^## Sitemap\s*$/m.test(mirror.res.text), '## Sitemap', 'no "## Sitemap" heading');
    },
    false,
  ),
  perPage('code.language-tags', 'Code blocks name their language', 'Add a language-* class to every <pre><code> block.', (_c, _u, page) => {
    const blocks = htmlOf(page).codeBlocks;
    if (!blocks.length) return pageGrade('na', 'no code blocks');
    const untagged = blocks.filter((classes) => !classes.some((c) => /^(?:language|lang)-/.test(c))).length;
    return yes(
      untagged === 0,
      `${blocks.length} block(s), all tagged`,
      `${untagged} of ${blocks.length} code blocks have no language-* class`,
    );
  }),
  perPage(
    'api.schema-link',
    'API pages link their schema',
    'Link the OpenAPI document (…/openapi.json) from API reference pages.',
    (_c, url, page) => {
      if (!/\/(?:api|reference|endpoints|swagger|openapi)/i.test(new URL(url).pathname)) return pageGrade('na', 'not an API page');
      const link = htmlOf(page).anchors.find((a) => /(?:openapi\.json|swagger\.json|swagger\.yaml|schema\.json)(?:[?#].*)?$/i.test(a.href));
      return yes(!!link, `links ${link?.href}`, 'no link to openapi.json, swagger.json/yaml or schema.json');
    },
  ),
  perPage(
    'discovery.indexed',
    'Page is in an index',
    'List every page in sitemap.xml, llms.txt or sitemap.md.',
    async (ctx, url) => {
      const indexed = await memo(ctx, 'a14y indexed', async () => {
        const set = new Set<string>();
        const sitemap = await first2xx(ctx, SITEMAP_PATHS);
        if (sitemap) for (const e of parseSitemap(sitemap.res.text).urls) set.add(e.loc.replace(/\/$/, ''));
        for (const file of [await llmsFile(ctx), await first2xx(ctx, SITEMAP_MD_PATHS)])
          if (file)
            for (const l of markdownLinks(file.res.text, file.res.url))
              set.add(
                l.url
                  .replace(/\.md$/, '')
                  .replace(/\/index$/, '')
                  .replace(/\/$/, ''),
              );
        return set;
      });
      const key = url.replace(/\/$/, '');
      return yes(indexed.has(key), 'in the sitemap, llms.txt or sitemap.md', 'reached only by crawling (in no index)');
    },
    false,
  ),
];

/** The Agent Readability Spec rubric (a14y scorecard 0.2.0). */
export const AGENT_READABILITY: Rubric = {
  id: 'agent-readability',
  name: 'Vercel Agent Readability Spec (a14y scorecard)',
  version: '0.2.0 (2026-04-06, flat-pool-v1)',
  definition: SCORECARD,
  checks: [...SITE_CHECKS, ...PAGE_CHECKS],
  summarize(results: readonly CheckResult[]): RubricSummary {
    let passed = 0;
    let applicable = 0;
    for (const r of results) {
      if (r.pages) {
        passed += r.pages.passed;
        applicable += r.pages.applicable;
      } else if (r.status !== 'neutral') {
        applicable++;
        if (r.status === 'pass') passed++;
      }
    }
    const score = applicable ? Math.round((100 * passed) / applicable) : 0;
    return { headline: `${score}/100 (${passed} of ${applicable} applicable results pass)`, score, passed, applicable };
  },
};
