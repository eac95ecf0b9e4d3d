/**
 * One fresh-process measurement for search.bench.ts (and pagefind.bench.ts): import cost, index load
 * (open the file and read its head, as the functions do: netlify/functions/_shared/search.ts), query
 * latency, relevance and memory, and what a cold query reads: each latency query once more on a
 * fresh engine over the same file, counting the bytes and reads it takes (head included). Prints one
 * JSON line.
 *
 *     node --expose-gc bench/search-child.ts --index FILE --queries FILE
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { IndexFileReader, SearchEngine } from '../src/core/search/search-index.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

interface QueryFile {
  /** Timed queries, run `passes` times after one warm-up pass. */
  latency: string[];
  passes: number;
  /** Queries with the slug expected first. */
  relevance: { id: string; query: string; target: string; kind: string }[];
}

const argv = process.argv.slice(2);
const arg = (name: string): string => {
  const value = argv[argv.indexOf(`--${name}`) + 1];
  if (!argv.includes(`--${name}`) || value === undefined) throw new Error(`missing --${name}`);
  return value;
};
/** The percentile definition of the earlier figures in BENCHMARKS.md ("Search index"), kept so that they compare. */
const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const mb = (bytes: number): number => bytes / 1_048_576;
/** JS heap plus memory held outside it (typed arrays). */
const used = (m: NodeJS.MemoryUsage): number => m.heapUsed + m.external;

const t0 = performance.now();
const { loadSearchIndex } = await import('../src/core/search/search-index.ts');
const { fileRangeReader } = await import('../netlify/functions/_shared/search.ts');
const importMs = performance.now() - t0;
const indexUrl = pathToFileURL(arg('index'));

/** The functions' reader over the file, counting what it reads. */
function counted(): { read: IndexFileReader; bytes: () => number; reads: () => number } {
  const inner = fileRangeReader(indexUrl);
  let bytes = 0;
  let reads = 0;
  return {
    read: (start, end) => {
      bytes += end - start;
      reads++;
      return inner(start, end);
    },
    bytes: () => bytes,
    reads: () => reads,
  };
}

gc();
const before = process.memoryUsage();
const main = counted();
const t1 = performance.now();
const engine: SearchEngine = loadSearchIndex(main.read);
const t2 = performance.now();
const bytesReadAtLoad = main.bytes();
gc();
const afterLoad = process.memoryUsage();

const queries = JSON.parse(readFileSync(arg('queries'), 'utf8')) as QueryFile;
const firstStart = performance.now();
engine.search(queries.latency[0] ?? '');
const firstQueryMs = performance.now() - firstStart;
// Warm-up pass, timed on its own: each query's first run reads and decodes its postings (nothing cached yet).
const firstPass: number[] = [];
for (const q of queries.latency) {
  const start = performance.now();
  engine.search(q);
  firstPass.push(performance.now() - start);
}
firstPass.sort((a, b) => a - b);
const timings: number[] = [];
for (let pass = 0; pass < queries.passes; pass++) {
  for (const q of queries.latency) {
    const start = performance.now();
    engine.search(q);
    timings.push(performance.now() - start);
  }
}
timings.sort((a, b) => a - b);

const relevance = queries.relevance.map(({ id, query, target, kind }) => {
  const hits = engine.search(query, { limit: 10 });
  return { id, kind, rank: hits.findIndex((h) => h.slug === target) + 1, top: hits[0]?.slug ?? null };
});
gc();
const afterQueries = process.memoryUsage();

// Cold queries: each latency query on a fresh engine (open, head, query), as a new function instance answers it.
const cold = queries.latency.map((q) => {
  const reader = counted();
  const start = performance.now();
  loadSearchIndex(reader.read).search(q);
  return { ms: performance.now() - start, bytes: reader.bytes(), reads: reader.reads() };
});
const sortedBy = (key: 'ms' | 'bytes' | 'reads'): number[] => cold.map((c) => c[key]).sort((a, b) => a - b);

console.log(
  JSON.stringify({
    importMs,
    loadMs: t2 - t1,
    totalLoadMs: t2 - t1,
    firstQueryMs,
    timedQueries: timings.length,
    p50Ms: percentile(timings, 50),
    p90Ms: percentile(timings, 90),
    p99Ms: percentile(timings, 99),
    maxMs: timings[timings.length - 1],
    firstPassP50Ms: percentile(firstPass, 50),
    firstPassP99Ms: percentile(firstPass, 99),
    heapLoadMB: mb(used(afterLoad) - used(before)),
    rssLoadMB: mb(afterLoad.rss - before.rss),
    heapQueriesMB: mb(used(afterQueries) - used(before)),
    rssQueriesMB: mb(afterQueries.rss - before.rss),
    readLoadMB: bytesReadAtLoad / 1e6,
    readQueriesMB: main.bytes() / 1e6,
    coldMsP50: percentile(sortedBy('ms'), 50),
    coldMsP90: percentile(sortedBy('ms'), 90),
    coldBytesP50: percentile(sortedBy('bytes'), 50),
    coldBytesP90: percentile(sortedBy('bytes'), 90),
    coldBytesMax: sortedBy('bytes').at(-1),
    coldReadsP50: percentile(sortedBy('reads'), 50),
    relevance,
  }),
);
