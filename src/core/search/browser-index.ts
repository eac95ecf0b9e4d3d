/**
 * Whether the /search page gets the search index itself. Below the budget the page downloads the
 * index file once and searches in the browser (results appear without a round trip per keystroke);
 * above it the page asks `/api/search`. Either way the same engine answers over the same file, so
 * the page finds what the API finds. Figures: BENCHMARKS.md, "Search page vs API".
 * @module
 */

/**
 * Largest page copy the page downloads, in bytes on the wire: the index file gzip-compressed by the
 * build (a binary file, which a CDN sends as it is): ≈ what the old Pagefind UI page loaded before
 * its first result. The seed content's copy is well under it; this covers a few hundred articles.
 */
export const BROWSER_SEARCH_INDEX_MAX_BYTES = 140_000;

/** The page's copy of the index (gzip of the index file), named by its content hash (immutable), or null above the budget. */
export function browserSearchIndexPath(contentHash: string, compressedBytes: number): string | null {
  return compressedBytes <= BROWSER_SEARCH_INDEX_MAX_BYTES ? `/search/index/${contentHash}.bin` : null;
}
