/**
 * The search index of this build, built once: `/api/search` and the MCP tool load it from
 * generated/data, and the /search page loads the same file when it is small enough (see
 * {@link BROWSER_SEARCH_INDEX_MAX_BYTES}).
 */
import { documentsOf } from '../core/content/catalog.ts';
import { buildSearchIndex, serializeSearchIndex } from '../core/search/build-index.ts';
import { browserSearchIndexPath } from '../core/search/browser-index.ts';
import { getCatalog } from './catalog.ts';
import { sharedBuildData } from '../integrations/build-data.ts';

export interface BuiltSearchIndex {
  /** The serialised index (`search-index.json`). */
  json: string;
  /** Where the /search page loads it from, or null when it is too large to ship to browsers. */
  browserPath: string | null;
}

let cached: Promise<BuiltSearchIndex> | undefined;

export function getSearchIndex(): Promise<BuiltSearchIndex> {
  if (cached) return cached;
  cached = (async () => {
    const data = buildSearchIndex(documentsOf(await getCatalog()));
    const json = serializeSearchIndex(data);
    return { json, browserPath: browserSearchIndexPath(data.hash, new TextEncoder().encode(json).length) };
  })();
  // The build hook writes this same text to generated/data (src/integrations/site-data.ts).
  sharedBuildData().searchIndexJson = cached.then((built) => built.json);
  return cached;
}
