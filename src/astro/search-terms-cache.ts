/**
 * The search index's terms cache between builds (issue 25: an edit re-tokenizes one document, not
 * every one): each document's {@link DocumentTerms}, by {@link documentTermsKey}, in one file in the
 * build cache, `search-terms.ndjson` (a line per document, so a 100,000-article site never makes one
 * string past V8's limit). The build-cache integration empties it with Astro's caches when the code
 * changes (the tokenizer is code). Only the documents of the last build are written back.
 */
import type { DocumentTerms, DocumentTermsCache } from '../core/search/build-index.ts';
import { type LineCache, openLineCache } from './line-cache.ts';

/** The file in the build cache. */
export const SEARCH_TERMS_FILE = 'search-terms.ndjson';

/** A terms cache read from `cacheDir`, and `save()` to write back the terms this build used. */
export type StoredTermsCache = LineCache<DocumentTerms> & DocumentTermsCache;

function isTerms(value: unknown): value is DocumentTerms {
  const t = value as DocumentTerms;
  const strings = (a: unknown): boolean => Array.isArray(a) && a.every((x) => typeof x === 'string');
  const numbers = (a: unknown, n: number): boolean => Array.isArray(a) && a.length === n && a.every((x) => Number.isInteger(x) && x > 0);
  return (
    typeof t === 'object' &&
    t !== null &&
    strings(t.title) &&
    numbers(t.titleCounts, t.title.length) &&
    strings(t.body) &&
    numbers(t.bodyCounts, t.body.length) &&
    strings(t.words)
  );
}

/** Reads the cache file of `cacheDir` (none, or a damaged line: those documents are counted again). */
export function openTermsCache(cacheDir: string): Promise<StoredTermsCache> {
  return openLineCache(cacheDir, SEARCH_TERMS_FILE, isTerms);
}
