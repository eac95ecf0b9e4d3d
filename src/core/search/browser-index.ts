/**
 * Whether the /search page gets the search index itself. Below the budget the page downloads the
 * index once and searches in the browser (results appear without a round trip per keystroke); above
 * it the page asks `/api/search`. Either way the same engine answers, so the page finds what the
 * API finds. Figures: BENCHMARKS.md, "Search page vs API".
 * @module
 */

/**
 * Largest index (serialised JSON, bytes) the page downloads: ≈ 140 KB compressed, what the old
 * Pagefind UI page loaded before its first result. The seed content's index is ≈ 220 KB (≈ 80 KB
 * gzip); at about 2 KB per article this covers a few hundred articles.
 */
export const BROWSER_SEARCH_INDEX_MAX_BYTES = 400_000;

/** The page's copy of the index, named by its content hash (immutable), or null above the budget. */
export function browserSearchIndexPath(contentHash: string, sizeBytes: number): string | null {
  return sizeBytes <= BROWSER_SEARCH_INDEX_MAX_BYTES ? `/search/index/${contentHash}.json` : null;
}
