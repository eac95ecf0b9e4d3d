/**
 * The search index file answers exactly as the index before it did: the digests of every answer to
 * the recorded queries (tests/support/search-answers.ts: the search benchmark's 200 queries at
 * 10,000 generated articles, 705 search-as-you-type queries at 2,000) match, read whole in memory
 * (the /search page) and by byte range (the functions), at the default block sizes and at tiny
 * ones (every block boundary crossed). And the build wrote what the builder makes: the functions'
 * file and the page's copy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { documentsOf, type Catalog } from '../../src/core/content/catalog.ts';
import { buildSearchIndex } from '../../src/core/search/build-index.ts';
import { SEARCH_INDEX_FILE } from '../../src/core/search/index-data.ts';
import { inMemoryIndexFile } from '../../src/core/search/index-file.ts';
import { loadSearchIndex, type SearchEngine } from '../../src/core/search/search-index.ts';
import { ANSWER_CORPORA, answerCorpus, answerDigests, readAnswerSets } from '../support/search-answers.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const recorded = readAnswerSets();

/** The queries whose answers differ from the recorded ones (at most 5, for the message). */
function differences(engine: SearchEngine, name: string, queries: string[], categories: string[]): string[] {
  const want = recorded.find((set) => set.name === name)!.answers;
  const got = answerDigests(engine, queries, categories);
  return queries.filter((q) => got[q] !== want[q]).slice(0, 5);
}

describe('search index file', () => {
  it.each(ANSWER_CORPORA.map((entry) => [entry.name, entry] as const))(
    'answers the recorded queries byte for byte as before (%s corpus)',
    (name, entry) => {
      const set = recorded.find((s) => s.name === name)!;
      const { documents, queries, categories, corpus } = answerCorpus(entry);
      expect(corpus, 'the corpus generator changed: regenerate the fixture from the code before your change').toBe(set.corpus);
      expect(queries.filter((q) => set.answers[q] === undefined)).toEqual([]);
      const file = buildSearchIndex(documents);
      const whole = loadSearchIndex(file);
      // Not vacuous: most queries find something.
      expect(queries.filter((q) => whole.search(q).length > 0).length).toBeGreaterThan(queries.length * 0.8);
      expect(differences(whole, name, queries, categories)).toEqual([]);
      if (name === 'prefixes') {
        const tiny = inMemoryIndexFile(buildSearchIndex(documents, { termsPerBlock: 1, lexWordsPerBlock: 2 }));
        let reads = 0;
        const byRange = loadSearchIndex((start, end) => {
          reads++;
          return tiny(start, end);
        });
        expect(differences(byRange, name, queries, categories)).toEqual([]);
        expect(reads).toBeGreaterThan(1000);
      }
    },
    180_000,
  );

  it('is what the build wrote for the functions, and the /search page gets the same file compressed', () => {
    const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as Catalog;
    const expected = buildSearchIndex(documentsOf(catalog));
    const dir = path.join(ROOT, 'generated', 'data', 'search');
    expect(readdirSync(dir)).toEqual([SEARCH_INDEX_FILE]);
    expect(readFileSync(path.join(dir, SEARCH_INDEX_FILE)).equals(expected)).toBe(true);
    const hash = loadSearchIndex(expected).contentHash;
    expect(readdirSync(path.join(ROOT, 'dist', 'search', 'index'))).toEqual([`${hash}.bin`]);
    expect(gunzipSync(readFileSync(path.join(ROOT, 'dist', 'search', 'index', `${hash}.bin`))).equals(expected)).toBe(true);
  });
});
