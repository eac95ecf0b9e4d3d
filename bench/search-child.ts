/**
 * One fresh-process measurement for search.bench.ts: import cost, index load (read + JSON.parse +
 * loadSearchIndex; with `--shards`, loadShardedSearchIndex reading the head), query latency,
 * relevance and memory. Prints one JSON line.
 *
 *     node --expose-gc bench/search-child.ts --index FILE --queries FILE
 *     node --expose-gc bench/search-child.ts --shards DIR --queries FILE
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SearchEngine } from '../src/core/search/search-index.ts';

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
const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const mb = (bytes: number): number => bytes / 1_048_576;
/** JS heap plus memory held outside it (typed arrays). */
const used = (m: NodeJS.MemoryUsage): number => m.heapUsed + m.external;

const shardDir = argv.includes('--shards') ? arg('shards') : null;
const t0 = performance.now();
const { loadSearchIndex } = await import('../src/core/search/search-index.ts');
const loadShardedSearchIndex = shardDir === null ? null : (await import('../src/core/search/shard-reader.ts')).loadShardedSearchIndex;
const importMs = performance.now() - t0;

gc();
const before = process.memoryUsage();
/** Index bytes read so far (the sharded engine reads shards as queries need them). */
let bytesRead = 0;
let engine: SearchEngine;
let t1: number;
let t2: number;
let t3: number;
let t4: number;
if (shardDir === null || loadShardedSearchIndex === null) {
  t1 = performance.now();
  let text: string | null = readFileSync(arg('index'), 'utf8');
  bytesRead = text.length;
  t2 = performance.now();
  const data = JSON.parse(text);
  text = null; // the function keeps only the parsed index
  t3 = performance.now();
  engine = loadSearchIndex(data);
  t4 = performance.now();
} else {
  // Read + parse + load of the head, all in "load" (the reader parses each file as it reads it).
  t1 = t2 = t3 = performance.now();
  engine = loadShardedSearchIndex((file) => {
    const bytes = readFileSync(path.join(shardDir, file));
    bytesRead += bytes.length;
    return bytes;
  });
  t4 = performance.now();
}
const bytesReadAtLoad = bytesRead;
gc();
const afterLoad = process.memoryUsage();

const queries = JSON.parse(readFileSync(arg('queries'), 'utf8')) as QueryFile;
const firstStart = performance.now();
engine.search(queries.latency[0] ?? '');
const firstQueryMs = performance.now() - firstStart;
// Warm-up pass, timed on its own: each query's first run decodes its postings (nothing cached yet).
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
const percentileOf = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const percentile = (p: number): number => percentileOf(timings, p);

const relevance = queries.relevance.map(({ id, query, target, kind }) => {
  const hits = engine.search(query, { limit: 10 });
  return { id, kind, rank: hits.findIndex((h) => h.slug === target) + 1, top: hits[0]?.slug ?? null };
});
gc();
const afterQueries = process.memoryUsage();

console.log(
  JSON.stringify({
    importMs,
    readMs: t2 - t1,
    parseMs: t3 - t2,
    loadMs: t4 - t3,
    totalLoadMs: t4 - t1,
    firstQueryMs,
    timedQueries: timings.length,
    p50Ms: percentile(50),
    p90Ms: percentile(90),
    p99Ms: percentile(99),
    maxMs: timings[timings.length - 1],
    firstPassP50Ms: percentileOf(firstPass, 50),
    firstPassP99Ms: percentileOf(firstPass, 99),
    heapLoadMB: mb(used(afterLoad) - used(before)),
    rssLoadMB: mb(afterLoad.rss - before.rss),
    heapQueriesMB: mb(used(afterQueries) - used(before)),
    rssQueriesMB: mb(afterQueries.rss - before.rss),
    readLoadMB: bytesReadAtLoad / 1e6,
    readQueriesMB: bytesRead / 1e6,
    relevance,
  }),
);
