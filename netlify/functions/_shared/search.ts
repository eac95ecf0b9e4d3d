/**
 * The search engine over the build-time index file (generated/data/search/index.bin, shipped beside
 * the function by netlify.toml included_files): the file is opened and its head read when the engine
 * is first asked for; a query then reads the byte ranges it needs by position, and the engine keeps
 * what it decoded for the function instance. The descriptor stays open for the instance, so a file
 * replaced under a running process (a rebuild under `npm start`) keeps answering from the file it
 * opened.
 */
import { openSync, readSync } from 'node:fs';
import { SEARCH_INDEX_FILE } from '../../../src/core/search/index-data.ts';
import { loadSearchIndex, type IndexFileReader, type SearchEngine } from '../../../src/core/search/search-index.ts';

/**
 * The engine over the index file in the folder `dir` (a URL ending in `/`, relative to the bundle
 * as catalogAt's in deps.ts), loaded on the first call.
 */
export function searchEngineAt(dir: URL): () => SearchEngine {
  let engine: SearchEngine | undefined;
  return () => (engine ??= loadSearchIndex(fileRangeReader(new URL(SEARCH_INDEX_FILE, dir))));
}

/** An {@link IndexFileReader} over a file, by position (`pread`): only the requested bytes are read. */
export function fileRangeReader(file: URL): IndexFileReader {
  const fd = openSync(file, 'r');
  return (start, end) => {
    const bytes = new Uint8Array(end - start);
    for (let done = 0; done < bytes.length; ) {
      const count = readSync(fd, bytes, done, bytes.length - done, start + done);
      if (count === 0) throw new Error(`search index: ${file.pathname} ends before byte ${end}`);
      done += count;
    }
    return bytes;
  };
}
