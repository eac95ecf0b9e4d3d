/** The search engine over the build-time index, loaded once at module scope (per function instance). */
import indexData from '../../../generated/data/search-index.json' with { type: 'json' };
import { loadSearchIndex, type SearchIndexData } from '../../../src/core/search/search-index.ts';

export const searchEngine = loadSearchIndex(indexData as unknown as SearchIndexData);
