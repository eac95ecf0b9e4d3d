/**
 * Cold start of the search function (`netlify/functions/api-search.mts`), the MCP function
 * (`netlify/functions/mcp.mts`) and, as the example of a function that needs only the site profile,
 * the OAuth metadata function (`netlify/functions/oauth-metadata.mts`) at 1,000 and 10,000 generated
 * articles (issue 7).
 *
 *     node bench/cold-start.bench.ts [--sizes 1000,10000] [--runs 10] [--seed 42]
 *
 * For each size: generate the corpus (bench/generate-corpus.ts), build its search index with the
 * site's own builder and a catalogue holding its articles and solutions (the two build artefacts
 * the functions import; the site profile derives from it), and bundle each function with esbuild the
 * way Netlify does, the imports of generated/data/search-index.json, catalog.json and
 * site-profile.json redirected to these files so esbuild inlines them. The MCP function is also bundled with the generated index but the site's own (small)
 * catalogue, to separate the two costs. Peer in the same run: both functions bundled with the
 * current build's data (the seed content).
 *
 * Cold start = a fresh Node process imports the bundle and answers one request (search:
 * `GET /api/search?q=私有化部署`; MCP: `tools/call search_articles`; OAuth metadata:
 * `GET /.well-known/oauth-authorization-server`); median of `--runs` processes,
 * the bundles interleaved so machine noise spreads over all of them. Process spawn and exit are
 * reported separately. Writes bench/.out/cold-start.json.
 *
 * Needs a build: `node scripts/build-if-needed.ts --for-tests`.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { type Catalog, siteProfile } from '../src/core/content/catalog.ts';
import { buildSearchIndex, serializeSearchIndex } from '../src/core/search/build-index.ts';
import { bundleFunction } from './bundle-function.ts';
import { argValue, generateCorpus } from './generate-corpus.ts';
import { fixed, loadAverage, machineFacts, median, MCP_HEADERS, requireBuild, ROOT } from './serving-support.ts';

const argv = process.argv.slice(2);
const SIZES = (argValue(argv, 'sizes') ?? '1000,10000').split(',').map(Number);
const RUNS = Number(argValue(argv, 'runs') ?? 10);
const SEED = Number(argValue(argv, 'seed') ?? 42);
const OUT = path.join(ROOT, 'bench', '.out', 'cold-start');
const MB = 1_000_000;

const SEARCH_QUERY = '私有化部署';
const MCP_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_articles', arguments: { query: SEARCH_QUERY, limit: 10 } } });

type FunctionName = 'search' | 'mcp' | 'oauth-metadata';
const ENTRIES: Record<FunctionName, string> = {
  search: 'netlify/functions/api-search.mts',
  mcp: 'netlify/functions/mcp.mts',
  'oauth-metadata': 'netlify/functions/oauth-metadata.mts',
};

interface DataFiles {
  index: string;
  catalog: string;
  profile: string;
}

interface Variant {
  fn: FunctionName;
  label: string;
  articles: number;
  data: string;
  indexBytes: number;
  catalogBytes: number;
  file: string;
  bundleBytes: number;
}

/** Redirects the functions' build-artefact imports to the given files (esbuild then inlines them). */
function dataRedirect(files: DataFiles): Plugin {
  return {
    name: 'bench-data',
    setup(b) {
      b.onResolve({ filter: /generated\/data\/(search-index|catalog|site-profile)\.json$/ }, (args) => ({
        path: args.path.endsWith('search-index.json') ? files.index : args.path.endsWith('site-profile.json') ? files.profile : files.catalog,
      }));
    },
  };
}

function bundle(fn: FunctionName, name: string, files: DataFiles): Promise<{ file: string; bytes: number }> {
  return bundleFunction(ENTRIES[fn], path.join(OUT, `${name}.mjs`), [dataRedirect(files)]);
}

interface ColdRun {
  importMs: number;
  firstMs: number;
  totalMs: number;
  processMs: number;
}

/** One fresh process: import the bundle, answer one request, check the answer. */
function coldStart(variant: Variant): ColdRun {
  const request = {
    search: `new Request('http://localhost/api/search?q=' + encodeURIComponent(${JSON.stringify(SEARCH_QUERY)}))`,
    mcp: `new Request('http://localhost/mcp', { method: 'POST', headers: ${JSON.stringify(MCP_HEADERS)}, body: ${JSON.stringify(MCP_BODY)} })`,
    'oauth-metadata': `new Request('http://localhost/.well-known/oauth-authorization-server')`,
  }[variant.fn];
  const expect = { search: `text.startsWith('[{"slug"')`, mcp: `text.includes('"results":[{')`, 'oauth-metadata': `text.includes('"issuer"')` }[variant.fn];
  const script = `
    const t0 = performance.now();
    const { default: handler } = await import(${JSON.stringify(pathToFileURL(variant.file).href)});
    const t1 = performance.now();
    const res = await handler(${request}, { ip: '127.0.0.1', params: {} });
    const text = await res.text();
    const t2 = performance.now();
    if (res.status !== 200 || !(${expect})) throw new Error('bad first response ' + res.status + ' ' + text.slice(0, 300));
    console.log(JSON.stringify({ importMs: t1 - t0, firstMs: t2 - t1, totalMs: t2 - t0 }));`;
  const started = performance.now();
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000, maxBuffer: 16 * MB });
  const processMs = performance.now() - started;
  return { ...(JSON.parse(out.trim().split('\n').pop()!) as Omit<ColdRun, 'processMs'>), processMs };
}

requireBuild();
mkdirSync(OUT, { recursive: true });
const startedAt = new Date();
const siteCatalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as Catalog;
const siteIndexFile = path.join(ROOT, 'generated', 'data', 'search-index.json');
const siteCatalogFile = path.join(ROOT, 'generated', 'data', 'catalog.json');
const siteProfileFile = path.join(ROOT, 'generated', 'data', 'site-profile.json');

const variants: Variant[] = [];
const add = async (fn: FunctionName, label: string, articles: number, data: string, files: DataFiles, name: string): Promise<void> => {
  const { file, bytes } = await bundle(fn, name, files);
  variants.push({ fn, label, articles, data, indexBytes: statSync(files.index).size, catalogBytes: statSync(files.catalog).size, file, bundleBytes: bytes });
};
const siteFiles: DataFiles = { index: siteIndexFile, catalog: siteCatalogFile, profile: siteProfileFile };

// Peer: the current build (seed content).
const siteDocs = siteCatalog.articles.length + siteCatalog.solutions.length;
await add('search', 'api-search', siteDocs, 'site build (seed content)', siteFiles, 'search-site');
await add('mcp', 'mcp', siteDocs, 'site build (seed content)', siteFiles, 'mcp-site');
await add('oauth-metadata', 'oauth-metadata', siteDocs, 'site build (seed content)', siteFiles, 'oauth-metadata-site');

const corpusFacts: Record<number, { generateS: number; indexBuildS: number }> = {};
for (const n of SIZES) {
  let t = performance.now();
  const corpus = generateCorpus({ n, seed: SEED });
  const generateS = (performance.now() - t) / 1000;
  t = performance.now();
  const index = serializeSearchIndex(buildSearchIndex(corpus.documents));
  const indexBuildS = (performance.now() - t) / 1000;
  corpusFacts[n] = { generateS, indexBuildS };
  const indexFile = path.join(OUT, `search-index-${n}.json`);
  writeFileSync(indexFile, index);
  const catalog: Catalog = {
    ...siteCatalog,
    articles: corpus.documents.filter((d) => d.type === 'article') as Catalog['articles'],
    solutions: corpus.documents.filter((d) => d.type === 'solution') as Catalog['solutions'],
  };
  const catalogFile = path.join(OUT, `catalog-${n}.json`);
  writeFileSync(catalogFile, JSON.stringify(catalog));
  const profileFile = path.join(OUT, `site-profile-${n}.json`);
  writeFileSync(profileFile, JSON.stringify(siteProfile(catalog)));
  const files: DataFiles = { index: indexFile, catalog: catalogFile, profile: profileFile };
  await add('search', 'api-search', n, 'generated index + catalogue', files, `search-${n}`);
  await add('mcp', 'mcp', n, 'generated index + catalogue', files, `mcp-${n}`);
  await add('mcp', 'mcp', n, 'generated index, seed catalogue', { ...files, catalog: siteCatalogFile }, `mcp-${n}-index-only`);
  await add('oauth-metadata', 'oauth-metadata', n, 'generated catalogue (profile only)', files, `oauth-metadata-${n}`);
}

// Interleaved fresh processes: run r of every bundle, then run r + 1.
const loadBefore = loadAverage();
const runs = new Map<Variant, ColdRun[]>(variants.map((v) => [v, []]));
for (let r = 0; r < RUNS; r++) {
  for (const variant of variants) runs.get(variant)!.push(coldStart(variant));
}
const loadAfter = loadAverage();

const rows = variants.map((v) => {
  const list = runs.get(v)!;
  const pick = (key: keyof ColdRun): number[] => list.map((x) => x[key]);
  return {
    fn: v.label,
    articles: v.articles,
    data: v.data,
    indexMB: v.indexBytes / MB,
    catalogMB: v.catalogBytes / MB,
    bundleMB: v.bundleBytes / MB,
    importMs: median(pick('importMs')),
    firstMs: median(pick('firstMs')),
    totalMs: median(pick('totalMs')),
    totalMinMs: Math.min(...pick('totalMs')),
    totalMaxMs: Math.max(...pick('totalMs')),
    processMs: median(pick('processMs')),
    runs: list,
  };
});

const command = `node bench/cold-start.bench.ts --sizes ${SIZES.join(',')} --runs ${RUNS} --seed ${SEED}`;
const table = [
  '| function | articles | data inlined | index MB | catalogue MB | bundle MB | import ms | first response ms | **import + first ms** (min–max) | whole process ms |',
  '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) =>
    `| ${r.fn} | ${r.articles.toLocaleString('en')} | ${r.data} | ${fixed(r.indexMB, 2)} | ${fixed(r.catalogMB, 2)} | ${fixed(r.bundleMB, 2)} | ${fixed(r.importMs)} | ${fixed(r.firstMs)} | **${fixed(r.totalMs)}** (${fixed(r.totalMinMs)}–${fixed(r.totalMaxMs)}) | ${fixed(r.processMs)} |`,
  ),
].join('\n');
const facts = SIZES.map((n) => `${n.toLocaleString('en')}: corpus ${fixed(corpusFacts[n]!.generateS, 1)} s, index build ${fixed(corpusFacts[n]!.indexBuildS, 1)} s`).join('; ');
console.log(`\n${command}\n\n${startedAt.toISOString()}, ${machineFacts()}, load average ${loadBefore} → ${loadAfter}; median of ${RUNS} fresh processes per row (interleaved). Generation: ${facts}.\n\n${table}\n`);
writeFileSync(path.join(ROOT, 'bench', '.out', 'cold-start.json'), JSON.stringify({ command, startedAt, machine: machineFacts(), loadBefore, loadAfter, runsPerRow: RUNS, corpusFacts, rows }, null, 2));
console.log('Wrote bench/.out/cold-start.json');
