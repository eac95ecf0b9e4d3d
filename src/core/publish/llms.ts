/**
 * llms.txt (llmstxt.org) at three levels: the root `/llms.txt`, one per language (`/zh/llms.txt`,
 * `/en/llms.txt`), and, when a language's list outgrows {@link LLMS_TXT_MAX_CHARS}, sectioned
 * indexes by category (`/en/llms/rag.txt`, `/en/llms/rag-2.txt`, ...). Every file stays under the
 * budget, so an agent that reads a whole file into its context reads a bounded one; a small site
 * keeps the single root file listing every page of the sitemap (that is what most readers fetch,
 * and what AFDocs' llms-txt-coverage compares with the sitemap).
 *
 * The root's links all point at markdown twins (`.md`) that answer GET 200: the Agent Readability
 * Spec wants every llms.txt link to end in `.md`, AFDocs and Mintlify want every link to resolve.
 * Endpoints and non-markdown files (`/mcp` answers GET with 405, llms-full.txt, the JSON catalogues)
 * are named as code spans instead. The one exception is the root of a site too large to list: it
 * links the language indexes, their sections and each language's other pages (`/{lang}/llms/pages.txt`),
 * every file that lists pages one level down: the progressive disclosure AFDocs walks, one level deep.
 * @module
 */
import { AGENT_ENTRY_POINTS } from './entry-points.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { DEFAULT_READ_RULES } from '../kernel/read-limit.ts';
import { LANGS } from '../content/i18n.ts';
import type { Catalog, Document, Lang } from '../content/catalog.ts';
import { categoryName, type SitePage, sitePages, twinUrl } from './pages.ts';
import { agentInstructions } from '../agent-tools/instructions.ts';

/** Upper bound on one llms.txt file, in characters (issue 27: each under 50,000 at 10,000 articles). */
export const LLMS_TXT_MAX_CHARS = 50_000;

/** One published llms file: its site path and text. */
export interface LlmsFile {
  path: string;
  text: string;
}

const LANGUAGE_NAMES: Record<Lang, string> = { zh: 'Chinese (中文)', en: 'English' };

const section = (heading: string, lines: readonly string[]): string => `## ${heading}\n\n${lines.join('\n')}`;
const link = (title: string, url: string, note: string): string => `- [${title}](${url}): ${note}`;
/** A resource named without a hyperlink (an endpoint or a file that is not markdown): its URL as a code span. */
const named = (title: string, url: string, note: string): string => `- ${title}: \`${url}\`. ${note}`;

function documentLine(catalog: Catalog, d: Document): string {
  const note =
    d.type === 'solution' && 'industry' in d
      ? `${d.industry}, ${d.lang}. ${d.excerpt}`
      : `${d.date}, ${categoryName(catalog.categories, d.category, d.lang)}, ${d.lang}. ${d.excerpt}`;
  return link(d.title, twinUrl(catalog.origin, d.path), note);
}

function header(catalog: Catalog, title: string): string[] {
  const { company } = catalog;
  return [
    `# ${title}`,
    `> ${company.description.replace(/\s*\n\s*/g, ' ')}`,
    `${company.name_zh}: ${company.description_zh}`,
    `Every page has a markdown twin: append \`.md\` to its path, or request it with \`Accept: text/markdown\`. ${company.operator_attribution}`,
    readLimitsNote(catalog.origin),
  ];
}

/** What llms.txt says of the read limits (kernel/read-limit.ts), at their defaults, and where auth.md says how to get more. */
function readLimitsNote(origin: string): string {
  const { anonymous, verified } = DEFAULT_READ_RULES;
  return (
    `Search, MCP and A2A need no key: ${anonymous.burst} requests at once, then ${anonymous.perSecond} a second, per network. ` +
    `Agents that sign their requests with Web Bot Auth get ${verified.burst} and ${verified.perSecond}: ${absoluteUrl(origin, paths.authMd)}#read-limits`
  );
}

/** How many articles and solutions, in words: "1 article or solution", "3 articles and solutions". */
const documentCount = (n: number): string => (n === 1 ? '1 article or solution' : `${n} articles and solutions`);

/** The language indexes: linked when the root cannot list every document itself, else named (every root link stays `.md`). */
function languageLinks(catalog: Catalog, linked: boolean): string[] {
  return LANGS.map((lang) => {
    const count = catalog.articles.filter((a) => a.lang === lang).length + catalog.solutions.filter((s) => s.lang === lang).length;
    return (linked ? link : named)(
      `${LANGUAGE_NAMES[lang]} index`,
      absoluteUrl(catalog.origin, paths.langLlms(lang)),
      `${documentCount(count)} in ${lang}`,
    );
  });
}

/** Is a page part of the developer documentation (the hub in each language and the API reference)? */
const isDocsPage = (path: string): boolean =>
  path === paths.developers || path === paths.langDevelopers('zh') || path === paths.apiDocs || path.startsWith(`${paths.apiDocs}/`);

/**
 * The "## Docs" section (the heading Mintlify's llms-txt-directive-format looks for): the developer
 * documentation, each page's twin, then auth.md.
 */
function docsSection(catalog: Catalog, pages: readonly SitePage[]): string {
  const { origin } = catalog;
  return section('Docs', [
    ...pages.filter((p) => p.listed !== false && isDocsPage(p.path)).map((p) => link(p.title, twinUrl(origin, p.path), p.description)),
    link('Agent authorization guide (auth.md)', absoluteUrl(origin, paths.authMd), 'register anonymously, get a token, revoke it'),
  ]);
}

/**
 * Every other page of the sitemap, by title (listings, categories, tags, search, contact, the Chinese
 * editions): with the sections above, the root then lists every page the sitemap does.
 */
function otherPages(catalog: Catalog, pages: readonly SitePage[], listed: ReadonlySet<string>): string {
  const lines = pages
    .filter((p) => p.listed !== false && !listed.has(p.path) && !isDocsPage(p.path))
    .map((p) => `- [${p.title}](${twinUrl(catalog.origin, p.path)})`);
  return section('Pages', lines);
}

function closing(catalog: Catalog): string[] {
  const { origin } = catalog;
  return [
    section(
      'For agents',
      AGENT_ENTRY_POINTS.map((e) => named(e.title, absoluteUrl(origin, e.path), `${e.type}. ${e.description}`)),
    ),
    section('Instructions for agents', [agentInstructions(catalog)]),
    section('Optional', [
      link('Site map', absoluteUrl(origin, paths.sitemapMarkdown), 'every page of the site, by section, linking each twin'),
      link('Blog index', twinUrl(origin, paths.blog), 'articles, newest first'),
      link('Contact', twinUrl(origin, paths.contact), 'the contact channels and the enquiry form'),
      named('RSS', absoluteUrl(origin, paths.rss), 'Feed of new articles.'),
      named('Sitemap (XML)', absoluteUrl(origin, paths.sitemap), 'Every HTML page.'),
    ]),
  ];
}

const join = (blocks: readonly string[]): string => [...blocks, ''].join('\n\n');

/** Splits `lines` into runs whose joined length stays within `budget` characters (a line longer than that stands alone). */
function chunkByChars(lines: readonly string[], budget: number): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (current.length > 0 && size + line.length + 1 > budget) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(line);
    size += line.length + 1;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Characters kept for a section file's header and closing lines. */
const SECTION_OVERHEAD_CHARS = 2_000;

/** The section name of a language's other pages (`/{lang}/llms/pages.txt`): not a category slug. */
const PAGES_SECTION = 'pages';

/**
 * A large site's other pages in one language (listings, categories, tags, search, contact, the glossary):
 * `/{lang}/llms/pages.txt`, then `pages-2.txt`... when they outgrow one file. The root links them, so an
 * agent that follows the root's links one level deep (AFDocs' coverage walk) reaches every page the sitemap lists.
 */
function pagesFiles(catalog: Catalog, lang: Lang, others: readonly SitePage[]): LlmsFile[] {
  const { origin, company } = catalog;
  const lines = others.map((p) => `- [${p.title}](${twinUrl(origin, p.path)})`);
  if (lines.length === 0) return [];
  const title = `${lang === 'zh' ? company.name_zh : company.name}: ${LANGUAGE_NAMES[lang]}`;
  const parts = chunkByChars(lines, LLMS_TXT_MAX_CHARS - SECTION_OVERHEAD_CHARS);
  return parts.map((part, i) => ({
    path: paths.langLlmsSection(lang, i === 0 ? PAGES_SECTION : `${PAGES_SECTION}-${i + 1}`),
    text: join([
      `# ${title}: pages${parts.length > 1 ? ` (${i + 1}/${parts.length})` : ''}`,
      `${part.length} pages other than articles, solutions and products: listings, categories, tags, search, contact. Index of this language: ${absoluteUrl(origin, paths.langLlms(lang))}`,
      section('Pages', part),
    ]),
  }));
}

/** One language's files: its index and, when the full list does not fit, one file per category part. */
function languageFiles(catalog: Catalog, lang: Lang): LlmsFile[] {
  const { origin, company } = catalog;
  const solutions = catalog.solutions.filter((s) => s.lang === lang);
  const articles = catalog.articles.filter((a) => a.lang === lang);
  const title = `${lang === 'zh' ? company.name_zh : company.name}: ${LANGUAGE_NAMES[lang]}`;
  const back = link('All languages', absoluteUrl(origin, paths.llms), 'the root index');
  const full = join([
    ...header(catalog, title),
    section(
      'Solutions',
      solutions.map((s) => documentLine(catalog, s)),
    ),
    section(
      'Articles',
      articles.map((a) => documentLine(catalog, a)),
    ),
    section('Instructions for agents', [agentInstructions(catalog)]),
    section('Elsewhere', [back]),
  ]);
  if (full.length <= LLMS_TXT_MAX_CHARS) return [{ path: paths.langLlms(lang), text: full }];

  const files: LlmsFile[] = [];
  const sectionLinks: string[] = [];
  const docs = [...solutions, ...articles];
  // The declared categories in order, then any a document names that is not declared: no document is left out.
  const slugs = [...new Set([...catalog.categories.map((c) => c.slug), ...docs.map((d) => d.category)])];
  for (const slug of slugs) {
    const inCategory = docs.filter((d) => d.category === slug);
    if (inCategory.length === 0) continue;
    const parts = chunkByChars(
      inCategory.map((d) => documentLine(catalog, d)),
      LLMS_TXT_MAX_CHARS - SECTION_OVERHEAD_CHARS,
    );
    parts.forEach((lines, i) => {
      const path = paths.langLlmsSection(lang, i === 0 ? slug : `${slug}-${i + 1}`);
      const name = `${categoryName(catalog.categories, slug, lang)}${parts.length > 1 ? ` (${i + 1}/${parts.length})` : ''}`;
      files.push({
        path,
        text: join([
          `# ${title}: ${name}`,
          `${lines.length} documents, newest first. Index of this language: ${absoluteUrl(origin, paths.langLlms(lang))}`,
          section('Documents', lines),
        ]),
      });
      sectionLinks.push(link(name, absoluteUrl(origin, path), documentCount(lines.length)));
    });
  }
  const index = join([
    ...header(catalog, title),
    `${documentCount(docs.length)} in ${LANGUAGE_NAMES[lang]}, too many for one file: each section below lists one category.`,
    section('Sections', sectionLinks),
    section('Instructions for agents', [agentInstructions(catalog)]),
    section('Elsewhere', [back]),
  ]);
  return [{ path: paths.langLlms(lang), text: index }, ...files];
}

/**
 * Every llms file: `/llms.txt` first, then each language's index and sections. The root lists
 * every page of `pages` (the registry: what the sitemap lists) while it fits the budget, and
 * always points to the language indexes: named while the root lists everything, linked after.
 */
export function llmsFiles(catalog: Catalog, pages: readonly SitePage[] = sitePages(catalog)): LlmsFile[] {
  const { origin } = catalog;
  const products = section(
    'Products',
    catalog.products.map((p) => link(p.name, twinUrl(origin, p.path), p.summary)),
  );
  const docs = docsSection(catalog, pages);
  // Listed above, or in the Optional section below.
  const listed = new Set([
    ...[...catalog.products, ...catalog.solutions, ...catalog.articles].map((d) => d.path),
    paths.blog,
    paths.contact,
  ]);
  const full = join([
    ...header(catalog, catalog.company.name),
    docs,
    products,
    section('By language', languageLinks(catalog, false)),
    section(
      'Solutions',
      catalog.solutions.map((s) => documentLine(catalog, s)),
    ),
    section(
      'Articles',
      catalog.articles.map((a) => documentLine(catalog, a)),
    ),
    otherPages(catalog, pages, listed),
    ...closing(catalog),
  ]);
  const languages = LANGS.flatMap((lang) => languageFiles(catalog, lang));
  if (full.length <= LLMS_TXT_MAX_CHARS) return [{ path: paths.llms, text: full }, ...languages];
  // Too large for one file: the root links every file that lists pages (each language's index or its
  // sections, and its other pages), all one level down, as AFDocs' coverage check walks them.
  const others = LANGS.flatMap((lang) =>
    pagesFiles(
      catalog,
      lang,
      pages.filter((p) => p.lang === lang && p.listed !== false && !listed.has(p.path) && !isDocsPage(p.path)),
    ),
  );
  const isSection = (f: LlmsFile): boolean => LANGS.some((lang) => f.path.startsWith(`${paths.langLlms(lang).replace(/\.txt$/, '')}/`));
  const sectionLinks = languages
    .filter(isSection)
    .map((f) => link(f.text.split('\n')[0]!.replace(/^# /, ''), absoluteUrl(origin, f.path), 'documents'));
  const pagesLinks = others.map((f) =>
    link(f.text.split('\n')[0]!.replace(/^# /, ''), absoluteUrl(origin, f.path), 'listings, categories, tags and other pages'),
  );
  const root = join([
    ...header(catalog, catalog.company.name),
    docs,
    products,
    `${catalog.articles.length + catalog.solutions.length} articles and solutions: listed per language.`,
    section('By language', languageLinks(catalog, true)),
    ...(sectionLinks.length ? [section('Sections', sectionLinks)] : []),
    section('Other pages', pagesLinks),
    ...closing(catalog),
  ]);
  const files = [{ path: paths.llms, text: root }, ...languages, ...others];
  const clash = files.find((f, i) => files.findIndex((g) => g.path === f.path) !== i);
  if (clash) throw new Error(`llms.txt: two files at ${clash.path} (a category named "${PAGES_SECTION}"?)`);
  return files;
}

/** llms.txt per llmstxt.org: H1, summary blockquote, prose, then H2 sections of links to the markdown twins. */
export function llmsTxt(catalog: Catalog, pages: readonly SitePage[] = sitePages(catalog)): string {
  return llmsFiles(catalog, pages)[0]!.text;
}
