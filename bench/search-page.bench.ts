/**
 * The /search page against `GET /api/search` (issue 15): does the page find what the API finds,
 * how much does it download, and how soon after typing do results show under Lighthouse's mobile
 * throttling? Runs the test build in the local runtime and Debian's Chromium (playwright-core).
 *
 *     node bench/search-page.bench.ts [--runs 3] [--typing-queries 12]
 *
 * Engines compared on the query set tests/fixtures/search-queries.json (58 queries: zh, en, mixed):
 * - `api`: `GET /api/search?q=&limit=50` (every hit; the reference set);
 * - `page`: the /search page as shipped (it asks the API, Pagefind only as offline fallback), read
 *   from the rendered result list after `?q=` loads it;
 * - `pagefind`: Pagefind 1.6 as the old page configured it (English index, Chinese merged), through
 *   its JS API in the page (the old Pagefind UI lists exactly these results);
 * - `pagefind-or`: Pagefind "tuned" on our side: one Pagefind search per `Intl.Segmenter` word of the
 *   query, results united (Pagefind itself has no OR mode and no CJK segmentation setting);
 * - `browser-index`: our index shipped to the browser (the API's index file and engine, bundled with
 *   esbuild): same results as the API by construction; measured for weight and compute time.
 *
 * Typing latency: a fresh page per query under CDP throttling (CPU 4x; network 150 ms RTT,
 * 1.6 Mbit/s down, 750 kbit/s up: Lighthouse's mobile "slow 4G" as it simulates it, and 562.5 ms,
 * the latency DevTools applies for the same preset), the query typed at 80 ms per key; the time from
 * the last character's input event to the first rendered results for the whole query, stamped in the page.
 * Writes bench/.out/search-page.json.
 * @module
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { CHROMIUM_PATH, launchBrowser } from '../tools/agent-ready/node/chromium.ts';
import { ensureBuild } from '../scripts/build.ts';
import { serve, startRuntime } from '../scripts/runtime/index.ts';
import { SEARCH_INDEX_FILE } from '../src/core/search/index-data.ts';
import { argValue } from './generate-corpus.ts';
import { transferWeight } from './transfer-weight.ts';
import { loadAverage, machineFacts, median, ROOT } from './serving-support.ts';
import { percentile } from './stats.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const RUNS = Number(argValue(argv, 'runs') ?? 3);
const TYPING_QUERIES = Number(argValue(argv, 'typing-queries') ?? 12);
const KEY_DELAY_MS = 80;
const OUT = path.join(ROOT, 'bench', '.out');
/** The origin the test build is made for (its absolute links); the bench serves it on a free port. */
const BUILD_ORIGIN = 'http://localhost:8899';

interface Query {
  q: string;
  kind: 'zh' | 'en' | 'mixed';
}
const queries = (JSON.parse(readFileSync(path.join(ROOT, 'tests', 'fixtures', 'search-queries.json'), 'utf8')) as { queries: Query[] })
  .queries;

/** Lighthouse's mobile network: simulated RTT, and the latency DevTools applies for the same preset. */
const NETWORKS = (
  argv.includes('--no-network-throttling')
    ? [{ name: 'no network throttling', latency: 0 }]
    : [
        { name: '150 ms RTT', latency: 150 },
        { name: '562.5 ms (DevTools slow 4G)', latency: 562.5 },
      ]
) as readonly { name: string; latency: number }[];
const DOWNLOAD_BYTES_PER_SECOND = (1638.4 * 1024) / 8;
const UPLOAD_BYTES_PER_SECOND = (750 * 1024) / 8;
const CPU_SLOWDOWN = Number(argValue(argv, 'cpu') ?? 4);

// ---------------------------------------------------------------------------------------------
// Site, harness pages and the browser-index bundle

mkdirSync(OUT, { recursive: true });
const loadBefore = loadAverage();
ensureBuild(BUILD_ORIGIN, { quiet: true });
// The index file and the page's copy of it (gzip, as src/astro/search-index.ts makes it).
const indexFile = readFileSync(path.join(ROOT, 'generated', 'data', 'search', SEARCH_INDEX_FILE));
const indexCopy = gzipSync(indexFile, { level: 9 });
const bundleDir = mkdtempSync(path.join(tmpdir(), 'search-page-bench-'));
await build({
  stdin: { contents: "export { loadSearchIndex } from './src/core/search/search-index.ts';", resolveDir: ROOT, loader: 'ts' },
  bundle: true,
  minify: true,
  format: 'iife',
  globalName: 'SearchEngine',
  outfile: path.join(bundleDir, 'engine.js'),
  logLevel: 'silent',
});
const engineJs = readFileSync(path.join(bundleDir, 'engine.js'));
rmSync(bundleDir, { recursive: true, force: true });

/** The old /search page (before issue 15): Pagefind UI with the Chinese index merged. */
const PAGEFIND_UI_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Search</title>
<link rel="stylesheet" href="/pagefind/pagefind-ui.css"></head><body><main><h1>Search</h1><div id="search"></div></main>
<script src="/pagefind/pagefind-ui.js"></script>
<script type="module">
new PagefindUI({ element: '#search', showSubResults: false, showImages: false, mergeIndex: [{ bundlePath: new URL('/pagefind/', location.href).href, language: 'zh-cn' }] });
</script></body></html>`;

/** An empty page of the site's origin for the Pagefind JS API and the browser-index engine. */
const BLANK_PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head><body></body></html>';

const runtime = await startRuntime({ blobsDir: mkdtempSync(path.join(tmpdir(), 'search-page-blobs-')) });
const handler = {
  async handle(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    const html = (body: string): Response => new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } });
    if (pathname === '/__bench/pagefind-ui') return html(PAGEFIND_UI_PAGE);
    if (pathname === '/__bench/blank') return html(BLANK_PAGE);
    if (pathname === '/__bench/engine.js') return new Response(engineJs, { headers: { 'content-type': 'text/javascript' } });
    if (pathname === '/__bench/search-index.bin')
      return new Response(indexCopy, { headers: { 'content-type': 'application/octet-stream' } });
    return runtime.handle(request);
  },
};
const { server, url: origin } = await serve(handler, 0);
const browser: Browser = await launchBrowser(CHROMIUM_PATH);

const normalise = (url: string): string => new URL(url, origin).pathname.replace(/(.)\/$/, '$1');

// ---------------------------------------------------------------------------------------------
// Result sets

async function apiSet(q: string, limit?: number): Promise<string[]> {
  const query = new URLSearchParams({ q, ...(limit ? { limit: String(limit) } : {}) });
  const results = (await (await fetch(`${origin}/api/search?${query}`)).json()) as { url: string }[];
  return results.map((r) => normalise(r.url));
}

/** The page's results for `q`: with its copy of the index (`local`), or with that copy blocked (`api`). */
async function pageSet(page: Page, q: string, mode: 'local' | 'api'): Promise<string[]> {
  if (mode === 'local') {
    if (!page.url().endsWith('/search')) {
      await page.goto(`${origin}/search`);
      await page.waitForSelector('[data-search-config][data-index="ready"]', { timeout: 15_000 });
    }
    await page.fill('#search-input', q);
  } else {
    await page.goto(`${origin}/search?${new URLSearchParams({ q })}`);
  }
  await page.waitForFunction(
    (query) => {
      const root = document.querySelector<HTMLElement>('[data-search-config]');
      return root?.dataset.state === 'done' && root.dataset.query === query.trim();
    },
    q,
    { timeout: 15_000 },
  );
  const engine = await page.locator('[data-search-config]').getAttribute('data-engine');
  if (engine !== mode) throw new Error(`page answered "${q}" with ${engine}, expected ${mode}`);
  const hrefs = await page.locator('.search-result h2 a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href));
  return hrefs.map(normalise);
}

/** Pagefind through its JS API in the page, configured as the old page's UI was; `or` unites one search per word. */
async function pagefindSet(page: Page, q: string, or: boolean): Promise<string[]> {
  const urls = await page.evaluate(
    async ({ q, or }) => {
      type Pagefind = {
        options(o: object): Promise<void>;
        mergeIndex(u: string, o: object): Promise<void>;
        search(q: string): Promise<{ results: { data(): Promise<{ url: string }> }[] }>;
      };
      const w = window as unknown as { __pagefind?: Promise<Pagefind> };
      w.__pagefind ??= (async () => {
        const moduleUrl = '/pagefind/pagefind.js';
        const pf = (await import(moduleUrl)) as Pagefind;
        await pf.options({ basePath: '/pagefind/' });
        await pf.mergeIndex(new URL('/pagefind/', location.href).href, { language: 'zh-cn' });
        return pf;
      })();
      const pf = await w.__pagefind;
      const terms = or
        ? [...new Intl.Segmenter('zh', { granularity: 'word' }).segment(q)].filter((s) => s.isWordLike).map((s) => s.segment)
        : [q];
      const found = new Set<string>();
      for (const term of terms) {
        const response = await pf.search(term);
        for (const data of await Promise.all(response.results.map((r) => r.data()))) found.add(data.url);
      }
      return [...found];
    },
    { q, or },
  );
  return urls.map(normalise);
}

interface RecallRow {
  q: string;
  kind: string;
  api: number;
  api10: number;
  engines: Record<string, { found: number; ofApi: number; superset: boolean }>;
}

async function measureRecall(): Promise<RecallRow[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const apiPage = await context.newPage();
  await apiPage.route('**/search/index/*', (route) => route.abort());
  const blank = await context.newPage();
  await blank.goto(`${origin}/__bench/blank`);
  const rows: RecallRow[] = [];
  for (const { q, kind } of queries) {
    const api = await apiSet(q, 50);
    const api10 = await apiSet(q);
    const sets: Record<string, string[]> = {
      page: await pageSet(page, q, 'local'),
      'page-api': await pageSet(apiPage, q, 'api'),
      pagefind: await pagefindSet(blank, q, false),
      'pagefind-or': await pagefindSet(blank, q, true),
    };
    const engines: RecallRow['engines'] = {};
    for (const [name, set] of Object.entries(sets)) {
      const ofApi = api.filter((u) => set.includes(u)).length;
      engines[name] = { found: set.length, ofApi, superset: ofApi === api.length };
    }
    rows.push({ q, kind, api: api.length, api10: api10.length, engines });
  }
  await context.close();
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Weight and typing latency under throttling

async function throttle(context: BrowserContext, page: Page, latency: number): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  if (latency > 0)
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency,
      downloadThroughput: DOWNLOAD_BYTES_PER_SECOND,
      uploadThroughput: UPLOAD_BYTES_PER_SECOND,
    });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  return cdp;
}

/**
 * In-page stamps: each input event (its creation time, so time spent queued on a busy page counts;
 * Playwright types characters off the keyboard layout, like Chinese, as text insertions without
 * keydown, so input events are the ones every character makes), and when the results of the
 * whole query are on screen.
 */
const STAMP_SCRIPT = `
window.__keys = [];
window.__inputs = [];
addEventListener('input', (e) => { window.__keys.push(e.timeStamp); window.__inputs.push(performance.now()); }, true);
window.__resultsFor = (query, isDone) => new Promise((resolve) => {
  const check = () => { if (isDone(query)) { resolve(performance.now()); return true; } return false; };
  if (check()) return;
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
});`;

interface TypingRun {
  ms: number;
  /** What answered the final query (`local`, `api`, `pagefind`). */
  engine: string;
  loadBytes: number;
  queryBytes: number;
}

type Ui = 'page' | 'page-api' | 'pagefind-ui';

async function typeAndWait(ui: Ui, q: string, latency: number): Promise<TypingRun> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.addInitScript(STAMP_SCRIPT);
  if (ui === 'page-api') await page.route('**/search/index/*', (route) => route.abort());
  const cdp = await throttle(context, page, latency);
  const bytes = transferWeight(cdp);
  await page.goto(ui === 'pagefind-ui' ? `${origin}/__bench/pagefind-ui` : `${origin}/search`, { waitUntil: 'load' });
  const inputSelector = ui === 'pagefind-ui' ? '.pagefind-ui__search-input' : '#search-input';
  await page.waitForSelector(inputSelector);
  await page.waitForTimeout(1500); // the reader looks at the page before typing; preloads finish
  const loadBytes = await bytes.total();
  await page.click(inputSelector);
  const done = page.evaluate(
    ({ q, ui }) => {
      const isDone =
        ui !== 'pagefind-ui'
          ? (query: string): boolean => {
              const root = document.querySelector<HTMLElement>('[data-search-config]');
              return root?.dataset.state === 'done' && root.dataset.query === query;
            }
          : (query: string): boolean => {
              const text = document.querySelector('.pagefind-ui__message')?.textContent?.trim() ?? '';
              return (
                text.endsWith(`for ${query}`) &&
                (text.startsWith('No results') || document.querySelectorAll('.pagefind-ui__result').length > 0)
              );
            };
      return (window as unknown as { __resultsFor(q: string, f: (q: string) => boolean): Promise<number> }).__resultsFor(q, isDone);
    },
    { q, ui },
  );
  await page.keyboard.type(q, { delay: KEY_DELAY_MS });
  const shownAt = await done;
  const keys = await page.evaluate(() => (window as unknown as { __keys: number[] }).__keys);
  if (process.env.DEBUG_TIMING) {
    const inputs = await page.evaluate(() => (window as unknown as { __inputs: number[] }).__inputs);
    console.log(
      `keydown event ${keys[keys.length - 1]!.toFixed(0)}, last input handled ${inputs[inputs.length - 1]!.toFixed(0)}, shown ${shownAt.toFixed(0)}`,
    );
    const entries = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => {
        const r = e as PerformanceResourceTiming;
        return `${r.name.slice(-60)} start ${r.startTime.toFixed(0)} connect ${(r.connectEnd - r.connectStart).toFixed(0)} ttfb ${(r.responseStart - r.startTime).toFixed(0)} end ${r.responseEnd.toFixed(0)}`;
      }),
    );
    console.log(`key ${keys[keys.length - 1]!.toFixed(0)} shown ${shownAt.toFixed(0)}\n  ${entries.slice(-4).join('\n  ')}`);
  }
  const engine = ui === 'pagefind-ui' ? 'pagefind' : ((await page.locator('[data-search-config]').getAttribute('data-engine')) ?? '');
  const run = { ms: shownAt - keys[keys.length - 1]!, loadBytes, queryBytes: (await bytes.total()) - loadBytes, engine };
  await context.close();
  return run;
}

/** Our engine in the throttled page: index download + parse + load, then the compute time per query. */
async function browserIndexCompute(latency: number): Promise<{ loadMs: number; queryMsMedian: number; queryMsMax: number; bytes: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await throttle(context, page, latency);
  const bytes = transferWeight(cdp);
  await page.goto(`${origin}/__bench/blank`);
  await page.addScriptTag({ url: '/__bench/engine.js' });
  const result = await page.evaluate(
    async (qs) => {
      const t0 = performance.now();
      const response = await fetch('/__bench/search-index.bin');
      const file = await new Response(response.body!.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
      const engine = (
        window as unknown as { SearchEngine: { loadSearchIndex(d: unknown): { search(q: string, o: object): unknown[] } } }
      ).SearchEngine.loadSearchIndex(new Uint8Array(file));
      const loadMs = performance.now() - t0;
      const times = qs.map((q) => {
        const t = performance.now();
        engine.search(q, { limit: 50 });
        return performance.now() - t;
      });
      return { loadMs, times };
    },
    queries.map((q) => q.q),
  );
  const sorted = [...result.times].sort((a, b) => a - b);
  const out = { loadMs: result.loadMs, queryMsMedian: median(sorted), queryMsMax: sorted[sorted.length - 1]!, bytes: await bytes.total() };
  await context.close();
  return out;
}

// ---------------------------------------------------------------------------------------------

const startedAt = new Date();
console.log(`Recall on ${queries.length} queries ...`);
const recall = argv.includes('--no-recall') ? [] : await measureRecall();

const perKind = Math.ceil(TYPING_QUERIES / 3);
const typingQueries = (['zh', 'en', 'mixed'] as const).flatMap((kind) => queries.filter((q) => q.kind === kind).slice(0, perKind));
const typing: Record<string, Record<Ui, TypingRun[]>> = {};
for (const network of NETWORKS) {
  typing[network.name] = { page: [], 'page-api': [], 'pagefind-ui': [] };
  for (let run = 0; run < RUNS; run++) {
    for (const { q } of typingQueries) {
      for (const ui of ['page', 'page-api', 'pagefind-ui'] as const) {
        console.log(`typing ${network.name} run ${run + 1} ${ui}: ${q}`);
        typing[network.name]![ui].push(await typeAndWait(ui, q, network.latency));
      }
    }
  }
}
const compute = Object.fromEntries(await Promise.all(NETWORKS.map(async (n) => [n.name, await browserIndexCompute(n.latency)] as const)));

await browser.close();
server.close();
await runtime.stop();
rmSync(runtime.blobsDir, { recursive: true, force: true });

// ---------------------------------------------------------------------------------------------
// Report

const engines = ['page', 'page-api', 'pagefind', 'pagefind-or'];
const withApiHits = recall.filter((r) => r.api > 0);
const summary = Object.fromEntries(
  engines.map((engine) => {
    const recalls = withApiHits.map((r) => r.engines[engine]!.ofApi / r.api);
    const byKind = Object.fromEntries(
      ['zh', 'en', 'mixed'].map((kind) => {
        const rows = withApiHits.filter((r) => r.kind === kind);
        return [kind, rows.reduce((s, r) => s + r.engines[engine]!.ofApi / r.api, 0) / rows.length];
      }),
    );
    return [
      engine,
      {
        meanRecall: recalls.reduce((a, b) => a + b, 0) / recalls.length,
        byKind,
        supersetQueries: recall.filter((r) => r.engines[engine]!.superset).length,
        meanFound: recall.reduce((s, r) => s + r.engines[engine]!.found, 0) / recall.length,
      },
    ];
  }),
);
interface TypingStats {
  medianMs: number;
  p90Ms: number;
  maxMs: number;
  within300: number;
  loadKB: number;
  firstQueryKB: number;
  /** Which engine answered the final query, per run. */
  answeredBy: string;
}
const stats = (runs: TypingRun[]): TypingStats => {
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  return {
    medianMs: median(ms),
    p90Ms: percentile(ms, 90),
    maxMs: ms[ms.length - 1]!,
    within300: runs.filter((r) => r.ms <= 300).length / runs.length,
    loadKB: median(runs.map((r) => r.loadBytes)) / 1000,
    firstQueryKB: median(runs.map((r) => r.queryBytes)) / 1000,
    answeredBy: [...new Set(runs.map((r) => r.engine))].join('+'),
  };
};
const latency = Object.fromEntries(
  Object.entries(typing).map(([network, byUi]) => [
    network,
    Object.fromEntries(Object.entries(byUi).map(([ui, runs]) => [ui, stats(runs)])),
  ]),
);
const weights = {
  browserIndex: {
    indexKB: indexFile.length / 1000,
    indexGzipKB: indexCopy.length / 1000,
    engineKB: engineJs.length / 1000,
    engineGzipKB: gzipSync(engineJs).length / 1000,
  },
};
const report = {
  startedAt: startedAt.toISOString(),
  machine: machineFacts(),
  loadBefore,
  loadAfter: loadAverage(),
  queries: queries.length,
  typingQueries: typingQueries.map((q) => q.q),
  runs: RUNS,
  summary,
  latency,
  compute,
  weights,
  recall,
};
writeFileSync(path.join(OUT, 'search-page.json'), JSON.stringify(report, null, 2));

console.log("\nRecall of the API's hits (limit 50), mean over queries with hits; queries where the engine found every API hit:");
for (const engine of engines) {
  const s = summary[engine]!;
  console.log(
    `  ${engine.padEnd(14)} recall ${s.meanRecall.toFixed(3)} (zh ${s.byKind.zh!.toFixed(3)}, en ${s.byKind.en!.toFixed(3)}, mixed ${s.byKind.mixed!.toFixed(3)}); ⊇ API on ${s.supersetQueries}/${queries.length}; mean results ${s.meanFound.toFixed(1)}`,
  );
}
console.log(
  `  api            mean results ${(recall.reduce((s, r) => s + r.api, 0) / recall.length).toFixed(1)} (limit 50), ${(recall.reduce((s, r) => s + r.api10, 0) / recall.length).toFixed(1)} (default limit 10)`,
);
console.log('\nTyping: last keystroke → first results, CPU 4x, 1.6 Mbit/s:');
for (const [network, byUi] of Object.entries(latency)) {
  for (const [ui, s] of Object.entries(byUi)) {
    console.log(
      `  ${network.padEnd(28)} ${ui.padEnd(12)} median ${s.medianMs.toFixed(0)} ms, p90 ${s.p90Ms.toFixed(0)}, max ${s.maxMs.toFixed(0)}; ≤300 ms ${(s.within300 * 100).toFixed(0)}%; page load ${s.loadKB.toFixed(1)} KB, first query ${s.firstQueryKB.toFixed(1)} KB; answered by ${s.answeredBy}`,
    );
  }
}
for (const [network, c] of Object.entries(compute)) {
  console.log(
    `  ${network.padEnd(28)} browser-index load ${c.loadMs.toFixed(0)} ms (${(c.bytes / 1000).toFixed(1)} KB), query median ${c.queryMsMedian.toFixed(2)} ms, max ${c.queryMsMax.toFixed(2)} ms`,
  );
}
console.log(
  `\nbrowser-index weight: index ${weights.browserIndex.indexKB.toFixed(1)} KB (${weights.browserIndex.indexGzipKB.toFixed(1)} KB gzip), engine ${weights.browserIndex.engineKB.toFixed(1)} KB (${weights.browserIndex.engineGzipKB.toFixed(1)} KB gzip)`,
);
const misses = recall.filter((r) => !r.engines.page!.superset);
if (misses.length) console.log(`\npage misses API hits on: ${misses.map((r) => r.q).join(' | ')}`);
