/**
 * Search benchmark: builds the index file over a generated corpus of N in-memory documents, writes
 * it to bench/.out/, then measures size, load, query latency, memory, relevance and what a cold
 * query reads (bench/search-child.ts) in fresh child processes, and prints a markdown table.
 *
 *     node bench/search.bench.ts --n 10000 [--seed 42] [--runs 5] [--passes 3] [--before DIR]
 *
 * `--before DIR`: also measure the search code of another checkout (a directory holding the tree of
 * an earlier commit, e.g. `git archive <commit> | tar -x -C DIR`, its node_modules linked), in the
 * same run, its processes interleaved with these: its index built by its own builder, its own
 * child measuring it. Trees of the sharded format (index version 1: src/core/search/shard-reader.ts)
 * are read as the functions read them then (head and shard files); what each cold query reads
 * there is counted in this process through that tree's own reader.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { buildSearchIndex } from '../src/core/search/build-index.ts';
import { IndexFile, inMemoryIndexFile } from '../src/core/search/index-file.ts';
import type { Document } from '../src/core/content/catalog.ts';
import { argValue, generateBenchQueries, generateCorpus } from './generate-corpus.ts';
import { median } from './stats.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

/** Generated latency queries added to the planted ones (search.md §8: 30 planted + 170 generated). */
const GENERATED_QUERY_COUNT = 170;
/** Known-item relevance check: this many titles (unique ones only) used as queries. */
const KNOWN_ITEM_QUERY_COUNT = 200;
/** Targets at 10,000 documents. */
const TARGETS = { p50Ms: 0.5, p99Ms: 2, loadMs: 150, gzipMB: 5 };
/** Issue 25's bounds on what a cold query reads at 10,000 documents, head included. */
const COLD_READ_TARGETS = { p50Bytes: 100_000, p90Bytes: 200_000 };

const argv = process.argv.slice(2);
const n = Number(argValue(argv, 'n') ?? 10_000);
const seed = Number(argValue(argv, 'seed') ?? 42);
const runs = Number(argValue(argv, 'runs') ?? 5);
const passes = Number(argValue(argv, 'passes') ?? 3);
const beforeTree = argValue(argv, 'before');
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(benchDir, '.out');
mkdirSync(outDir, { recursive: true });

const MB = 1_000_000;
const KB = 1_000;

const fmt = (value: number, digits = 2): string => value.toFixed(digits);

// 1. Corpus and index.
const loadAverageAtStart = os.loadavg()[0]!;
let t = performance.now();
const corpus = generateCorpus({ n, seed });
const generateS = (performance.now() - t) / 1000;
const bodyChars = corpus.documents.reduce((sum, d) => sum + d.markdown.length, 0);

t = performance.now();
const file = buildSearchIndex(corpus.documents);
const buildS = (performance.now() - t) / 1000;
const indexFile = path.join(outDir, `search-index-${n}.bin`);
writeFileSync(indexFile, file);
const rawBytes = file.length;
const gzipBytes = gzipSync(file).length;
const deflateBytes = deflateRawSync(file).length;
const opened = new IndexFile(inMemoryIndexFile(file));
const headBytes = Object.values(opened.sections)[0]![0];
/** Bytes of each section of the file (index-data.ts). */
const parts = Object.fromEntries(Object.entries(opened.sections).map(([name, [start, end]]) => [name, end - start])) as Record<
  keyof typeof opened.sections,
  number
>;

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

// 3. The earlier tree, if asked for: its index by its own builder, laid out as its functions read it.
interface Layout {
  name: string;
  child: string;
  args: string[];
  /** Each latency query on a fresh engine, counted and timed here, not by the child: bytes read (head included), ms (ascending). */
  cold?: { bytes: number[]; ms: number[] };
}
const layouts: Layout[] = [{ name: 'this tree', child: path.join(benchDir, 'search-child.ts'), args: ['--index', indexFile] }];
if (beforeTree !== undefined) layouts.unshift(await beforeLayout(path.resolve(beforeTree)));

async function beforeLayout(tree: string): Promise<Layout> {
  const module = async <T>(file: string): Promise<T> => (await import(pathToFileURL(path.join(tree, file)).href)) as T;
  const builder = await module<{ buildSearchIndex(docs: Document[]): unknown }>('src/core/search/build-index.ts');
  const name = `before (${path.basename(tree)})`;
  const queries = (JSON.parse(readFileSync(queryFile, 'utf8')) as { latency: string[] }).latency;
  if (!existsSync(path.join(tree, 'src/core/search/shard-reader.ts'))) {
    const file = path.join(outDir, `search-index-${n}-before.bin`);
    writeFileSync(file, builder.buildSearchIndex(corpus.documents) as Uint8Array);
    return { name, child: path.join(tree, 'bench', 'search-child.ts'), args: ['--index', file] };
  }
  // Index version 1: a head and shard files, read whole one by one.
  type Loader = (file: string) => Uint8Array;
  const { shardSearchIndex } = await module<{ shardSearchIndex(data: unknown): Map<string, string | Uint8Array> }>(
    'src/core/search/shard-index.ts',
  );
  const { loadShardedSearchIndex } = await module<{ loadShardedSearchIndex(load: Loader): { search(q: string): unknown } }>(
    'src/core/search/shard-reader.ts',
  );
  const dir = path.join(outDir, `search-shards-${n}-before`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const [file, contents] of shardSearchIndex(builder.buildSearchIndex(corpus.documents)))
    writeFileSync(path.join(dir, file), contents);
  const bytes: number[] = [];
  const ms: number[] = [];
  for (let pass = 0; pass < 2; pass++) {
    // Pass 0 warms the JIT, as the child's cold pass runs after its warm passes.
    for (const q of queries) {
      let read = 0;
      const start = performance.now();
      loadShardedSearchIndex((file) => {
        const contents = readFileSync(path.join(dir, file));
        read += contents.length;
        return contents;
      }).search(q);
      if (pass === 1) {
        ms.push(performance.now() - start);
        bytes.push(read);
      }
    }
  }
  const ascending = (list: number[]): number[] => list.sort((x, y) => x - y);
  return {
    name,
    child: path.join(tree, 'bench', 'search-child.ts'),
    args: ['--shards', dir],
    cold: { bytes: ascending(bytes), ms: ascending(ms) },
  };
}

// 4. Fresh processes: load, latency, memory, relevance, cold reads; the layouts interleaved.
interface ChildResult {
  importMs: number;
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
  coldMsP50?: number;
  coldMsP90?: number;
  coldBytesP50?: number;
  coldBytesP90?: number;
  coldBytesMax?: number;
  coldReadsP50?: number;
  relevance: { id: string; kind: string; rank: number; top: string | null }[];
}
const results = new Map<Layout, ChildResult[]>(layouts.map((l) => [l, []]));
for (let run = 0; run < runs; run++) {
  // Interleaved, so load from other processes falls on every layout alike.
  for (const layout of layouts) {
    const stdout = execFileSync(process.execPath, ['--expose-gc', layout.child, ...layout.args, '--queries', queryFile], {
      encoding: 'utf8',
      maxBuffer: 64 * MB,
    });
    results.get(layout)!.push(JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildResult);
  }
}

const current = results.get(layouts.at(-1)!)!;
const medOf = (list: ChildResult[], key: keyof Omit<ChildResult, 'relevance'>): number => median(list.map((r) => r[key] as number));
const med = (key: keyof Omit<ChildResult, 'relevance'>): number => medOf(current, key);
const relevance = current[0]!.relevance;
const sameRelevance = layouts.every((l) => JSON.stringify(results.get(l)![0]!.relevance) === JSON.stringify(relevance));
const planted = relevance.filter((r) => r.kind === 'planted');
const known = relevance.filter((r) => r.kind === 'known-item');
const hitAt1 = (rows: typeof relevance): number => rows.filter((r) => r.rank === 1).length / Math.max(1, rows.length);
const mrr = (rows: typeof relevance): number => rows.reduce((s, r) => s + (r.rank > 0 ? 1 / r.rank : 0), 0) / Math.max(1, rows.length);
const misses = planted
  .filter((r) => r.rank !== 1)
  .map((r) => `${r.id} → ${r.rank === 0 ? 'not in top 10' : `rank ${r.rank}`} (top: ${r.top})`);
/** Cold-query percentiles of a layout: from its child, or counted and timed here (the earlier sharded format). */
const coldOf = (layout: Layout): { p50: number; p90: number; max: number; msP50: number; msP90: number } => {
  if (layout.cold !== undefined) {
    const at = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
    const { bytes, ms } = layout.cold;
    return { p50: at(bytes, 50), p90: at(bytes, 90), max: bytes.at(-1)!, msP50: at(ms, 50), msP90: at(ms, 90) };
  }
  const list = results.get(layout)!;
  return {
    p50: medOf(list, 'coldBytesP50'),
    p90: medOf(list, 'coldBytesP90'),
    max: medOf(list, 'coldBytesMax'),
    msP50: medOf(list, 'coldMsP50'),
    msP90: medOf(list, 'coldMsP90'),
  };
};

// 5. Report.
const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const lines = [
  `Search benchmark: N = ${n.toLocaleString('en')} documents (seed ${seed}), ${(bodyChars / 1e6).toFixed(1)} M body chars, Node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, 1-min load average ${fmt(loadAverageAtStart)} → ${fmt(os.loadavg()[0]!)} (latency percentiles need an otherwise idle machine)`,
  '',
  row([
    'code',
    'cold query reads p50 / p90 / max KB',
    'cold query ms p50 / p90',
    'load ms',
    'warm p50 ms',
    'p90 ms',
    'p99 ms',
    'heap Δ MB',
    'read by one process MB',
    'answers',
  ]),
  row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---']),
  ...layouts.map((layout) => {
    const list = results.get(layout)!;
    const cold = coldOf(layout);
    return row([
      layout.name,
      `**${fmt(cold.p50 / KB, 1)}** / ${fmt(cold.p90 / KB, 1)} / ${fmt(cold.max / KB, 1)}`,
      `${fmt(cold.msP50, 2)} / ${fmt(cold.msP90, 2)}`,
      fmt(medOf(list, 'totalLoadMs'), 1),
      fmt(medOf(list, 'p50Ms'), 3),
      fmt(medOf(list, 'p90Ms'), 3),
      fmt(medOf(list, 'p99Ms'), 3),
      fmt(medOf(list, 'heapQueriesMB'), 1),
      fmt(medOf(list, 'readQueriesMB'), 2),
      layout === layouts.at(-1)
        ? `hit@1 ${fmt(hitAt1(planted))}, known-item ${fmt(hitAt1(known), 3)}`
        : sameRelevance
          ? 'same'
          : 'DIFFERENT',
    ]);
  }),
  '',
  `- Index file: ${fmt(rawBytes / MB, 2)} MB (deflate ${fmt(deflateBytes / MB, 2)} MB, gzip ${fmt(gzipBytes / MB, 2)} MB), built in ${fmt(buildS)} s; head ${fmt(headBytes / KB, 1)} KB; sections KB: ${Object.entries(
    parts,
  )
    .map(([name, bytes]) => `${name} ${fmt(bytes / KB, 1)}`)
    .join(
      ', ',
    )}; ${opened.terms.length.toLocaleString('en')} terms, ${opened.lex.length.toLocaleString('en')} lexicon words. Corpus generation ${fmt(generateS, 1)} s.`,
  `- Cold query: each of the ${current[0]!.timedQueries / passes} latency queries on a fresh engine over the file (open, head, query: what a new function instance does), the bytes it read (head included) and its time, after the warm passes (the code is compiled, the file in the page cache); ${med('coldReadsP50')} reads at the median.${layouts[0]!.cold ? ` The earlier sharded format's cold queries are counted and timed in this process (head and shard files read whole), after one untimed pass.` : ''} Load = open + head. "Read by one process" = everything one process read for all its queries.`,
  `- Latency: ${current[0]!.timedQueries} timed queries per process (${planted.length} planted + ${GENERATED_QUERY_COUNT} generated, 1 warm-up + ${passes} timed passes, top 10 with stored fields); max ${fmt(med('maxMs'), 2)} ms; medians over ${runs} processes. The warm-up pass (every query's first run after load) gives p50 ${fmt(med('firstPassP50Ms'), 3)} ms, p99 ${fmt(med('firstPassP99Ms'), 2)} ms; first query after load ${fmt(med('firstQueryMs'), 2)} ms; module import ${fmt(med('importMs'), 1)} ms (not included).`,
  `- Memory after forced GC, relative to before loading: heap+external Δ ${fmt(med('heapLoadMB'), 1)} MB after load, ${fmt(med('heapQueriesMB'), 1)} MB after all queries; RSS Δ ${fmt(med('rssLoadMB'), 1)} / ${fmt(med('rssQueriesMB'), 1)} MB.`,
  `- Relevance: ${planted.length} planted queries, hit@1 ${fmt(hitAt1(planted))}${misses.length ? `; misses: ${misses.join('; ')}` : ''}. Known-item: ${known.length} unique titles as queries, hit@1 ${fmt(hitAt1(known), 3)}, MRR@10 ${fmt(mrr(known), 3)}.${layouts.length > 1 ? ` Relevance answers of every tree ${sameRelevance ? 'identical' : 'DIFFERENT'}.` : ''}`,
];
if (n === 10_000) {
  const reads = coldOf(layouts.at(-1)!);
  const checks = [
    ['p50', med('p50Ms') <= TARGETS.p50Ms],
    ['p99', med('p99Ms') <= TARGETS.p99Ms],
    ['load', med('totalLoadMs') <= TARGETS.loadMs],
    ['gzip size', gzipBytes / MB <= TARGETS.gzipMB],
    ['cold read p50', reads.p50 <= COLD_READ_TARGETS.p50Bytes],
    ['cold read p90', reads.p90 <= COLD_READ_TARGETS.p90Bytes],
  ] as const;
  lines.push(
    `- Targets at 10k (p50 ≤ ${TARGETS.p50Ms} ms, p99 ≤ ${TARGETS.p99Ms} ms, load ≤ ${TARGETS.loadMs} ms, gzip ≤ ${TARGETS.gzipMB} MB, cold read p50 ≤ ${COLD_READ_TARGETS.p50Bytes / KB} KB and p90 ≤ ${COLD_READ_TARGETS.p90Bytes / KB} KB): ${checks.map(([name, ok]) => `${name} ${ok ? 'met' : 'MISSED'}`).join(', ')}.`,
  );
}
console.log(lines.join('\n'));
writeFileSync(
  path.join(outDir, `results-${n}.json`),
  JSON.stringify(
    {
      n,
      seed,
      buildS,
      rawBytes,
      gzipBytes,
      deflateBytes,
      parts,
      layouts: layouts.map((l) => ({ name: l.name, cold: coldOf(l), runs: results.get(l) })),
    },
    null,
    2,
  ),
);
