/**
 * The examples of the API description (`/openapi.json`, `/docs/api`, its pages and twins), drawn from the catalogue
 * the description is built with, as the A2A card and the AI catalog draw theirs: every slug, page and query an
 * example shows is this site's own, so it works when pasted (a fork that deletes every article gets its own).
 * The tool schemas cannot see the catalogue: their descriptions stay neutral (src/core/agent-tools).
 * @module
 */
import { type Catalog, type DocumentMeta, documentsOf, type Lang, type Product } from '../content/catalog.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import type { SearchResult } from '../search/api.ts';

/** Results the example search asks for (`limit`). */
export const EXAMPLE_SEARCH_LIMIT = 3;
/** Results its example answer shows, at most (a short example). */
const EXAMPLE_RESULTS_SHOWN = 2;

/** A search that finds something here: its text, its language filter and documents it finds. */
export interface SearchExample {
  query: string;
  /** The language of the documents shown; absent when the catalogue has none. */
  lang?: Lang;
  results: SearchResult[];
}

/** What the examples of the API description show. */
export interface ApiExamples {
  /** `GET /api/search` (its parameters, the Try it form and its answer), `search_articles` over MCP, the A2A message. */
  search: SearchExample;
  /** A page feedback may be about (`POST /api/feedback`): an article's path, else a solution's, else the blog. */
  feedbackPage: string;
  /** The product an example enquiry is about, when there are products. */
  product?: Pick<Product, 'slug' | 'name'>;
}

/** A tag a search can find (one character is too little to search for). */
const searchableTag = (doc: Pick<DocumentMeta, 'tags'>): string | undefined => doc.tags.find((tag) => [...tag.trim()].length >= 2);

/** A document as `GET /api/search` answers with it. */
export const asSearchResult = (origin: string, doc: DocumentMeta): SearchResult => ({
  slug: doc.slug,
  title: doc.title,
  category: doc.category,
  date: doc.date,
  excerpt: doc.excerpt,
  type: doc.type,
  url: absoluteUrl(origin, doc.path),
  lang: doc.lang,
});

/**
 * The example search: a tag of the newest Chinese document that has one (the search's mixed-language case), else of
 * the newest document, else its title; the documents shown are that one and, newest first, others in its language
 * that carry the same tag (the index holds the tags: each is a hit).
 */
function searchExample(catalog: Pick<Catalog, 'origin' | 'company' | 'articles' | 'solutions'>): SearchExample {
  const docs: DocumentMeta[] = documentsOf(catalog);
  const tagged = docs.filter((d) => searchableTag(d) !== undefined);
  const pick = tagged.find((d) => d.lang === 'zh') ?? tagged[0] ?? docs[0];
  if (!pick) return { query: catalog.company.name, results: [] };
  const tag = searchableTag(pick);
  const query = tag ?? pick.title;
  const same = (d: DocumentMeta): boolean =>
    d !== pick && d.lang === pick.lang && tag !== undefined && d.tags.some((t) => t.trim().toLowerCase() === tag.trim().toLowerCase());
  const shown = [pick, ...docs.filter(same)].slice(0, EXAMPLE_RESULTS_SHOWN);
  return { query, lang: pick.lang, results: shown.map((d) => asSearchResult(catalog.origin, d)) };
}

/** The examples of the API description of `catalog`. */
export function apiExamples(catalog: Pick<Catalog, 'origin' | 'company' | 'articles' | 'solutions' | 'products'>): ApiExamples {
  const page = catalog.articles.find((a) => a.lang === 'en') ?? catalog.articles[0] ?? catalog.solutions[0];
  const product = [...catalog.products].sort((a, b) => a.order - b.order)[0];
  return {
    search: searchExample(catalog),
    feedbackPage: page?.path ?? paths.blog,
    ...(product ? { product: { slug: product.slug, name: product.name } } : {}),
  };
}
