/**
 * The search index of this build, built once: `/api/search` and the MCP tool read the file from
 * generated/data/search/, and the /search page downloads the same file, gzip-compressed, when it
 * is small enough (see {@link BROWSER_SEARCH_INDEX_MAX_BYTES}).
 */
import { gzipSync } from 'node:zlib';
import { getCollection } from 'astro:content';
import { type Document, documentsOf } from '../core/content/catalog.ts';
import { buildSearchIndex } from '../core/search/build-index.ts';
import { browserSearchIndexPath } from '../core/search/browser-index.ts';
import { loadSearchIndex } from '../core/search/search-index.ts';
import { getCatalog } from './collection-catalog.ts';
import { CACHE_DIR, sourceKey, storedSlim } from './content-bodies.ts';
import { sharedBuildData } from './integrations/build-data.ts';
import { openTermsCache } from './search-terms-cache.ts';

export interface BuiltSearchIndex {
  /** The index file (`generated/data/search/index.bin`). */
  file: Uint8Array;
  /** The page's copy: the file gzip-compressed (a CDN does not compress a binary file). */
  browserCopy: Uint8Array<ArrayBuffer>;
  /** Where the /search page loads its copy from, or null when it is too large to ship to browsers. */
  browserPath: string | null;
}

/**
 * The terms-cache key of each article and solution the store keeps slim, by collection, then id (an entry's id is
 * its slug): its source's digest and the origin name everything its terms are counted from.
 */
async function slimSourceKeys(origin: string): Promise<Record<'articles' | 'solutions', Map<string, string>>> {
  const keysOf = async (collection: 'articles' | 'solutions') =>
    new Map(
      (await getCollection(collection)).flatMap((e) =>
        storedSlim(e) ? [[e.id, sourceKey(collection, e.id, e.digest, origin)] as const] : [],
      ),
    );
  return { articles: await keysOf('articles'), solutions: await keysOf('solutions') };
}

let cached: Promise<BuiltSearchIndex> | undefined;

export function getSearchIndex(): Promise<BuiltSearchIndex> {
  if (cached) return cached;
  cached = (async () => {
    // Each document's terms from the last build where its text is unchanged (src/astro/search-terms-cache.ts).
    const catalog = await getCatalog();
    const termsCache = await openTermsCache(CACHE_DIR);
    // A document whose body the store keeps slim is all in its source file (src/astro/content-bodies.ts), so its
    // fields need not be hashed.
    const sources = await slimSourceKeys(catalog.origin);
    const keyOf = (doc: Document): string | undefined => sources[doc.type === 'article' ? 'articles' : 'solutions'].get(doc.slug);
    const file = buildSearchIndex(documentsOf(catalog), { termsCache: Object.assign(termsCache, { keyOf }) });
    await termsCache.save();
    sharedBuildData().reuse = { ...sharedBuildData().reuse, 'search terms': { reused: termsCache.reused, counted: termsCache.counted } };
    const browserCopy = new Uint8Array(gzipSync(file, { level: 9 }));
    return { file, browserCopy, browserPath: browserSearchIndexPath(loadSearchIndex(file).contentHash, browserCopy.length) };
  })();
  // The build hook writes this same file to generated/data (src/astro/integrations/site-data.ts).
  sharedBuildData().searchIndexFile = cached.then((built) => built.file);
  return cached;
}
