/**
 * Our search index vs Pagefind's own index of the same corpus (issue 7), both queried from Node.
 *
 *     node bench/pagefind.bench.ts [--n 10000] [--seed 42] [--runs 3] [--passes 3]
 *
 * Corpus: bench/generate-corpus.ts (N documents, 40% zh / 50% en / 10% mixed). Ours: the site's
 * builder (`buildSearchIndex`: the index file), measured by bench/search-child.ts. Pagefind:
 * its Node API (`createIndex`, one `addCustomRecord` per document with the same text we index (title,
 * excerpt, tags, markdown as plain text), language zh-cn or en, `writeFiles`; `maxFragments` as the
 * site's build step sets it), measured by
 * bench/pagefind-child.ts, which loads the generated pagefind.js in Node. Same queries both sides:
 * 30 planted queries with known targets + 170 generated (search.bench.ts's mix); `--runs` fresh
 * processes per engine, interleaved; medians. Writes bench/.out/pagefind.json.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as pagefind from 'pagefind';
import { searchResults } from '../src/core/search/api.ts';
import type { Document } from '../src/core/content/catalog.ts';
import { buildSearchIndex } from '../src/core/search/build-index.ts';
import { markdownToSearchText } from '../src/core/search/markdown-text.ts';
import { loadSearchIndex } from '../src/core/search/search-index.ts';
import { PAGEFIND_MAX_FRAGMENTS } from '../scripts/pagefind-index.ts';
import { argValue, generateBenchQueries, generateCorpus } from './generate-corpus.ts';
import { fixed, loadAverage, machineFacts, median, ROOT } from './serving-support.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const N = Number(argValue(argv, 'n') ?? 10_000);
const SEED = Number(argValue(argv, 'seed') ?? 42);
const RUNS = Number(argValue(argv, 'runs') ?? 3);
const PASSES = Number(argValue(argv, 'passes') ?? 3);
/** Pagefind language code of the Chinese documents (the site's pages say zh-CN). */
const ZH_LANGUAGE = argValue(argv, 'zh-language') ?? 'zh-cn';
const OUT = path.join(ROOT, 'bench', '.out', 'pagefind');
const PAGEFIND_DIR = path.join(OUT, `pagefind-${N}`);
const MB = 1_000_000;
const KB = 1_000;

mkdirSync(OUT, { recursive: true });
const startedAt = new Date();
const loadBefore = loadAverage();

// 1. Corpus and queries.
const corpus = generateCorpus({ n: N, seed: SEED });
const queryFile = path.join(OUT, `queries-${N}.json`);
writeFileSync(
  queryFile,
  JSON.stringify({
    latency: [...corpus.planted.map((p) => p.query), ...generateBenchQueries({ count: 170, seed: SEED })],
    passes: PASSES,
    relevance: corpus.planted.map((p) => ({ id: p.id, query: p.query, target: p.target, kind: 'planted' })),
  }),
);

// 2. Our index.
let t = performance.now();
const ourFile = buildSearchIndex(corpus.documents);
const ourBuildS = (performance.now() - t) / 1000;
const ourIndexFile = path.join(OUT, `search-index-${N}.bin`);
writeFileSync(ourIndexFile, ourFile);
const ours = { rawBytes: ourFile.length, gzipBytes: gzipSync(ourFile).length, files: 1 };

// What one query downloads from /api/search: the JSON answer (top 10).
const engine = loadSearchIndex(ourFile);
const answerBytes = corpus.planted.map((p) =>
  Buffer.byteLength(JSON.stringify(searchResults(engine, 'https://example.com', p.query, { limit: 10 }))),
);
const answerGzipBytes = corpus.planted.map(
  (p) => gzipSync(JSON.stringify(searchResults(engine, 'https://example.com', p.query, { limit: 10 }))).length,
);

// 3. Pagefind's index of the same documents.
const pagefindText = (doc: Document): string =>
  `${doc.title}\n${doc.excerpt}\n${doc.tags.join('\n')}\n${markdownToSearchText(doc.markdown)}`;
t = performance.now();
rmSync(PAGEFIND_DIR, { recursive: true, force: true });
const { index, errors } = await pagefind.createIndex({ maxFragments: PAGEFIND_MAX_FRAGMENTS });
if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
const BATCH = 200;
for (let i = 0; i < corpus.documents.length; i += BATCH) {
  const added = await Promise.all(
    corpus.documents.slice(i, i + BATCH).map((doc) =>
      index.addCustomRecord({
        url: `${doc.path}/`,
        content: pagefindText(doc),
        language: doc.lang === 'zh' ? ZH_LANGUAGE : 'en',
        meta: { title: doc.title },
      }),
    ),
  );
  const failed = added.flatMap((a) => a.errors);
  if (failed.length) throw new Error(`Pagefind addCustomRecord: ${failed.slice(0, 3).join('; ')}`);
}
const written = await index.writeFiles({ outputPath: PAGEFIND_DIR });
if (written.errors.length) throw new Error(`Pagefind writeFiles: ${written.errors.join('; ')}`);
await pagefind.close();
const pagefindBuildS = (performance.now() - t) / 1000;

/** Bytes per kind of Pagefind file: on disk (index, fragments, metadata and wasm are already gzip) and gzip of each file. */
const kinds: Record<string, { files: number; bytes: number; gzipBytes: number }> = {};
const walk = (dir: string): void => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else {
      const kind = entry.name.endsWith('.pf_fragment')
        ? 'fragments'
        : entry.name.endsWith('.pf_index')
          ? 'index chunks'
          : entry.name.endsWith('.pf_meta')
            ? 'metadata'
            : entry.name.startsWith('wasm.')
              ? 'wasm'
              : entry.name.endsWith('.pf_filter')
                ? 'filters'
                : 'scripts, CSS, entry';
      const bytes = readFileSync(file);
      kinds[kind] ??= { files: 0, bytes: 0, gzipBytes: 0 };
      const k = kinds[kind];
      k.files++;
      k.bytes += bytes.length;
      k.gzipBytes += bytes[0] === 0x1f && bytes[1] === 0x8b ? bytes.length : gzipSync(bytes).length;
    }
  }
};
walk(PAGEFIND_DIR);
const pf = Object.values(kinds).reduce(
  (a, k) => ({ files: a.files + k.files, bytes: a.bytes + k.bytes, gzipBytes: a.gzipBytes + k.gzipBytes }),
  { files: 0, bytes: 0, gzipBytes: 0 },
);
const searchDataKinds = ['fragments', 'index chunks', 'metadata', 'filters'];
const pfData = Object.entries(kinds)
  .filter(([k]) => searchDataKinds.includes(k))
  .reduce((a, [, k]) => a + k.bytes, 0);

// 4. Fresh processes, interleaved.
interface OursRun {
  totalLoadMs: number;
  importMs: number;
  p50Ms: number;
  p99Ms: number;
  firstPassP50Ms: number;
  firstPassP99Ms: number;
  rssQueriesMB: number;
  relevance: { id: string; rank: number; top: string | null }[];
}
interface PagefindRun {
  importMs: number;
  initZhMs: number;
  initEnMs: number;
  totalLoadMs: number;
  initBytes: number;
  p50Ms: number;
  p99Ms: number;
  searchOnlyP50Ms: number;
  searchOnlyP99Ms: number;
  firstPassP50Ms: number;
  firstPassP99Ms: number;
  freshQueryBytesP50: number;
  freshQueryBytesMax: number;
  freshQueryFilesP50: number;
  rssMB: number;
  relevance: { id: string; rank: number; top: string | null; mergedRank: number }[];
}
const lastLine = (out: string): string => out.trim().split('\n').at(-1)!;
const oursRuns: OursRun[] = [];
const pfRuns: PagefindRun[] = [];
for (let r = 0; r < RUNS; r++) {
  oursRuns.push(
    JSON.parse(
      lastLine(
        execFileSync(
          process.execPath,
          ['--expose-gc', path.join(ROOT, 'bench', 'search-child.ts'), '--index', ourIndexFile, '--queries', queryFile],
          { encoding: 'utf8', maxBuffer: 64 * MB },
        ),
      ),
    ),
  );
  pfRuns.push(
    JSON.parse(
      lastLine(
        execFileSync(
          process.execPath,
          [path.join(ROOT, 'bench', 'pagefind-child.ts'), '--bundle', PAGEFIND_DIR, '--queries', queryFile, '--zh-language', ZH_LANGUAGE],
          { encoding: 'utf8', maxBuffer: 64 * MB, timeout: 600_000 },
        ),
      ),
    ),
  );
}
const loadAfter = loadAverage();
const med = <T>(runs: T[], key: keyof T): number => median(runs.map((x) => x[key] as number));

const hitAt = (ranks: number[], k: number): number => ranks.filter((rank) => rank > 0 && rank <= k).length / Math.max(1, ranks.length);
const ourRanks = oursRuns[0]!.relevance.map((x) => x.rank);
const pfRanks = pfRuns[0]!.relevance.map((x) => x.rank);
const pfMergedRanks = pfRuns[0]!.relevance.map((x) => x.mergedRank);
const misses = (rows: { id: string; rank: number; top: string | null }[]): string =>
  rows
    .filter((x) => x.rank !== 1)
    .map((x) => `${x.id} → ${x.rank === 0 ? 'not in top 10' : `rank ${x.rank}`}`)
    .join(', ') || 'none';

const command = `node bench/pagefind.bench.ts --n ${N} --seed ${SEED} --runs ${RUNS} --passes ${PASSES} --zh-language ${ZH_LANGUAGE}`;
const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const table = [
  row(['metric', 'ours (`/api/search` index)', 'Pagefind 1.6.0 (custom records)']),
  row(['---', '---:', '---:']),
  row(['build s (index only)', fixed(ourBuildS, 1), fixed(pagefindBuildS, 1)]),
  row(['files', ours.files, pf.files.toLocaleString('en')]),
  row(['on disk MB (all files)', fixed(ours.rawBytes / MB, 2), fixed(pf.bytes / MB, 2)]),
  row(['gzip MB (all files; Pagefind data files are gzip already)', fixed(ours.gzipBytes / MB, 2), fixed(pf.gzipBytes / MB, 2)]),
  row(['search data only (Pagefind: index chunks, fragments, metadata) MB', fixed(ours.rawBytes / MB, 2), fixed(pfData / MB, 2)]),
  row([
    'what one query downloads, fresh page (median of the planted queries)',
    `${fixed(median(answerBytes) / KB, 1)} KB JSON answer (${fixed(median(answerGzipBytes) / KB, 1)} KB gzip); index stays on the server`,
    `${fixed(med(pfRuns, 'freshQueryBytesP50') / KB, 0)} KB in ${med(pfRuns, 'freshQueryFilesP50')} files (max ${fixed(Math.max(...pfRuns.map((x) => x.freshQueryBytesMax)) / KB, 0)} KB)`,
  ]),
  row([
    'load ms (ours: open the file + read its head; Pagefind: import + init zh-cn + init en)',
    fixed(med(oursRuns, 'totalLoadMs')),
    `${fixed(med(pfRuns, 'totalLoadMs'))} (${fixed(med(pfRuns, 'importMs'))} + ${fixed(med(pfRuns, 'initZhMs'))} + ${fixed(med(pfRuns, 'initEnMs'))})`,
  ]),
  row([
    'query p50 / p99 ms, warm, top 10 with title + URL',
    `${fixed(med(oursRuns, 'p50Ms'), 3)} / ${fixed(med(oursRuns, 'p99Ms'), 2)}`,
    `${fixed(med(pfRuns, 'p50Ms'), 2)} / ${fixed(med(pfRuns, 'p99Ms'), 2)}`,
  ]),
  row([
    'Pagefind `search()` alone (no fragments) p50 / p99 ms',
    '—',
    `${fixed(med(pfRuns, 'searchOnlyP50Ms'), 2)} / ${fixed(med(pfRuns, 'searchOnlyP99Ms'), 2)}`,
  ]),
  row([
    'first run of each query (nothing cached) p50 / p99 ms',
    `${fixed(med(oursRuns, 'firstPassP50Ms'), 3)} / ${fixed(med(oursRuns, 'firstPassP99Ms'), 2)}`,
    `${fixed(med(pfRuns, 'firstPassP50Ms'), 2)} / ${fixed(med(pfRuns, 'firstPassP99Ms'), 2)}`,
  ]),
  row([
    `hit@1 / hit@10, ${ourRanks.length} planted queries`,
    `${fixed(hitAt(ourRanks, 1), 2)} / ${fixed(hitAt(ourRanks, 10), 2)}`,
    `routed by script: ${fixed(hitAt(pfRanks, 1), 2)} / ${fixed(hitAt(pfRanks, 10), 2)}; merged by score: ${fixed(hitAt(pfMergedRanks, 1), 2)} / ${fixed(hitAt(pfMergedRanks, 10), 2)}`,
  ]),
].join('\n');
const notes = [
  `Planted misses (hit@1), ours: ${misses(oursRuns[0]!.relevance)}.`,
  `Planted misses (hit@1), Pagefind routed: ${misses(pfRuns[0]!.relevance)}.`,
  `Pagefind files by kind: ${Object.entries(kinds)
    .map(([k, v]) => `${k} ${v.files.toLocaleString('en')} files / ${fixed(v.bytes / MB, 2)} MB`)
    .join('; ')}.`,
  `Pagefind init downloads ${fixed(med(pfRuns, 'initBytes') / KB, 0)} KB for both languages (entry, metadata, wasm).`,
];
console.log(
  `\n${command}\n\n${startedAt.toISOString()}, ${machineFacts()}, load average ${loadBefore} → ${loadAfter}; N = ${N.toLocaleString('en')}, ${RUNS} fresh processes per engine (interleaved), medians.\n\n${table}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`,
);
writeFileSync(
  path.join(ROOT, 'bench', '.out', 'pagefind.json'),
  JSON.stringify(
    {
      command,
      startedAt,
      machine: machineFacts(),
      loadBefore,
      loadAfter,
      n: N,
      ours: { ...ours, buildS: ourBuildS, answerBytes, answerGzipBytes, runs: oursRuns },
      pagefind: { ...pf, dataBytes: pfData, kinds, buildS: pagefindBuildS, runs: pfRuns },
    },
    null,
    2,
  ),
);
console.log('Wrote bench/.out/pagefind.json');
