/**
 * The search index's terms cache between builds (issue 25: an edit re-tokenizes one document, not
 * every one): each document's {@link DocumentTerms}, by {@link documentTermsKey}, in one file in the
 * build cache, `search-terms.ndjson` (a line per document, so a 100,000-article site never makes one
 * string past V8's limit). The build-cache integration empties it with Astro's caches when the code
 * changes (the tokenizer is code). Only the documents of the last build are written back.
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { DocumentTerms, DocumentTermsCache } from '../core/search/build-index.ts';

/** The file in the build cache. */
export const SEARCH_TERMS_FILE = 'search-terms.ndjson';

/** A terms cache read from `cacheDir`, and `save()` to write back the terms this build used. */
export interface StoredTermsCache extends DocumentTermsCache {
  /** How many documents' terms came from the file, and how many were counted in this build. */
  readonly reused: number;
  readonly counted: number;
  save(): Promise<void>;
}

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
export async function openTermsCache(cacheDir: string): Promise<StoredTermsCache> {
  const file = path.join(cacheDir, SEARCH_TERMS_FILE);
  const previous = new Map<string, DocumentTerms>();
  if (existsSync(file)) {
    const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      try {
        const [key, terms] = JSON.parse(line) as [unknown, unknown];
        if (typeof key === 'string' && isTerms(terms)) previous.set(key, terms);
      } catch {
        // A damaged line (a build cut off while writing it, say): that document is counted again.
      }
    }
  }
  const used = new Map<string, DocumentTerms>();
  let reused = 0;
  let counted = 0;
  return {
    get(key) {
      const terms = previous.get(key);
      if (terms) {
        reused++;
        used.set(key, terms);
      }
      return terms;
    },
    set(key, terms) {
      counted++;
      used.set(key, terms);
    },
    get reused() {
      return reused;
    },
    get counted() {
      return counted;
    },
    async save() {
      // Unchanged: the same documents, all from the file. Else written whole, then renamed over the old file.
      if (counted === 0 && used.size === previous.size) return;
      await mkdir(cacheDir, { recursive: true });
      const lines: string[] = [];
      for (const entry of used) lines.push(`${JSON.stringify(entry)}\n`);
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, lines);
      await rename(temporary, file);
    },
  };
}
