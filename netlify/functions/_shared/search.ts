/**
 * The search engine over the build-time sharded index (generated/data/search/, shipped beside the
 * function by netlify.toml included_files): the head is read when the engine is first asked for,
 * each shard when a query first needs it, and all are kept for the function instance.
 */
import { readFileSync } from 'node:fs';
import type { SearchEngine } from '../../../src/core/search/search-index.ts';
import { loadShardedSearchIndex } from '../../../src/core/search/shard-reader.ts';

/**
 * The engine over the sharded index in the folder `dir` (a URL ending in `/`, relative to the bundle
 * as catalogAt's in deps.ts), loaded on the first call.
 */
export function searchEngineAt(dir: URL): () => SearchEngine {
  let engine: SearchEngine | undefined;
  return () => (engine ??= loadShardedSearchIndex((file) => readFileSync(new URL(file, dir))));
}
