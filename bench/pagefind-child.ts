/**
 * One fresh-process measurement of a Pagefind index for pagefind.bench.ts: loads the generated
 * `pagefind.js` in Node, with a small file-backed `fetch` (Pagefind fetches its entry file, metadata,
 * WebAssembly, index chunks and fragments relative to `pagefind.js`; Node's fetch has no `file:`)
 * and a minimal `document` so Pagefind picks the language of each instance. Prints one JSON line.
 *
 *     node bench/pagefind-child.ts --bundle DIR --queries FILE
 *
 * Bilingual queries: Pagefind writes one index per language. Two instances (zh-cn, en) are loaded;
 * "routed" sends a query with any Han character to the zh-cn index and others to the en index (the
 * best case for Pagefind on the planted queries); "merged" queries both and merges by score.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const arg = (name: string): string => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0 || argv[i + 1] === undefined) throw new Error(`missing --${name}`);
  return argv[i + 1]!;
};
const bundleDir = path.resolve(arg('bundle'));
const zhLanguage = argv.includes('--zh-language') ? arg('zh-language') : 'zh-cn';
const queries = JSON.parse(readFileSync(arg('queries'), 'utf8')) as {
  latency: string[];
  passes: number;
  relevance: { id: string; query: string; target: string; kind: string }[];
};

// --- file-backed fetch: counts the bytes each request would download ------------------------------
let fetchedBytes = 0;
let fetchedFiles = 0;
const originalFetch = globalThis.fetch;
const TYPES: Record<string, string> = { '.json': 'application/json', '.js': 'text/javascript' };
globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.protocol !== 'file:') return originalFetch(input, init);
  url.search = '';
  url.hash = '';
  try {
    const bytes = await readFile(fileURLToPath(url));
    fetchedBytes += bytes.length;
    fetchedFiles++;
    return new Response(bytes, {
      status: 200,
      headers: { 'content-type': TYPES[path.extname(url.pathname)] ?? 'application/octet-stream' },
    });
  } catch {
    return new Response('not found', { status: 404 });
  }
}) as typeof fetch;

/** The language Pagefind's detectLanguage() reads, set before each createInstance(). */
let pageLanguage = 'unknown';
(globalThis as { document?: unknown }).document = { currentScript: null, querySelector: () => ({ getAttribute: () => pageLanguage }) };

interface PagefindResult {
  id: string;
  score: number;
  data(): Promise<{ url: string; meta: Record<string, string> }>;
}
interface PagefindInstance {
  init(): Promise<void>;
  search(term: string): Promise<{ results: PagefindResult[] } | null>;
  destroy(): Promise<void>;
}
interface PagefindModule {
  createInstance(options: { basePath?: string }): PagefindInstance;
}

const moduleUrl = pathToFileURL(path.join(bundleDir, 'pagefind.js')).href;
let moduleCopy = 0;
/** A fresh copy of pagefind.js (its own module state), like a new browser page. */
async function loadModule(): Promise<PagefindModule> {
  return (await import(`${moduleUrl}?copy=${moduleCopy++}`)) as PagefindModule;
}

async function instanceFor(mod: PagefindModule, language: string): Promise<PagefindInstance> {
  pageLanguage = language;
  const instance = mod.createInstance({ basePath: `${pathToFileURL(bundleDir).href}/` });
  await instance.init();
  // Pagefind loads its entry file, metadata and wasm in the background after init(); an empty query
  // returns as soon as they are loaded, without fetching any index chunk.
  await instance.search('');
  return instance;
}

const HAN = /\p{Script=Han}/u;
const slugOf = (url: string): string => url.replace(/\/$/, '').split('/').pop()!;

/** Top 10 results (with their fragments, i.e. url and title) of one instance. */
async function top10(instance: PagefindInstance, query: string): Promise<{ slug: string; score: number }[]> {
  const response = await instance.search(query);
  const results = (response?.results ?? []).slice(0, 10);
  const data = await Promise.all(results.map((r) => r.data()));
  return data.map((d, i) => ({ slug: slugOf(d.url), score: results[i]!.score }));
}

async function routed(zh: PagefindInstance, en: PagefindInstance, query: string): Promise<{ slug: string; score: number }[]> {
  return top10(HAN.test(query) ? zh : en, query);
}

async function merged(zh: PagefindInstance, en: PagefindInstance, query: string): Promise<{ slug: string; score: number }[]> {
  const [a, b] = await Promise.all([top10(zh, query), top10(en, query)]);
  return [...a, ...b].sort((x, y) => y.score - x.score).slice(0, 10);
}

// 1. Load: per language (as a page of that language would), import pagefind.js and init an
//    instance (entry, metadata, wasm). One module copy per language: the wasm module is a module-level
//    singleton in pagefind.js, and the en index needs the en wasm (stemmer), zh-cn the generic one.
const t0 = performance.now();
const modZh = await loadModule();
const t1 = performance.now();
const zh = await instanceFor(modZh, zhLanguage);
const t2 = performance.now();
const en = await instanceFor(await loadModule(), 'en');
const t3 = performance.now();
const initBytes = fetchedBytes;

// 2. Latency (routed, top 10 with fragments): warm-up pass (every chunk and fragment fetched on the
//    spot), then timed passes over cached chunks.
const firstPass: number[] = [];
for (const q of queries.latency) {
  const s = performance.now();
  await routed(zh, en, q);
  firstPass.push(performance.now() - s);
}
const timings: number[] = [];
const searchOnly: number[] = [];
for (let pass = 0; pass < queries.passes; pass++) {
  for (const q of queries.latency) {
    let s = performance.now();
    await routed(zh, en, q);
    timings.push(performance.now() - s);
    s = performance.now();
    await (HAN.test(q) ? zh : en).search(q);
    searchOnly.push(performance.now() - s);
  }
}
const sortNum = (a: number, b: number): number => a - b;
for (const list of [firstPass, timings, searchOnly]) list.sort(sortNum);
const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

// 3. Relevance: routed and merged.
const relevance = [];
for (const { id, query, target, kind } of queries.relevance) {
  const r = await routed(zh, en, query);
  const m = await merged(zh, en, query);
  relevance.push({
    id,
    kind,
    rank: r.findIndex((h) => h.slug === target) + 1,
    top: r[0]?.slug ?? null,
    mergedRank: m.findIndex((h) => h.slug === target) + 1,
  });
}

// 4. What one query costs a fresh page: pagefind.js (gzip, as a CDN sends it) + entry + metadata +
//    wasm + the index chunks + the 10 fragments of the results. One fresh module copy per query.
const scriptGzipBytes = gzipSync(readFileSync(path.join(bundleDir, 'pagefind.js'))).length;
const freshQueryBytes: number[] = [];
const freshQueryFiles: number[] = [];
for (const { query } of queries.relevance.filter((r) => r.kind === 'planted')) {
  const copy = await loadModule();
  const beforeBytes = fetchedBytes;
  const beforeFiles = fetchedFiles;
  const instance = await instanceFor(copy, HAN.test(query) ? zhLanguage : 'en');
  await top10(instance, query);
  freshQueryBytes.push(fetchedBytes - beforeBytes + scriptGzipBytes);
  freshQueryFiles.push(fetchedFiles - beforeFiles + 1);
  await instance.destroy();
}
freshQueryBytes.sort(sortNum);
freshQueryFiles.sort(sortNum);

console.log(
  JSON.stringify({
    importMs: t1 - t0,
    initZhMs: t2 - t1,
    initEnMs: t3 - t2, // import + init
    totalLoadMs: t3 - t0,
    initBytes,
    timedQueries: timings.length,
    p50Ms: pct(timings, 50),
    p90Ms: pct(timings, 90),
    p99Ms: pct(timings, 99),
    maxMs: timings.at(-1),
    searchOnlyP50Ms: pct(searchOnly, 50),
    searchOnlyP99Ms: pct(searchOnly, 99),
    firstPassP50Ms: pct(firstPass, 50),
    firstPassP99Ms: pct(firstPass, 99),
    freshQueryBytesP50: pct(freshQueryBytes, 50),
    freshQueryBytesMax: freshQueryBytes.at(-1),
    freshQueryFilesP50: pct(freshQueryFiles, 50),
    rssMB: process.memoryUsage().rss / 1_048_576,
    relevance,
  }),
);
process.exit(0);
