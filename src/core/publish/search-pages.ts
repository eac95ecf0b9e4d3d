/**
 * The pages the article index does not hold but a reader searches for by name: the products, the
 * products and solutions listings, the API reference (overview and each operation) and the
 * developers hub. A few dozen entries (title, description, path), served as /search/pages.json and
 * matched in the browser by the search page and the header's palette beside the article hits, so
 * "gateway" finds the LLM Gateway product.
 * @module
 */
import type { Catalog } from '../content/catalog.ts';
import { otherLang } from '../content/i18n.ts';
import { inChrome, paths } from '../kernel/paths.ts';
import { type SitePage, tagListings } from './pages.ts';

/** One page a search can name. */
export interface SearchablePage {
  title: string;
  description: string;
  path: string;
  type: 'product' | 'page';
  lang: 'zh' | 'en';
  /** More words the page is found by (the developers hub's sections, tools and clients), one line each. */
  text?: string;
}

/** The searchable pages among the site's pages, products first. */
export function searchablePages(pages: readonly SitePage[]): SearchablePage[] {
  const named = new Set<string>([
    paths.products,
    paths.solutions,
    paths.developers,
    paths.langDevelopers('zh'),
    paths.apiDocs,
    paths.apiAll,
  ]);
  return pages
    .filter((page) => page.kind === 'product' || named.has(page.path) || page.path.startsWith(`${paths.apiDocs}/`))
    .map((page) => ({
      title: page.title,
      description: page.description,
      path: page.path,
      type: page.kind === 'product' ? ('product' as const) : ('page' as const),
      lang: page.lang,
      ...(page.searchText ? { text: page.searchText } : {}),
    }))
    .sort((a, b) => (a.type === b.type ? 0 : a.type === 'product' ? -1 : 1));
}

/**
 * The addresses the 404 page matches a mistyped one against (/search/addresses.json, beside /search/pages.json;
 * src/core/publish/not-found.ts): every article and solution at its own address, then every category and tag
 * page in both chromes (each has a page in both), so `/zh/blog/category/ai-agent` or `/blog/tag/ragg` find
 * theirs. Paths only: the bench corpus of 10,000 articles (319 tags, 6 categories) gives 268 KB, 35 KB gzipped;
 * the tags and categories are 17 KB of it.
 */
export function notFoundAddresses(catalog: Pick<Catalog, 'articles' | 'solutions' | 'categories'>): string[] {
  const categories = catalog.categories.flatMap((c) => [paths.category(c.slug), inChrome('zh', paths.category(c.slug), 'en')]);
  const tags = tagListings(catalog).flatMap((t) => [t.path, inChrome(otherLang(t.lang), t.path, t.lang)]);
  return [...catalog.articles.map((a) => a.path), ...catalog.solutions.map((s) => s.path), ...categories, ...tags];
}
