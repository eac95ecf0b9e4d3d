/**
 * API reference renderers compared on our /openapi.json (issue 15): our own Astro page (/docs/api)
 * against Scalar and Redoc, self-hosted. Page weight (what a compressing CDN sends), requests,
 * requests to other hosts, time until the reference is on screen, axe violations in light and dark
 * (WCAG 2.1 A/AA + best practice, as the site's tests), and whether it renders under the site's
 * Content-Security-Policy (violations counted).
 *
 *     npm install --prefix /tmp/api-renderers @scalar/api-reference@1.72.1 redoc@2.5.4
 *     node bench/api-reference.bench.ts --renderers /tmp/api-renderers/node_modules
 *
 * The renderers are not project dependencies: the bench loads their browser bundles from that folder
 * (Scalar `dist/browser/standalone.js`, Redoc `bundles/redoc.standalone.js`) and serves them from the
 * site's origin with a one-line init script, so neither needs a CDN. Writes bench/.out/api-reference.json.
 * @module
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_PATH, launchBrowser } from '../tools/agent-ready/node/chromium.ts';
import { ensureBuild } from '../scripts/build.ts';
import { serve, startRuntime } from '../scripts/runtime/index.ts';
import { argValue } from './generate-corpus.ts';
import { transferWeight } from './transfer-weight.ts';
import { loadAverage, machineFacts, ROOT } from './serving-support.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const RENDERERS = argValue(argv, 'renderers');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const OUT = path.join(ROOT, 'bench', '.out');
const BUILD_ORIGIN = 'http://localhost:8899';

/** The site's CSP, as netlify.toml sends it on every path. */
const CSP = /Content-Security-Policy = "([^"]+)"/.exec(readFileSync(path.join(ROOT, 'netlify.toml'), 'utf8'))![1]!;

interface Candidate {
  name: string;
  path: string;
  /** A selector that exists once the reference is rendered. */
  ready: string;
}

const page = (body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>API reference</title></head><body>${body}</body></html>`;
const files = new Map<string, { body: Buffer | string; type: string }>();
const candidates: Candidate[] = [{ name: 'ours (/docs/api)', path: '/docs/api', ready: '.operation' }];
if (RENDERERS) {
  const scalar = path.join(RENDERERS, '@scalar', 'api-reference', 'dist', 'browser', 'standalone.js');
  const redoc = path.join(RENDERERS, 'redoc', 'bundles', 'redoc.standalone.js');
  if (existsSync(scalar)) {
    files.set('/__bench/scalar.js', { body: readFileSync(scalar), type: 'text/javascript' });
    // No default fonts: they come from Scalar's font CDN.
    files.set('/__bench/scalar-init.js', {
      body: "Scalar.createApiReference('#app', { url: '/openapi.json', withDefaultFonts: false });",
      type: 'text/javascript',
    });
    files.set('/__bench/scalar', {
      body: page('<div id="app"></div><script src="/__bench/scalar.js"></script><script src="/__bench/scalar-init.js"></script>'),
      type: 'text/html; charset=utf-8',
    });
    candidates.push({
      name: `Scalar ${JSON.parse(readFileSync(path.join(RENDERERS, '@scalar', 'api-reference', 'package.json'), 'utf8')).version}`,
      path: '/__bench/scalar',
      ready: '[id^="tag/"], .section',
    });
  }
  if (existsSync(redoc)) {
    files.set('/__bench/redoc.js', { body: readFileSync(redoc), type: 'text/javascript' });
    files.set('/__bench/redoc', {
      body: page('<redoc spec-url="/openapi.json"></redoc><script src="/__bench/redoc.js"></script>'),
      type: 'text/html; charset=utf-8',
    });
    candidates.push({
      name: `Redoc ${JSON.parse(readFileSync(path.join(RENDERERS, 'redoc', 'package.json'), 'utf8')).version}`,
      path: '/__bench/redoc',
      ready: '.api-content h2',
    });
  }
}

mkdirSync(OUT, { recursive: true });
const loadBefore = loadAverage();
ensureBuild(BUILD_ORIGIN, { quiet: true });
const runtime = await startRuntime({ blobsDir: mkdtempSync(path.join(tmpdir(), 'api-reference-blobs-')) });
let withCsp = false;
const handler = {
  async handle(request: Request): Promise<Response> {
    const file = files.get(new URL(request.url).pathname);
    if (!file) return runtime.handle(request);
    return new Response(typeof file.body === 'string' ? file.body : new Uint8Array(file.body), {
      headers: { 'content-type': file.type, ...(withCsp ? { 'content-security-policy': CSP } : {}) },
    });
  },
};
const { server, url: origin } = await serve(handler, 0);
const browser: Browser = await launchBrowser(CHROMIUM_PATH);

/** Counts what the page downloads, text at its gzip size (as a compressing CDN sends it). */
async function weigh(p: Page, run: () => Promise<void>): Promise<{ kb: number; requests: number; external: string[] }> {
  const cdp = await p.context().newCDPSession(p);
  await cdp.send('Network.enable');
  const weight = transferWeight(cdp);
  const external: string[] = [];
  cdp.on('Network.requestWillBeSent', (event: { request: { url: string } }) => {
    if (!event.request.url.startsWith(origin) && !event.request.url.startsWith('data:')) external.push(event.request.url);
  });
  await run();
  const all = await weight.sizes();
  return { kb: all.reduce((a, b) => a + b, 0) / 1000, requests: all.length, external };
}

interface Row {
  name: string;
  kb: number;
  requests: number;
  external: number;
  renderMs: number;
  domNodes: number;
  axe: Record<'light' | 'dark', { violations: number; nodes: number; ids: string[] }>;
  csp: { renders: boolean; violations: number; directives: string[] };
}

const rows: Row[] = [];
for (const candidate of candidates) {
  console.log(`${candidate.name} ...`);
  withCsp = false;
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Other hosts are unreachable offline; block them fast and count them.
  await context.route(
    (url) => !url.href.startsWith(origin),
    (route) => route.abort(),
  );
  const p = await context.newPage();
  let renderMs = 0;
  const weight = await weigh(p, async () => {
    const t0 = Date.now();
    await p.goto(`${origin}${candidate.path}`, { waitUntil: 'load' });
    await p.waitForSelector(candidate.ready, { timeout: 60_000 });
    renderMs = Date.now() - t0;
    await p.waitForTimeout(1000);
  });
  const domNodes = await p.evaluate(() => document.getElementsByTagName('*').length);
  await context.close();

  const axe: Row['axe'] = { light: { violations: 0, nodes: 0, ids: [] }, dark: { violations: 0, nodes: 0, ids: [] } };
  for (const scheme of ['light', 'dark'] as const) {
    const ctx = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 900 } });
    await ctx.route(
      (url) => !url.href.startsWith(origin),
      (route) => route.abort(),
    );
    const ap = await ctx.newPage();
    await ap.goto(`${origin}${candidate.path}`);
    await ap.waitForSelector(candidate.ready, { timeout: 60_000 });
    await ap.waitForTimeout(1000);
    const result = await new AxeBuilder({ page: ap }).withTags(AXE_TAGS).analyze();
    axe[scheme] = {
      violations: result.violations.length,
      nodes: result.violations.reduce((n, v) => n + v.nodes.length, 0),
      ids: result.violations.map((v) => `${v.id}×${v.nodes.length}`),
    };
    await ctx.close();
  }

  withCsp = true;
  const cspContext = await browser.newContext();
  await cspContext.route(
    (url) => !url.href.startsWith(origin),
    (route) => route.abort(),
  );
  const cp = await cspContext.newPage();
  await cp.addInitScript('window.__csp = []; addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective));');
  await cp.goto(`${origin}${candidate.path}`, { waitUntil: 'load' });
  const renders = await cp.waitForSelector(candidate.ready, { timeout: 15_000 }).then(
    () => true,
    () => false,
  );
  await cp.waitForTimeout(1000);
  const directives = await cp.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  await cspContext.close();

  rows.push({
    name: candidate.name,
    kb: weight.kb,
    requests: weight.requests,
    external: weight.external.length,
    renderMs,
    domNodes,
    axe,
    csp: { renders, violations: directives.length, directives: [...new Set(directives)] },
  });
}

await browser.close();
server.close();
await runtime.stop();
rmSync(runtime.blobsDir, { recursive: true, force: true });

writeFileSync(
  path.join(OUT, 'api-reference.json'),
  JSON.stringify({ machine: machineFacts(), loadBefore, loadAfter: loadAverage(), csp: CSP, rows }, null, 2),
);
console.log(
  '\n| renderer | weight KB (gzip) | requests | other hosts | on screen ms | DOM nodes | axe light | axe dark | with the site CSP |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |');
for (const r of rows) {
  const axe = (a: Row['axe']['light']): string => (a.violations ? `${a.violations} (${a.ids.join(', ')})` : '0');
  const csp = r.csp.violations
    ? `${r.csp.renders ? 'renders' : 'blank'}, ${r.csp.violations} violations (${r.csp.directives.join(', ')})`
    : 'renders, 0 violations';
  console.log(
    `| ${r.name} | ${r.kb.toFixed(1)} | ${r.requests} | ${r.external} | ${r.renderMs} | ${r.domNodes} | ${axe(r.axe.light)} | ${axe(r.axe.dark)} | ${csp} |`,
  );
}
