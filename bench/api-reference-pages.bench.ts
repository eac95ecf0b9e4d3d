/**
 * The API reference's pages on a phone (issue 28, item 9): Lighthouse mobile performance (simulated
 * throttling, Lighthouse's defaults) with FCP, LCP, TBT and CLS, the HTML's bytes (raw and gzip) and
 * element count and what the runtime sent for the page (brotli for Chromium, as Netlify's CDN sends it),
 * for the overview, every operation's page and the single page; with `--peer <root>` (a worktree whose
 * dist/ holds an older build, e.g. main's single-page reference) the peer's /docs/api in the same run.
 * `--root <dir>` measures another checkout's build (its dist/) instead of this one; `--identity`
 * serves every answer uncompressed (the Accept-Encoding is dropped on the way in), as the runtime did
 * before it compressed, to tell the markup's share from the transfer's.
 *
 *     node bench/api-reference-pages.bench.ts [--peer /work/main] [--pages /docs/api,/docs/api/mcp] [--root <dir>] [--identity]
 *
 * Serves the current test build (tests/global-setup.ts builds it) with the local runtime on a free
 * port, as the browser tests do. Writes bench/.out/api-reference-pages.json.
 * @module
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_HEADLESS_FLAGS, CHROMIUM_PATH } from '../tools/agent-ready/node/chromium.ts';
import { serve, startRuntime, type LocalRuntime } from '../scripts/runtime/index.ts';
import { argValue } from './generate-corpus.ts';
import { loadavg } from 'node:os';
import { ROOT } from './serving-support.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const PEER = argValue(argv, 'peer');
const MEASURED_ROOT = path.resolve(argValue(argv, 'root') ?? ROOT);
const IDENTITY = argv.includes('--identity');
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift'] as const;

/** The reference's pages in the build: the overview, each operation's page (dist/docs/api/{slug}/), the single page. */
function referencePages(root: string): string[] {
  const sitemap = readFileSync(path.join(root, 'dist', 'sitemap.xml'), 'utf8');
  const pages = [...sitemap.matchAll(/<loc>[^<]*?(\/docs\/api(?:\/[a-z0-9-]+)?)<\/loc>/g)].map((m) => m[1]!);
  return [...new Set(pages)];
}

interface Served {
  origin: string;
  stop(): Promise<void>;
}
/** Serves `root`'s build; a peer's without its edge function, which may need a newer runtime than this one (its pages are static). */
async function serveRoot(root: string): Promise<Served> {
  const blobsDir = mkdtempSync(path.join(tmpdir(), 'reference-bench-blobs-'));
  const runtime: LocalRuntime = await startRuntime({ root, blobsDir, edgeFunctions: root !== PEER });
  const handler = IDENTITY
    ? {
        handle(request: Request, options?: Parameters<LocalRuntime['handle']>[1]) {
          const headers = new Headers(request.headers);
          headers.delete('accept-encoding');
          return runtime.handle(new Request(request, { headers }), options);
        },
      }
    : runtime;
  const { server, url } = (await serve(handler, 0)) as { server: Server; url: string };
  return {
    origin: url.replace(/\/$/, ''),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.stop();
      rmSync(blobsDir, { recursive: true, force: true });
    },
  };
}

/** The document's transfer size in Lighthouse's network record. */
function documentTransferSize(lhr: { audits: Record<string, { details?: unknown }> }, url: string): number {
  const items = (lhr.audits['network-requests']?.details as { items?: { url: string; transferSize?: number }[] } | undefined)?.items ?? [];
  return items.find((item) => item.url === url || item.url === `${url}/`)?.transferSize ?? Number.NaN;
}

interface Row {
  page: string;
  performance: number;
  metrics: Record<string, number>;
  htmlBytes: number;
  htmlGzipBytes: number;
  /** The page's bytes on the wire as Lighthouse saw them (headers included). */
  sentBytes: number;
  elements: number;
}

async function measure(served: Served, root: string, pages: string[], label: (page: string) => string, port: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const page of pages) {
    const file = path.join(root, 'dist', page.replace(/^\//, ''), 'index.html');
    const html = readFileSync(file);
    let result = await lighthouse(`${served.origin}${page}`, { port, logLevel: 'error', output: 'json', onlyCategories: ['performance'] });
    // Lighthouse's own trace failures ask to be run again: once.
    if (result?.lhr.runtimeError)
      result = await lighthouse(`${served.origin}${page}`, { port, logLevel: 'error', output: 'json', onlyCategories: ['performance'] });
    if (!result || result.lhr.runtimeError) throw new Error(`Lighthouse failed on ${page}: ${result?.lhr.runtimeError?.message}`);
    const row: Row = {
      page: label(page),
      performance: result.lhr.categories.performance?.score ?? Number.NaN,
      metrics: Object.fromEntries(METRICS.map((m) => [m, Math.round((result.lhr.audits[m]?.numericValue ?? Number.NaN) * 1000) / 1000])),
      htmlBytes: html.length,
      htmlGzipBytes: gzipSync(html).length,
      sentBytes: documentTransferSize(result.lhr, `${served.origin}${page}`),
      elements: (html.toString('utf8').match(/<[a-zA-Z]/g) ?? []).length,
    };
    rows.push(row);
    console.log(
      `| ${row.page} | ${row.performance.toFixed(2)} | ${(row.metrics['first-contentful-paint']! / 1000).toFixed(2)} s | ${(row.metrics['largest-contentful-paint']! / 1000).toFixed(2)} s | ${Math.round(row.metrics['total-blocking-time']!)} ms | ${row.metrics['cumulative-layout-shift']} | ${(row.htmlBytes / 1000).toFixed(1)} | ${(row.htmlGzipBytes / 1000).toFixed(1)} | ${(row.sentBytes / 1000).toFixed(1)} | ${row.elements} |`,
    );
  }
  return rows;
}

const only = argValue(argv, 'pages')?.split(',');
const pages = only ?? referencePages(MEASURED_ROOT);
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_HEADLESS_FLAGS, logLevel: 'silent' });
const loadAverage = (): string => loadavg()[0]!.toFixed(1);
const started = { load: loadAverage(), at: new Date().toISOString() };
console.log('| page | performance | FCP | LCP | TBT | CLS | HTML KB | gzip KB | sent KB | elements |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
const rows: Row[] = [];
try {
  if (PEER) {
    const peer = await serveRoot(PEER);
    try {
      rows.push(...(await measure(peer, PEER, ['/docs/api'], (p) => `peer ${p}`, chrome.port)));
    } finally {
      await peer.stop();
    }
  }
  const ours = await serveRoot(MEASURED_ROOT);
  try {
    rows.push(...(await measure(ours, MEASURED_ROOT, pages, (p) => p, chrome.port)));
  } finally {
    await ours.stop();
  }
} finally {
  chrome.kill();
}
const worst = Math.min(...rows.filter((r) => !r.page.startsWith('peer')).map((r) => r.performance));
console.log(`\nlowest performance of our pages: ${worst.toFixed(2)}; load average ${started.load} → ${loadAverage()}`);
mkdirSync(path.join(ROOT, 'bench', '.out'), { recursive: true });
writeFileSync(
  path.join(ROOT, 'bench', '.out', 'api-reference-pages.json'),
  `${JSON.stringify({ ...started, root: MEASURED_ROOT, identity: IDENTITY, rows }, null, 2)}\n`,
);
