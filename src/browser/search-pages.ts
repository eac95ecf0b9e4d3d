/**
 * The pages the article index does not hold (products, listings, the API reference, the developers
 * hub: /search/pages.json, src/core/publish/search-pages.ts), matched by name in the browser for the
 * search page and the header's palette. A page matches when the query marks words of its title (a
 * product also by its description); title matches rank first.
 * @module
 */
import type { QueryMatcher } from './search-highlight.ts';

/** One page a search can name (as /search/pages.json lists it). */
export interface NamedPage {
  title: string;
  description: string;
  path: string;
  type: 'product' | 'page';
  lang: 'zh' | 'en';
}

/** Where the list is served. */
export const SEARCH_PAGES_URL = '/search/pages.json';

let loaded: Promise<NamedPage[]> | undefined;

/** The list, fetched once per page view (none when it cannot be fetched: the article hits still show). */
export function loadNamedPages(): Promise<NamedPage[]> {
  loaded ??= fetch(SEARCH_PAGES_URL, { headers: { accept: 'application/json' } })
    .then((response) => (response.ok ? (response.json() as Promise<NamedPage[]>) : []))
    .catch(() => []);
  return loaded;
}

const markedChars = (matcher: QueryMatcher, text: string): number =>
  matcher
    .segments(text)
    .filter((s) => s.match)
    .reduce((n, s) => n + s.text.length, 0);

/** Fewest matched characters that name a page (all of a shorter query): `AI` alone names no page. */
const MIN_MATCHED_CHARS = 4;

/** The pages `query` (compiled as `matcher`) names, best first, at most `limit`. */
export function matchNamedPages(pages: readonly NamedPage[], matcher: QueryMatcher, query: string, limit: number): NamedPage[] {
  const needed = Math.min(MIN_MATCHED_CHARS, query.replace(/\s+/g, '').length);
  return pages
    .map((page, order) => {
      const title = markedChars(matcher, page.title);
      const description = page.type === 'product' ? markedChars(matcher, page.description) : 0;
      return { page, order, score: (title >= needed ? title * 2 : 0) + (description >= needed ? description : 0) };
    })
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((m) => m.page);
}
