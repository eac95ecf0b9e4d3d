/** The search engine over the build-time index, loaded once per function instance. */
import indexData from '../../../generated/data/search-index.json' with { type: 'json' };
import { loadSearchIndex, type SearchEngine, type SearchIndexData } from '../../../src/core/search/search-index.ts';

let engine: SearchEngine | undefined;

export function searchEngine(): SearchEngine {
  engine ??= loadSearchIndex(indexData as unknown as SearchIndexData);
  return engine;
}
