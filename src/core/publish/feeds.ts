/**
 * Plain-text and XML documents for crawlers and agents: robots.txt, sitemap.xml, RSS, llms.txt,
 * llms-full.txt. Pure functions of the catalogue and the page registry.
 * @module
 */
import { absoluteUrl, OAUTH_PATHS, paths } from '../kernel/paths.ts';
import { langTag, LANGS } from '../content/i18n.ts';
import { type Catalog, documentsOf, type Lang } from '../content/catalog.ts';
import { demoteHeadings, withoutIndexPointer } from '../content/markdown.ts';
import { categoryName, type PageKind, type SitePage, twinUrl } from './pages.ts';
import { agentInstructionsSection, twinSitemapSection, withoutAgentInstructions } from '../agent-tools/instructions.ts';

/** The Content Signals this site grants (contentsignals.org). */
export const CONTENT_SIGNAL = 'ai-train=yes, search=yes, ai-input=yes';

/** AI crawlers and agents named in their own robots.txt group, so their policy is explicit. */
export const AI_USER_AGENTS = [
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'Claude-Web',
  'anthropic-ai',
  'Google-Extended',
  'Applebot-Extended',
  'PerplexityBot',
  'Perplexity-User',
  'CCBot',
  'Bytespider',
  'Amazonbot',
  'meta-externalagent',
  'FacebookBot',
  'cohere-ai',
  'Diffbot',
  'omgilibot',
] as const;

/**
 * The pages only a person uses: the OAuth consent page and the claim approval page. Nothing else is
 * disallowed: the contract tells agents to call /api, /mcp, /a2a and the OAuth endpoints (register,
 * token, revoke, claim, jwks.json) and to honour robots.txt, and frameworks that check robots on
 * every fetch would otherwise refuse them (robots-parser decides by the longest matching rule, so
 * `/oauth/claim/verify` leaves `/oauth/claim` open).
 */
export const DISALLOWED_PATHS: readonly string[] = [OAUTH_PATHS.authorize, OAUTH_PATHS.claimVerify, '/ops/'];

export function robotsTxt(catalog: Pick<Catalog, 'origin' | 'company'>): string {
  const rules = [`Content-Signal: ${CONTENT_SIGNAL}`, 'Allow: /', ...DISALLOWED_PATHS.map((p) => `Disallow: ${p}`)];
  return [
    `# robots.txt for ${catalog.company.name}`,
    `# Content Signals (https://contentsignals.org): training, search and AI input are all allowed.`,
    `# Attribution: ${catalog.company.operator_attribution}`,
    '',
    'User-agent: *',
    ...rules,
    '',
    ...AI_USER_AGENTS.map((ua) => `User-agent: ${ua}`),
    ...rules,
    '',
    `Sitemap: ${absoluteUrl(catalog.origin, paths.sitemap)}`,
    '',
  ].join('\n');
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

/**
 * URLs one sitemap file may list: the sitemaps.org protocol allows 50,000 (and 50 MB uncompressed);
 * past it crawlers ignore the rest. A larger site gets a sitemap index at /sitemap.xml instead.
 */
export const SITEMAP_URL_LIMIT = 50_000;

/** Where part `n` (1-based) of a sitemap too large for one file is served. */
export function sitemapPartPath(n: number): string {
  return `/sitemap-${n}.xml`;
}

/** The listed pages, in registry order, cut into the parts of at most {@link SITEMAP_URL_LIMIT} each. */
function sitemapParts(pages: readonly SitePage[]): SitePage[][] {
  const listed = pages.filter((p) => p.listed !== false);
  const parts: SitePage[][] = [];
  for (let i = 0; i < listed.length; i += SITEMAP_URL_LIMIT) parts.push(listed.slice(i, i + SITEMAP_URL_LIMIT));
  return parts;
}

/** How many numbered parts the sitemap needs: 0 while one file holds every listed page. */
export function sitemapPartCount(pages: readonly SitePage[]): number {
  const parts = sitemapParts(pages);
  return parts.length > 1 ? parts.length : 0;
}

function urlset(origin: string, pages: readonly SitePage[]): string {
  const urls = pages.map(
    (p) => `  <url>\n    <loc>${escapeXml(absoluteUrl(origin, p.path))}</loc>\n    <lastmod>${p.lastmod}</lastmod>\n  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * /sitemap.xml: every listed page (sitemaps.org 0.9), or, past {@link SITEMAP_URL_LIMIT} pages, a
 * sitemap index naming the parts ({@link sitemapPartXml}) with each part's newest change.
 */
export function sitemapXml(origin: string, pages: readonly SitePage[]): string {
  const parts = sitemapParts(pages);
  if (parts.length <= 1) return urlset(origin, parts[0] ?? []);
  const entries = parts.map((part, i) => {
    // ISO dates compare as strings (Math.max does not take strings).
    let lastmod = '';
    for (const p of part) if (p.lastmod > lastmod) lastmod = p.lastmod;
    return `  <sitemap>\n    <loc>${escapeXml(absoluteUrl(origin, sitemapPartPath(i + 1)))}</loc>\n    <lastmod>${lastmod}</lastmod>\n  </sitemap>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

/** The headings of /sitemap.md, one per page kind, in the order they appear. */
const SITEMAP_MD_SECTIONS: readonly [PageKind, string][] = [
  ['home', 'Home'],
  ['static', 'Developers, search and contact'],
  ['product', 'Products'],
  ['solution', 'Solutions'],
  ['article', 'Articles'],
  ['list', 'Listings, categories and tags'],
];

/** The language headings of /sitemap.md. */
const SITEMAP_MD_LANGUAGES: Record<Lang, string> = { en: 'English', zh: 'Chinese (中文)' };

/**
 * /sitemap.md: the pages sitemap.xml lists, as markdown for agents (the Agent Readability Spec's
 * sitemap.md): one section per language, one sub-section per kind of page, each page linked to its
 * twin by its title. Registry order within a section (newest first for documents).
 */
export function sitemapMarkdown(catalog: Pick<Catalog, 'origin' | 'company'>, pages: readonly SitePage[]): string {
  const { origin, company } = catalog;
  const listed = pages.filter((p) => p.listed !== false);
  const blocks = [
    `# ${company.name}: site map`,
    `> Every page of this site (${listed.length}), by language and kind, each linked to its markdown twin; the HTML page is the same URL without \`.md\`. The same list as XML: ${absoluteUrl(origin, paths.sitemap)}; an index with summaries: ${absoluteUrl(origin, paths.llms)}`,
  ];
  for (const lang of LANGS) {
    const ofLang = listed.filter((p) => p.lang === lang);
    if (!ofLang.length) continue;
    blocks.push(`## ${SITEMAP_MD_LANGUAGES[lang]}`);
    for (const [kind, heading] of SITEMAP_MD_SECTIONS) {
      const lines = ofLang.filter((p) => p.kind === kind).map((p) => `- [${p.title}](${twinUrl(origin, p.path)})`);
      if (lines.length) blocks.push(`### ${heading}`, lines.join('\n'));
    }
  }
  return `${blocks.join('\n\n')}\n`;
}

/** Part `n` (1-based) of a sitemap that needs an index: at most {@link SITEMAP_URL_LIMIT} pages. */
export function sitemapPartXml(origin: string, pages: readonly SitePage[], n: number): string {
  const part = sitemapParts(pages)[n - 1];
  if (!part) throw new Error(`the sitemap has no part ${n}`);
  return urlset(origin, part);
}

/** RFC 822 date for RSS from YYYY-MM-DD (midnight UTC). */
function rfc822(day: string): string {
  return new Date(`${day}T00:00:00Z`).toUTCString();
}

/** Number of items in the RSS feed. */
export const RSS_ITEM_LIMIT = 50;

/** The RSS feed of every article, or (with `lang`) of one language's articles: /rss.xml, /zh/rss.xml, /en/rss.xml. */
export function rssXml(catalog: Catalog, lang?: Lang): string {
  const { origin, company, categories } = catalog;
  const articles = lang ? catalog.articles.filter((a) => a.lang === lang) : catalog.articles;
  const items = articles.slice(0, RSS_ITEM_LIMIT).map((a) => {
    const url = absoluteUrl(origin, a.path);
    return [
      '    <item>',
      `      <title>${escapeXml(a.title)}</title>`,
      `      <link>${escapeXml(url)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(url)}</guid>`,
      `      <pubDate>${rfc822(a.date)}</pubDate>`,
      `      <category>${escapeXml(categoryName(categories, a.category, a.lang))}</category>`,
      `      <description>${escapeXml(a.excerpt)}</description>`,
      '    </item>',
    ].join('\n');
  });
  const newestDay = articles[0]?.date ?? '2026-01-01';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(feedTitle(company, lang))}</title>`,
    `    <link>${escapeXml(absoluteUrl(origin, lang ? paths.langBlog(lang) : paths.blog))}</link>`,
    `    <description>${escapeXml(lang === 'zh' ? (company.tagline_zh ?? company.tagline) : company.tagline)}</description>`,
    ...(lang ? [`    <language>${langTag(lang)}</language>`] : []),
    `    <atom:link href="${escapeXml(absoluteUrl(origin, lang ? paths.langRss(lang) : paths.rss))}" rel="self" type="application/rss+xml"/>`,
    `    <lastBuildDate>${rfc822(newestDay)}</lastBuildDate>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

/** A feed's title: "Acme AI Blog", "Acme AI Blog (English)", "艾克米智能博客（中文）". */
export function feedTitle(company: Pick<Catalog['company'], 'name' | 'name_zh'>, lang?: Lang): string {
  if (lang === 'zh') return `${company.name_zh}博客（中文）`;
  if (lang === 'en') return `${company.name} Blog (English)`;
  return `${company.name} Blog`;
}

/** llms-full.txt: the whole published corpus as one markdown document. */
export function llmsFullTxt(catalog: Catalog, pages: readonly SitePage[]): string {
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const instructions = agentInstructionsSection(catalog);
  const sitemap = twinSitemapSection(catalog.origin).trim();
  const bodies = [...catalog.products.map((p) => p.path), ...documentsOf(catalog).map((d) => d.path)]
    .map((path) => byPath.get(path)?.markdown)
    .filter((md): md is string => Boolean(md))
    // One pointer to llms.txt in the header below, not one per document; no twin's site map section.
    .map((md) => withoutAgentInstructions(withoutIndexPointer(md), instructions).trim())
    .map((md) => (md.endsWith(sitemap) ? md.slice(0, -sitemap.length).trim() : md))
    // Demote each document one level so the file keeps a single H1.
    .map(demoteHeadings);
  return [
    `# ${catalog.company.name}: full text`,
    '',
    `> ${catalog.company.description.replace(/\s*\n\s*/g, ' ')}`,
    '',
    `${catalog.company.operator_attribution} Source index: ${absoluteUrl(catalog.origin, paths.llms)}`,
    '',
    bodies.join('\n\n---\n\n'),
    '',
    '---',
    '',
    instructions,
  ].join('\n');
}
