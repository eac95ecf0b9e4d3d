/** The search engine over the build-time index, a file shipped beside the function, loaded once per function instance. */
import { loadSearchIndex, type SearchEngine, type SearchIndexData } from '../../../src/core/search/search-index.ts';
import { jsonFileOnce } from './deps.ts';

/** The engine over the index at `file` (see jsonFileOnce), loaded on the first call. */
export function searchEngineAt(file: URL): () => SearchEngine {
  const data = jsonFileOnce<SearchIndexData>(file);
  let engine: SearchEngine | undefined;
  return () => (engine ??= loadSearchIndex(data()));
}
