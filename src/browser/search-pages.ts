/**
 * The pages the article index does not hold (products, listings, the API reference, the developers
 * hub: /search/pages.json, src/core/publish/search-pages.ts), matched by name in the browser for the
 * search page and the header's palette. A page matches when the query marks words of its title (a
 * product also by its description, the developers hub by the names of its sections, tools and
 * clients); title matches rank first.
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
  /** More words the page is found by, one line each (the developers hub's sections, tools and clients). */
  text?: string;
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

/** The most characters the query marks in one line of `text` (a line is one name: "Claude Code", 智能体技能). */
const bestLineChars = (matcher: QueryMatcher, text: string): number =>
  text.split('\n').reduce((best, line) => Math.max(best, markedChars(matcher, line)), 0);

/** Fewest matched characters that name a page (all of a shorter query): `AI` alone names no page. */
const MIN_MATCHED_CHARS = 4;

/** The pages `query` (compiled as `matcher`) names, best first, at most `limit`. */
export function matchNamedPages(pages: readonly NamedPage[], matcher: QueryMatcher, query: string, limit: number): NamedPage[] {
  const needed = Math.min(MIN_MATCHED_CHARS, query.replace(/\s+/g, '').length);
  return pages
    .map((page, order) => {
      const title = markedChars(matcher, page.title);
      const description = page.type === 'product' ? markedChars(matcher, page.description) : 0;
      const text = page.text ? bestLineChars(matcher, page.text) : 0;
      return {
        page,
        order,
        score: (title >= needed ? title * 2 : 0) + (description >= needed ? description : 0) + (text >= needed ? text : 0),
      };
    })
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((m) => m.page);
}
