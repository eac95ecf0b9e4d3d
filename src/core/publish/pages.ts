/**
 * The page registry: every HTML page of the site with its title, language, last change and
 * markdown twin. Sitemap, twins and llms.txt all read this list, so they cannot disagree.
 * @module
 */
import { apiDocsMarkdown, openApiDocument } from './openapi.ts';
import { developersHub, developersMarkdown } from './developers.ts';
import { ARTICLES_PER_PAGE, absoluteUrl, paths } from '../kernel/paths.ts';
import { type Article, type Catalog, type Lang } from '../content/catalog.ts';
import { markdownDocument } from '../content/markdown.ts';
import { categoryName, categoryTwin, docLine, documentTwin, productLine, productTwin, twinUrl } from '../content/twins.ts';

export { categoryName, twinUrl };

export type PageKind = 'home' | 'list' | 'article' | 'solution' | 'product' | 'static';

export interface SitePage {
  path: string;
  kind: PageKind;
  title: string;
  description: string;
  lang: Lang;
  /** YYYY-MM-DD of the newest content shown on the page. */
  lastmod: string;
  /** The complete markdown twin. */
  markdown: string;
  /** False for pages that exist but are not listed in the sitemap (the contact thank-you page). */
  listed?: boolean;
}

/** Number of listing pages for `count` articles. */
export function pageCount(count: number): number {
  return Math.max(1, Math.ceil(count / ARTICLES_PER_PAGE));
}

/** The articles shown on listing page `page` (1-based). */
export function articlesOnPage(articles: readonly Article[], page: number): Article[] {
  return articles.slice((page - 1) * ARTICLES_PER_PAGE, page * ARTICLES_PER_PAGE);
}

/** Each article (newest first) with its newer and older neighbours, in one pass over the list. */
export function withNeighbours(articles: readonly Article[]): { doc: Article; newer?: Article | undefined; older?: Article | undefined }[] {
  return articles.map((doc, i) => ({ doc, newer: articles[i - 1], older: articles[i + 1] }));
}

function newest(dates: (string | undefined)[], fallback: string): string {
  return dates.filter((d): d is string => Boolean(d)).sort().at(-1) ?? fallback;
}

/** Builds every page of the site from the catalogue, family by family (the sitemap keeps this order). */
export function sitePages(catalog: Catalog): SitePage[] {
  const today = newest([...catalog.articles, ...catalog.solutions].flatMap((d) => [d.date, d.updated]), '2026-01-01');
  return [homePage, blogPages, categoryPages, articlePages, solutionPages, productPages, servicePages].flatMap((family) => family(catalog, today));
}

/** The home page. */
function homePage(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, categories, articles, solutions, products } = catalog;
  const pages: SitePage[] = [];
  pages.push({
    path: paths.home,
    kind: 'home',
    title: `${company.name}: ${company.tagline}`,
    description: company.description,
    lang: 'en',
    lastmod: today,
    markdown: markdownDocument(origin, company.name, company.tagline, [['URL', absoluteUrl(origin, '/')]], [
      company.description,
      company.description_zh,
      '## Latest articles',
      articles.slice(0, 6).map((a) => docLine(origin, a, categories)).join('\n'),
      '## Products',
      products.map((p) => productLine(origin, p)).join('\n'),
      '## Solutions',
      solutions.map((s) => docLine(origin, s, categories)).join('\n'),
      '## More',
      [
        `- [Blog](${twinUrl(origin, paths.blog)}): all articles`,
        `- [Contact](${twinUrl(origin, paths.contact)}): talk to ${company.name}`,
        `- [llms.txt](${absoluteUrl(origin, paths.llms)}): index for language models`,
      ].join('\n'),
    ].join('\n\n')),
  });
  return pages;
}

/** The blog listing, one page per ARTICLES_PER_PAGE articles. */
function blogPages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, categories, articles } = catalog;
  const pages: SitePage[] = [];
  const totalPages = pageCount(articles.length);
  for (let page = 1; page <= totalPages; page++) {
    const items = articlesOnPage(articles, page);
    const path = paths.blogPage(page);
    const nav = [
      page > 1 ? `- Newer: [page ${page - 1}](${twinUrl(origin, paths.blogPage(page - 1))})` : null,
      page < totalPages ? `- Older: [page ${page + 1}](${twinUrl(origin, paths.blogPage(page + 1))})` : null,
    ].filter(Boolean).join('\n');
    pages.push({
      path,
      kind: 'list',
      title: page === 1 ? 'Blog' : `Blog, page ${page}`,
      description: `Articles from ${company.name} on private LLM deployment, agents, AIGC and API gateways (page ${page} of ${totalPages}).`,
      lang: 'en',
      lastmod: newest(items.map((a) => a.updated ?? a.date), today),
      markdown: markdownDocument(origin, page === 1 ? 'Blog' : `Blog, page ${page} of ${totalPages}`, `Articles from ${company.name}, newest first.`, [['URL', absoluteUrl(origin, path)]], [
        items.map((a) => docLine(origin, a, categories)).join('\n'),
        nav ? `## More pages\n\n${nav}` : '',
        '## Categories',
        categories.map((c) => `- [${c.name} (${c.name_zh})](${twinUrl(origin, paths.category(c.slug))}): ${c.description}`).join('\n'),
      ].filter(Boolean).join('\n\n')),
    });
  }
  return pages;
}

/** One listing per category. */
function categoryPages(catalog: Catalog, today: string): SitePage[] {
  const { categories, articles } = catalog;
  const pages: SitePage[] = [];
  for (const category of categories) {
    const items = articles.filter((a) => a.category === category.slug);
    const path = paths.category(category.slug);
    pages.push({
      path,
      kind: 'list',
      title: `${category.name} (${category.name_zh})`,
      description: category.description,
      lang: 'en',
      lastmod: newest(items.map((a) => a.updated ?? a.date), today),
      markdown: categoryTwin(catalog, category),
    });
  }
  return pages;
}

/** One page per article. */
function articlePages(catalog: Catalog): SitePage[] {
  const { articles } = catalog;
  const pages: SitePage[] = [];
  for (const article of articles) {
    pages.push({
      path: article.path,
      kind: 'article',
      title: article.title,
      description: article.excerpt,
      lang: article.lang,
      lastmod: article.updated ?? article.date,
      markdown: documentTwin(catalog, article),
    });
  }
  return pages;
}

/** The solutions listing and one page per solution. */
function solutionPages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, categories, solutions } = catalog;
  const pages: SitePage[] = [];
  pages.push({
    path: paths.solutions,
    kind: 'list',
    title: 'Solutions',
    description: `How ${company.name} platforms are deployed in finance, government, manufacturing and more.`,
    lang: 'en',
    lastmod: newest(solutions.map((s) => s.updated ?? s.date), today),
    markdown: markdownDocument(origin, 'Solutions', `Industry solutions built on ${company.name} products.`, [['URL', absoluteUrl(origin, paths.solutions)]],
      solutions.map((s) => docLine(origin, s, categories)).join('\n')),
  });
  for (const solution of solutions) {
    pages.push({
      path: solution.path,
      kind: 'solution',
      title: solution.title,
      description: solution.excerpt,
      lang: solution.lang,
      lastmod: solution.updated ?? solution.date,
      markdown: documentTwin(catalog, solution),
    });
  }
  return pages;
}

/** The products listing and one page per product. */
function productPages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company, products } = catalog;
  const pages: SitePage[] = [];
  pages.push({
    path: paths.products,
    kind: 'list',
    title: 'Products',
    description: `${company.name} products: ${products.map((p) => p.name).join(', ')}.`,
    lang: 'en',
    lastmod: today,
    markdown: markdownDocument(origin, 'Products', `What ${company.name} builds.`, [['URL', absoluteUrl(origin, paths.products)]], products.map((p) => productLine(origin, p)).join('\n')),
  });
  for (const product of products) {
    pages.push({
      path: product.path,
      kind: 'product',
      title: product.name,
      description: product.summary,
      lang: 'en',
      lastmod: today,
      markdown: productTwin(origin, product),
    });
  }
  return pages;
}

/** Search, contact, API reference, developers hub and the contact thank-you page. */
function servicePages(catalog: Catalog, today: string): SitePage[] {
  const { origin, company } = catalog;
  const pages: SitePage[] = [];
  pages.push({
    path: paths.search,
    kind: 'static',
    title: 'Search',
    description: `Search ${company.name} articles and solutions in Chinese or English.`,
    lang: 'en',
    lastmod: today,
    markdown: markdownDocument(origin, 'Search', `Search ${company.name} articles and solutions in Chinese or English.`, [['URL', absoluteUrl(origin, paths.search)]],
      [
        `The search page asks the search API as you type; \`${paths.search}?q=<text>\` opens it with a query.`,
        `Agents search the same index directly: \`GET ${absoluteUrl(origin, paths.apiSearch)}?q=<text>\` returns JSON results, best first (see the [API reference](${twinUrl(origin, paths.apiDocs)})), or the MCP tool \`search_articles\` at ${absoluteUrl(origin, paths.mcp)}.`,
        `To read everything: [llms-full.txt](${absoluteUrl(origin, paths.llmsFull)}); to list it: [llms.txt](${absoluteUrl(origin, paths.llms)}).`,
      ].join('\n\n')),
  });

  pages.push({
    path: paths.contact,
    kind: 'static',
    title: 'Contact',
    description: `Contact ${company.name}: sales, partnerships and press.`,
    lang: 'en',
    lastmod: today,
    markdown: markdownDocument(origin, `Contact ${company.name}`, company.tagline, [['URL', absoluteUrl(origin, paths.contact)]], [
      '## Channels',
      company.contact.map((c) => `- ${c.label}: ${c.url ? `[${c.value}](${c.url})` : c.value}`).join('\n'),
      `Headquarters: ${company.headquarters}.`,
    ].join('\n\n')),
  });

  pages.push({
    path: paths.apiDocs,
    kind: 'static',
    title: 'API reference',
    description: `The ${company.name} HTTP API: search, feed, contact, health, the MCP server and OAuth; OpenAPI 3.1 at /openapi.json.`,
    lang: 'en',
    lastmod: today,
    markdown: apiDocsMarkdown(origin, openApiDocument(origin, company)),
  });

  const hub = developersHub(origin, company.name);
  pages.push({
    path: paths.developers,
    kind: 'static',
    title: hub.title,
    description: hub.summary,
    lang: 'en',
    lastmod: today,
    markdown: developersMarkdown(origin, hub),
  });

  pages.push({
    path: paths.contactThanks,
    kind: 'static',
    title: 'Thank you',
    description: `Your enquiry reached ${company.name}.`,
    lang: 'en',
    lastmod: today,
    listed: false,
    markdown: markdownDocument(origin, 'Thank you', `Your enquiry reached ${company.name}.`, [['URL', absoluteUrl(origin, paths.contactThanks)]],
      `An engineer from ${company.name} answers within one working day. Meanwhile, read the [blog](${twinUrl(origin, paths.blog)}).`),
  });
  return pages;
}
