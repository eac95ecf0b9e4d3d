/**
 * Search benchmark: builds the index over a generated corpus of N in-memory documents, writes it to
 * bench/.out/ whole and sharded (the functions' layout), then measures size, cold load, query
 * latency, memory and relevance in fresh child processes, the two layouts interleaved, and prints
 * a markdown table (one row per layout).
 *
 *     node bench/search.bench.ts --n 10000 [--seed 42] [--runs 5] [--passes 3]
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildSearchIndex, serializeSearchIndex } from '../src/core/search/build-index.ts';
import { SEARCH_HEAD_FILE } from '../src/core/search/index-data.ts';
import { shardSearchIndex } from '../src/core/search/shard-index.ts';
import { argValue, generateBenchQueries, generateCorpus } from './generate-corpus.ts';
import { median } from './stats.ts';

/** Generated latency queries added to the planted ones (search.md §8: 30 planted + 170 generated). */
const GENERATED_QUERY_COUNT = 170;
/** Known-item relevance check: this many titles (unique ones only) used as queries. */
const KNOWN_ITEM_QUERY_COUNT = 200;
/** Targets at 10,000 documents. */
const TARGETS = { p50Ms: 0.5, p99Ms: 2, loadMs: 150, gzipMB: 5 };

const argv = process.argv.slice(2);
const n = Number(argValue(argv, 'n') ?? 10_000);
const seed = Number(argValue(argv, 'seed') ?? 42);
const runs = Number(argValue(argv, 'runs') ?? 5);
const passes = Number(argValue(argv, 'passes') ?? 3);
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(benchDir, '.out');
mkdirSync(outDir, { recursive: true });

const MB = 1_000_000;
const fmt = (value: number, digits = 2): string => value.toFixed(digits);

// 1. Corpus and index.
const loadAverageAtStart = os.loadavg()[0]!;
let t = performance.now();
const corpus = generateCorpus({ n, seed });
const generateS = (performance.now() - t) / 1000;
const bodyChars = corpus.documents.reduce((sum, d) => sum + d.markdown.length, 0);

t = performance.now();
const data = buildSearchIndex(corpus.documents);
const buildS = (performance.now() - t) / 1000;
const json = serializeSearchIndex(data);
const indexFile = path.join(outDir, `search-index-${n}.json`);
writeFileSync(indexFile, json);
const rawBytes = Buffer.byteLength(json);
const shards = shardSearchIndex(data);
const shardDir = path.join(outDir, `search-shards-${n}`);
rmSync(shardDir, { recursive: true, force: true });
mkdirSync(shardDir);
for (const [name, text] of shards) writeFileSync(path.join(shardDir, name), text);
const headBytes = Buffer.byteLength(shards.get(SEARCH_HEAD_FILE)!);
const gzipBytes = gzipSync(json).length;
/** Bytes of `value` as ASCII JSON (each non-ASCII UTF-16 unit becomes a 6-byte \uXXXX escape). */
const part = (value: unknown): number => {
  const text = JSON.stringify(value);
  return text.length + 5 * (text.match(/[\u0080-\uffff]/g)?.length ?? 0);
};
const parts = {
  postings: part(data.post),
  storedFields: part(data.docs),
  terms: part(data.terms),
  lexicon: part(data.lex),
  offsetsAndLengths: part(data.off) + part(data.lenB) + part(data.lenT),
};

// 2. Queries.
const uniqueTitles = new Map<string, string[]>();
for (const d of corpus.documents) uniqueTitles.set(d.title, [...(uniqueTitles.get(d.title) ?? []), d.slug]);
const knownItems = corpus.documents
  .filter(
    (d, i) =>
      i % Math.max(1, Math.floor(n / (KNOWN_ITEM_QUERY_COUNT * 3))) === 0 &&
      uniqueTitles.get(d.title)!.length === 1 &&
      !d.slug.startsWith('planted-'),
  )
  .slice(0, KNOWN_ITEM_QUERY_COUNT);
const queryFile = path.join(outDir, `queries-${n}.json`);
writeFileSync(
  queryFile,
  JSON.stringify({
    latency: [...corpus.planted.map((p) => p.query), ...generateBenchQueries({ count: GENERATED_QUERY_COUNT, seed })],
    passes,
    relevance: [
      ...corpus.planted.map((p) => ({ id: p.id, query: p.query, target: p.target, kind: 'planted' })),
      ...knownItems.map((d) => ({ id: d.slug, query: d.title, target: d.slug, kind: 'known-item' })),
    ],
  }),
);

// 3. Fresh processes: load, latency, memory, relevance.
interface ChildResult {
  importMs: number;
  readMs: number;
  parseMs: number;
  loadMs: number;
  totalLoadMs: number;
  firstQueryMs: number;
  timedQueries: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  firstPassP50Ms: number;
  firstPassP99Ms: number;
  heapLoadMB: number;
  rssLoadMB: number;
  heapQueriesMB: number;
  rssQueriesMB: number;
  readLoadMB: number;
  readQueriesMB: number;
  relevance: { id: string; kind: string; rank: number; top: string | null }[];
}
const LAYOUTS = { whole: ['--index', indexFile], sharded: ['--shards', shardDir] } as const;
type Layout = keyof typeof LAYOUTS;
const byLayout: Record<Layout, ChildResult[]> = { whole: [], sharded: [] };
for (let run = 0; run < runs; run++) {
  // Interleaved, so load from other processes falls on both layouts alike.
  for (const layout of Object.keys(LAYOUTS) as Layout[]) {
    const stdout = execFileSync(
      process.execPath,
      ['--expose-gc', path.join(benchDir, 'search-child.ts'), ...LAYOUTS[layout], '--queries', queryFile],
      { encoding: 'utf8', maxBuffer: 64 * MB },
    );
    byLayout[layout].push(JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildResult);
  }
}
const results = byLayout.whole;
const medOf = (list: ChildResult[], key: keyof Omit<ChildResult, 'relevance'>): number => median(list.map((r) => r[key]));
const med = (key: keyof Omit<ChildResult, 'relevance'>): number => medOf(results, key);
const sharded = byLayout.sharded;
const sameRelevance = JSON.stringify(sharded[0]!.relevance) === JSON.stringify(results[0]!.relevance);

const relevance = results[0]!.relevance;
const planted = relevance.filter((r) => r.kind === 'planted');
const known = relevance.filter((r) => r.kind === 'known-item');
const hitAt1 = (rows: typeof relevance): number => rows.filter((r) => r.rank === 1).length / Math.max(1, rows.length);
const mrr = (rows: typeof relevance): number => rows.reduce((s, r) => s + (r.rank > 0 ? 1 / r.rank : 0), 0) / Math.max(1, rows.length);
const misses = planted
  .filter((r) => r.rank !== 1)
  .map((r) => `${r.id} → ${r.rank === 0 ? 'not in top 10' : `rank ${r.rank}`} (top: ${r.top})`);

// 4. Report.
const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const lines = [
  `Search benchmark: N = ${n.toLocaleString('en')} documents (seed ${seed}), ${(bodyChars / 1e6).toFixed(1)} M body chars, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, 1-min load average ${fmt(loadAverageAtStart)} → ${fmt(os.loadavg()[0]!)} (latency percentiles need an otherwise idle machine)`,
  '',
  row([
    'layout',
    'build s',
    'raw MB',
    'gzip MB',
    'load ms',
    'p50 ms',
    'p99 ms',
    'heap Δ MB',
    'RSS Δ MB',
    'hit@1',
    'MRR@10',
    'known-item hit@1',
  ]),
  row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  row([
    'whole',
    fmt(buildS),
    fmt(rawBytes / MB, 1),
    fmt(gzipBytes / MB),
    fmt(med('totalLoadMs'), 1),
    fmt(med('p50Ms'), 3),
    fmt(med('p99Ms'), 3),
    fmt(med('heapQueriesMB'), 1),
    fmt(med('rssQueriesMB'), 1),
    fmt(hitAt1(planted)),
    fmt(mrr(planted), 3),
    fmt(hitAt1(known), 3),
  ]),
  row([
    'sharded',
    '',
    fmt(medOf(sharded, 'readQueriesMB'), 1),
    '',
    fmt(medOf(sharded, 'totalLoadMs'), 1),
    fmt(medOf(sharded, 'p50Ms'), 3),
    fmt(medOf(sharded, 'p99Ms'), 3),
    fmt(medOf(sharded, 'heapQueriesMB'), 1),
    fmt(medOf(sharded, 'rssQueriesMB'), 1),
    sameRelevance ? 'same' : 'DIFFERENT',
    '',
    '',
  ]),
  '',
  `- Sharded (the functions' layout): ${shards.size} files, head ${fmt(headBytes / MB)} MB; "raw MB" is what one process read in all (the head plus every shard its ${results[0]!.timedQueries / passes} latency and ${relevance.length} relevance queries needed); load = read + parse of the head; warm-up pass (shards read on the spot) p50 ${fmt(medOf(sharded, 'firstPassP50Ms'), 3)} ms, p99 ${fmt(medOf(sharded, 'firstPassP99Ms'), 2)} ms; first query after load ${fmt(medOf(sharded, 'firstQueryMs'), 2)} ms; relevance answers ${sameRelevance ? 'identical to' : 'DIFFERENT from'} the whole index's.`,
  `- Index: ${data.terms.length.toLocaleString('en')} terms, ${data.lex.length.toLocaleString('en')} lexicon words; bytes (ASCII JSON as written) postings ${fmt(parts.postings / MB)} MB, stored fields ${fmt(parts.storedFields / MB)} MB, terms ${fmt(parts.terms / MB)} MB, lexicon ${fmt(parts.lexicon / MB, 3)} MB, offsets + lengths ${fmt(parts.offsetsAndLengths / MB)} MB. Corpus generation ${fmt(generateS, 1)} s.`,
  `- Load (median of ${runs} fresh processes): read ${fmt(med('readMs'), 1)} ms + JSON.parse ${fmt(med('parseMs'), 1)} ms + loadSearchIndex ${fmt(med('loadMs'), 1)} ms; module import ${fmt(med('importMs'), 1)} ms (not included); first query after load ${fmt(med('firstQueryMs'), 2)} ms.`,
  `- Latency: ${results[0]!.timedQueries} timed queries per process (${planted.length} planted + ${GENERATED_QUERY_COUNT} generated, 1 warm-up + ${passes} timed passes, top 10 with stored fields); p90 ${fmt(med('p90Ms'), 3)} ms, max ${fmt(med('maxMs'), 2)} ms; medians over ${runs} processes. Decoded postings stay cached between queries; the warm-up pass (every query's first run after load, postings decoded on the spot) gives p50 ${fmt(med('firstPassP50Ms'), 3)} ms, p99 ${fmt(med('firstPassP99Ms'), 2)} ms.`,
  `- Memory after forced GC, relative to before reading the file: heap+external Δ ${fmt(med('heapLoadMB'), 1)} MB after load, ${fmt(med('heapQueriesMB'), 1)} MB after all queries; RSS Δ ${fmt(med('rssLoadMB'), 1)} / ${fmt(med('rssQueriesMB'), 1)} MB.`,
  `- Relevance: ${planted.length} planted queries, hit@1 ${fmt(hitAt1(planted))}${misses.length ? `; misses: ${misses.join('; ')}` : ''}. Known-item: ${known.length} unique titles as queries, hit@1 ${fmt(hitAt1(known), 3)}, MRR@10 ${fmt(mrr(known), 3)}.`,
];
if (n >= 10_000) {
  const checks = [
    ['p50', med('p50Ms') <= TARGETS.p50Ms],
    ['p99', med('p99Ms') <= TARGETS.p99Ms],
    ['load', med('totalLoadMs') <= TARGETS.loadMs],
    ['gzip size', gzipBytes / MB <= TARGETS.gzipMB],
  ] as const;
  lines.push(
    `- Targets at 10k (p50 ≤ ${TARGETS.p50Ms} ms, p99 ≤ ${TARGETS.p99Ms} ms, load ≤ ${TARGETS.loadMs} ms, gzip ≤ ${TARGETS.gzipMB} MB): ${checks.map(([name, ok]) => `${name} ${ok ? 'met' : 'MISSED'}`).join(', ')}.`,
  );
}
console.log(lines.join('\n'));
writeFileSync(path.join(outDir, `results-${n}.json`), JSON.stringify({ n, seed, buildS, rawBytes, gzipBytes, parts, results }, null, 2));
