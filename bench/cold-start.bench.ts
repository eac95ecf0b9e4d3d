/**
 * Cold start of the search function (`netlify/functions/api-search.mts`), the MCP function
 * (`netlify/functions/mcp.mts`) and, as the example of a function that needs only the site profile,
 * the OAuth metadata function (`netlify/functions/oauth-metadata.mts`) at generated corpus sizes
 * (issues 7 and 13).
 *
 *     node bench/cold-start.bench.ts [--sizes 1000,10000] [--runs 10] [--seed 42] [--functions search,mcp,oauth-metadata]
 *
 * For each size: generate the corpus (bench/generate-corpus.ts), build its search index file with
 * the site's own builder (as the build does), its sharded catalogue (the catalogue without bodies: a head, documents files, slug
 * files, as the build writes it) and site profile, i.e. the build artefacts the functions read, and
 * lay each function out as Netlify's archive does (bench/bundle-function.ts): the esbuild bundle,
 * the site profile inlined (an esbuild plugin redirects its import to the generated one), the
 * index file and the sharded catalogue as files beside it (netlify.toml `included_files`). Article bodies
 * are deploy-store blobs: a local Blobs server (`@netlify/blobs/server`, run by this process)
 * holds the bodies of the articles the probes read, and each function process gets its deploy
 * store through `NETLIFY_BLOBS_CONTEXT`, so a first `get_article` pays one loopback Blobs read.
 * Peer in the same run: the functions over the current build's data (the seed content).
 *
 * Cold start = a fresh Node process imports the bundle and answers one request (search:
 * `GET /api/search?q=私有化部署`; MCP: `tools/call search_articles`, `initialize`, `resources/list`,
 * `resources/read` of an article, `tools/call get_article` (an article from the middle of the
 * newest-first order);
 * OAuth metadata: `GET /.well-known/oauth-authorization-server`); median of `--runs` processes,
 * every variant interleaved so machine noise spreads over all of them. The process runs in the
 * archive folder, as a function runs in its task folder. RSS is the process's after the answer;
 * "data read" counts the bytes of build data (generated/data) the process read (readFileSync, and
 * readSync of a file it opened there: the search index is read by position).
 * Process spawn and exit are reported separately. Writes bench/.out/cold-start.json.
 *
 * Needs a build: `node scripts/build.ts --origin http://localhost:8899`.
 * @module
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { deflateRawSync } from 'node:zlib';
import { BlobsServer } from '@netlify/blobs/server';
import type { Plugin } from 'esbuild';
import { bodyKey, byNewest, catalogIndex, documentsOf, type Catalog, siteProfile } from '../src/core/content/catalog.ts';
import { shardCatalog } from '../src/core/content/catalog-shards.ts';
import { buildSearchIndex } from '../src/core/search/build-index.ts';
import { SEARCH_INDEX_FILE } from '../src/core/search/index-data.ts';
import { bundleFunction } from './bundle-function.ts';
import { argValue, generateCorpus } from './generate-corpus.ts';
import { fixed, loadAverage, machineFacts, median, MCP_HEADERS, requireBuild, ROOT } from './serving-support.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const SIZES = (argValue(argv, 'sizes') ?? '1000,10000').split(',').map(Number);
const RUNS = Number(argValue(argv, 'runs') ?? 10);
const SEED = Number(argValue(argv, 'seed') ?? 42);
const OUT = path.join(ROOT, 'bench', '.out', 'cold-start');
const MB = 1_000_000;
/** The bounds at 10,000 articles. */
const LIMITS = { mcpColdMs: 150, bundleBytes: 5 * MB };

const SEARCH_QUERY = '私有化部署';
const rpc = (method: string, params: object): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

type FunctionName = 'search' | 'mcp' | 'oauth-metadata';
const FUNCTIONS = (argValue(argv, 'functions') ?? 'search,mcp,oauth-metadata').split(',') as FunctionName[];
const ENTRIES: Record<FunctionName, string> = {
  search: 'netlify/functions/api-search.mts',
  mcp: 'netlify/functions/mcp.mts',
  'oauth-metadata': 'netlify/functions/oauth-metadata.mts',
};
/** What each function reads beside its bundle (as netlify.toml's included_files). */
const BESIDE: Record<FunctionName, ('index' | 'catalog')[]> = {
  search: ['index'],
  mcp: ['index', 'catalog'],
  'oauth-metadata': [],
};
const BESIDE_PATHS: Record<'index' | 'catalog', string> = { index: 'generated/data/search', catalog: 'generated/data/catalog' };

/** The article a probe reads: its slug and its resource URI (its twin's URL). */
interface Sample {
  slug: string;
  uri: string;
}

/** The first request of a cold start, and how its answer is recognised. */
interface Probe {
  label: string;
  request: (sample: Sample) => string;
  expect: string;
}
const mcpPost = (method: string, params: object): string =>
  `new Request('http://localhost/mcp', { method: 'POST', headers: ${JSON.stringify(MCP_HEADERS)}, body: ${JSON.stringify(rpc(method, params))} })`;
const PROBES: Record<FunctionName, Probe[]> = {
  search: [
    {
      label: 'GET /api/search',
      request: () => `new Request('http://localhost/api/search?q=' + encodeURIComponent(${JSON.stringify(SEARCH_QUERY)}))`,
      expect: `text.startsWith('[{"slug"')`,
    },
  ],
  mcp: [
    {
      label: 'tools/call search_articles',
      request: () => mcpPost('tools/call', { name: 'search_articles', arguments: { query: SEARCH_QUERY, limit: 10 } }),
      expect: `text.includes('"results":[{')`,
    },
    {
      label: 'initialize',
      request: () =>
        mcpPost('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } }),
      expect: `text.includes('"serverInfo"')`,
    },
    {
      label: 'resources/list (first page)',
      request: () => mcpPost('resources/list', {}),
      expect: `text.includes('"resources":[{')`,
    },
    {
      label: 'resources/read (an article; body from Blobs)',
      request: ({ uri }) => mcpPost('resources/read', { uri }),
      expect: `text.includes('"contents":[{')`,
    },
    {
      label: 'tools/call get_article (body from Blobs)',
      request: ({ slug }) => mcpPost('tools/call', { name: 'get_article', arguments: { slug } }),
      expect: `text.includes('"markdown":') && !text.includes('"isError":true')`,
    },
  ],
  'oauth-metadata': [
    {
      label: 'GET /.well-known/oauth-authorization-server',
      request: () => `new Request('http://localhost/.well-known/oauth-authorization-server')`,
      expect: `text.includes('"issuer"')`,
    },
  ],
};

interface DataFiles {
  /** The search index: a folder holding its file (generated/data/search/). */
  index: string;
  /** The sharded catalogue: a folder (generated/data/catalog/). */
  catalog: string;
  profile: string;
}

/** A file, or every file in a folder. */
const filesOf = (at: string): string[] =>
  statSync(at).isDirectory()
    ? readdirSync(at)
        .sort()
        .map((name) => path.join(at, name))
    : [at];

interface Variant {
  fn: FunctionName;
  probe: Probe;
  sample: Sample;
  articles: number;
  data: string;
  file: string;
  root: string;
  bundleBytes: number;
  besideBytes: number;
  /** Bundle plus the files beside it, deflated as Netlify's zip stores them (its node_modules aside). */
  archiveBytes: number;
}

/** Redirects the site-profile import to the generated one (esbuild then inlines it). */
function profileRedirect(profile: string): Plugin {
  return {
    name: 'bench-profile',
    setup(b) {
      b.onResolve({ filter: /generated\/data\/site-profile\.json$/ }, () => ({ path: profile }));
    },
  };
}

const deflated = (file: string): number => deflateRawSync(readFileSync(file)).length;

async function layOut(fn: FunctionName, name: string, files: DataFiles): Promise<Omit<Variant, 'probe' | 'sample' | 'articles' | 'data'>> {
  const root = path.join(OUT, name);
  rmSync(root, { recursive: true, force: true });
  const beside = Object.fromEntries(BESIDE[fn].map((kind) => [BESIDE_PATHS[kind], files[kind]]));
  const { file, bytes } = await bundleFunction(ENTRIES[fn], root, { plugins: [profileRedirect(files.profile)], beside });
  const besideFiles = Object.values(beside).flatMap(filesOf);
  return {
    fn,
    file,
    root,
    bundleBytes: bytes,
    besideBytes: besideFiles.reduce((sum, f) => sum + statSync(f).size, 0),
    archiveBytes: [file, ...besideFiles].reduce((sum, f) => sum + deflated(f), 0),
  };
}

interface ColdRun {
  importMs: number;
  firstMs: number;
  totalMs: number;
  /** CPU time (user + system, all threads) of import + first response: less sensitive than wall time to other load on a shared machine. */
  cpuMs: number;
  rssMB: number;
  /** Build data (generated/data) read before the answer, MB. */
  readMB: number;
  processMs: number;
}

/** One fresh process in the archive folder: import the bundle, answer one request, check the answer. */
async function coldStart(variant: Variant): Promise<ColdRun> {
  const script = `
    const fs = process.getBuiltinModule('node:fs');
    const readFileSync = fs.readFileSync;
    let readBytes = 0;
    const isData = (file) => String(file instanceof URL ? file.pathname : file).includes('generated/data/');
    fs.readFileSync = function (file, ...rest) {
      const out = readFileSync.call(this, file, ...rest);
      if (isData(file)) readBytes += typeof out === 'string' ? Buffer.byteLength(out) : out.length;
      return out;
    };
    const dataFds = new Set();
    const openSync = fs.openSync;
    fs.openSync = function (file, ...rest) {
      const fd = openSync.call(this, file, ...rest);
      if (isData(file)) dataFds.add(fd);
      return fd;
    };
    const readSync = fs.readSync;
    fs.readSync = function (fd, ...rest) {
      const count = readSync.call(this, fd, ...rest);
      if (dataFds.has(fd)) readBytes += count;
      return count;
    };
    process.getBuiltinModule('node:module').syncBuiltinESMExports();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const { default: handler } = await import(${JSON.stringify(pathToFileURL(variant.file).href)});
    const t1 = performance.now();
    const res = await handler(${variant.probe.request(variant.sample)}, { ip: '127.0.0.1', params: {} });
    const text = await res.text();
    const t2 = performance.now();
    const c = process.cpuUsage(c0);
    if (res.status !== 200 || !(${variant.probe.expect})) throw new Error('bad first response ' + res.status + ' ' + text.slice(0, 300));
    console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, totalMs: t2 - t0, cpuMs: (c.user + c.system) / 1000, rssMB: process.memoryUsage().rss / 1e6, readMB: readBytes / 1e6 }));`;
  const started = performance.now();
  // Asynchronous: this process's Blobs server answers the function's body read meanwhile.
  const { stdout: out } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: variant.root,
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 16 * MB,
    env: { ...process.env, NETLIFY_BLOBS_CONTEXT: blobsContext },
  });
  const processMs = performance.now() - started;
  return { ...(JSON.parse(out.trim().split('\n').pop()!) as Omit<ColdRun, 'processMs'>), processMs };
}

requireBuild();
mkdirSync(OUT, { recursive: true });
const startedAt = new Date();
const siteCatalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as Catalog;

// The deploy store of every function process: a local Blobs server holding the sampled bodies.
const BLOBS_TOKEN = 'bench-token';
const blobsDir = mkdtempSync(path.join(tmpdir(), 'bench-cold-blobs-'));
const blobsServer = new BlobsServer({ directory: blobsDir, token: BLOBS_TOKEN, port: 0 });
const blobsUrl = `http://127.0.0.1:${(await blobsServer.start()).port}`;
const blobsContext = Buffer.from(
  JSON.stringify({
    siteID: '0',
    deployID: '0',
    token: BLOBS_TOKEN,
    edgeURL: blobsUrl,
    uncachedEdgeURL: blobsUrl,
    primaryRegion: 'us-east-2',
  }),
).toString('base64');
/** The article the probes read (the middle one in newest-first order), its body put in the deploy store. */
function sampleOf(catalog: Catalog): Sample {
  const articles = documentsOf(catalog).filter((d) => d.type === 'article');
  const doc = articles[Math.floor(articles.length / 2)]!;
  const file = path.join(blobsDir, 'entries', '0', 'deploy:0', ...bodyKey(doc.slug).split('/'));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, doc.markdown);
  return { slug: doc.slug, uri: `${catalog.origin}${doc.path}.md` };
}

const variants: Variant[] = [];
const add = async (articles: number, data: string, files: DataFiles, tag: string, sample: Sample): Promise<void> => {
  for (const fn of FUNCTIONS) {
    const laidOut = await layOut(fn, `${fn}-${tag}`, files);
    for (const probe of PROBES[fn]) variants.push({ ...laidOut, probe, sample, articles, data });
  }
};

// Peer: the current build (seed content).
const siteFiles: DataFiles = {
  index: path.join(ROOT, 'generated', 'data', 'search'),
  catalog: path.join(ROOT, 'generated', 'data', 'catalog'),
  profile: path.join(ROOT, 'generated', 'data', 'site-profile.json'),
};
await add(
  siteCatalog.articles.length + siteCatalog.solutions.length,
  'site build (seed content)',
  siteFiles,
  'site',
  sampleOf(siteCatalog),
);

const corpusFacts: Record<
  number,
  {
    generateS: number;
    indexBuildS: number;
    indexMB: number;
    catalogIndexMB: number;
    catalogFiles: number;
    catalogMB: number;
    bodiesMB: number;
  }
> = {};
for (const n of SIZES) {
  let t = performance.now();
  const corpus = generateCorpus({ n, seed: SEED });
  const generateS = (performance.now() - t) / 1000;
  t = performance.now();
  const index = buildSearchIndex(corpus.documents);
  const indexBuildS = (performance.now() - t) / 1000;
  // Each list newest first, as the site's catalogue orders them (the sharded catalogue requires it).
  const catalog: Catalog = {
    ...siteCatalog,
    articles: (corpus.documents.filter((d) => d.type === 'article') as Catalog['articles']).sort(byNewest),
    solutions: (corpus.documents.filter((d) => d.type === 'solution') as Catalog['solutions']).sort(byNewest),
  };
  const files: DataFiles = {
    index: path.join(OUT, `search-index-${n}`),
    catalog: path.join(OUT, `catalog-shards-${n}`),
    profile: path.join(OUT, `site-profile-${n}.json`),
  };
  const bodyless = catalogIndex(catalog);
  const catalogShards = shardCatalog(bodyless);
  for (const [dir, contents] of [
    [files.index, new Map([[SEARCH_INDEX_FILE, index]])],
    [files.catalog, catalogShards],
  ] as const) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    for (const [name, text] of contents) writeFileSync(path.join(dir, name), text);
  }
  writeFileSync(files.profile, JSON.stringify(siteProfile(catalog)));
  corpusFacts[n] = {
    generateS,
    indexBuildS,
    indexMB: index.length / MB,
    catalogIndexMB: Buffer.byteLength(JSON.stringify(bodyless)) / MB,
    catalogFiles: catalogShards.size,
    catalogMB: filesOf(files.catalog).reduce((sum, f) => sum + statSync(f).size, 0) / MB,
    bodiesMB: corpus.documents.reduce((sum, d) => sum + Buffer.byteLength(d.markdown), 0) / MB,
  };
  await add(n, 'generated corpus', files, String(n), sampleOf(catalog));
}

// Interleaved fresh processes: run r of every variant, then run r + 1.
const loadBefore = loadAverage();
const runs = new Map<Variant, ColdRun[]>(variants.map((v) => [v, []]));
for (let r = 0; r < RUNS; r++) {
  for (const variant of variants) runs.get(variant)!.push(await coldStart(variant));
}
const loadAfter = loadAverage();
await blobsServer.stop();
rmSync(blobsDir, { recursive: true, force: true });

const rows = variants.map((v) => {
  const list = runs.get(v)!;
  const pick = (key: keyof ColdRun): number[] => list.map((x) => x[key]);
  return {
    fn: path.basename(ENTRIES[v.fn], '.mts'),
    request: v.probe.label,
    articles: v.articles,
    data: v.data,
    bundleMB: v.bundleBytes / MB,
    besideMB: v.besideBytes / MB,
    archiveMB: v.archiveBytes / MB,
    importMs: median(pick('importMs')),
    firstMs: median(pick('firstMs')),
    totalMs: median(pick('totalMs')),
    totalMinMs: Math.min(...pick('totalMs')),
    totalMaxMs: Math.max(...pick('totalMs')),
    cpuMs: median(pick('cpuMs')),
    rssMB: median(pick('rssMB')),
    readMB: median(pick('readMB')),
    processMs: median(pick('processMs')),
    runs: list,
  };
});

const command = `node bench/cold-start.bench.ts --sizes ${SIZES.join(',')} --runs ${RUNS} --seed ${SEED} --functions ${FUNCTIONS.join(',')}`;
const table = [
  '| function | first request | articles | bundle MB | files beside MB | archive MB (deflate) | data read MB | import ms | first response ms | **import + first ms** (min–max) | CPU ms | RSS MB | whole process ms |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.fn} | ${r.request} | ${r.articles.toLocaleString('en')} | ${fixed(r.bundleMB, 2)} | ${fixed(r.besideMB, 2)} | ${fixed(r.archiveMB, 2)} | ${fixed(r.readMB, 2)} | ${fixed(r.importMs)} | ${fixed(r.firstMs)} | **${fixed(r.totalMs)}** (${fixed(r.totalMinMs)}–${fixed(r.totalMaxMs)}) | ${fixed(r.cpuMs)} | ${fixed(r.rssMB)} | ${fixed(r.processMs)} |`,
  ),
].join('\n');
const facts = SIZES.map((n) => {
  const f = corpusFacts[n]!;
  return `${n.toLocaleString('en')}: corpus ${fixed(f.generateS, 1)} s, index build ${fixed(f.indexBuildS, 1)} s, index ${fixed(f.indexMB, 2)} MB (one file), catalogue ${fixed(f.catalogIndexMB, 2)} MB whole (sharded: ${f.catalogFiles} files, ${fixed(f.catalogMB, 2)} MB), bodies ${fixed(f.bodiesMB, 2)} MB (deploy store)`;
}).join('; ');
const verdicts = SIZES.filter((n) => n === 10_000).flatMap((n) => {
  const mcp = rows.find((r) => r.fn === 'mcp' && r.articles === n && r.request.startsWith('tools/call'));
  const biggest = Math.max(...rows.filter((r) => r.articles === n).map((r) => r.bundleMB));
  return [
    ...(mcp
      ? [
          `MCP cold start at 10,000: ${fixed(mcp.totalMs)} ms (limit ${LIMITS.mcpColdMs}): ${mcp.totalMs <= LIMITS.mcpColdMs ? 'holds' : 'misses'}`,
        ]
      : []),
    `largest bundle at 10,000: ${fixed(biggest, 2)} MB (limit ${LIMITS.bundleBytes / MB}): ${biggest * MB <= LIMITS.bundleBytes ? 'holds' : 'misses'}`,
  ];
});
console.log(
  `\n${command}\n\n${startedAt.toISOString()}, ${machineFacts()}, load average ${loadBefore} → ${loadAfter}; median of ${RUNS} fresh processes per row (interleaved). Data: ${facts}.\n\n${table}\n\n${verdicts.join('\n')}\n`,
);
writeFileSync(
  path.join(ROOT, 'bench', '.out', 'cold-start.json'),
  JSON.stringify({ command, startedAt, machine: machineFacts(), loadBefore, loadAfter, runsPerRow: RUNS, corpusFacts, rows }, null, 2),
);
console.log('Wrote bench/.out/cold-start.json');
