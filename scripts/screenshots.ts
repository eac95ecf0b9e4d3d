/**
 * `node scripts/screenshots.ts <out-dir> [path ...]`: full-page screenshots of the built site in
 * Debian's Chromium, light and dark, desktop (1280×800) and phone (390×844). Serves dist/ with the
 * local runtime on a free loopback port; the default paths are one page of each main type.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CHROMIUM_PATH, launchBrowser } from '../tools/agent-ready/node/chromium.ts';
import { ROOT, serve, startRuntime } from './runtime/index.ts';

const HELP = `Usage: node scripts/screenshots.ts <out-dir> [path ...]
Screenshots of the current build (run npm run build first), light and dark, desktop and phone.`;
const args = process.argv.slice(2);
if (args.length === 0 || args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(args.length === 0 ? 2 : 0);
}
const [outDir, ...requested] = args as [string, ...string[]];

function defaultPages(): [string, string][] {
  const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as {
    articles: { lang: string; path: string }[];
    products: { path: string }[];
  };
  const zh = catalog.articles.find((a) => a.lang === 'zh');
  const en = catalog.articles.find((a) => a.lang === 'en');
  return [
    ['home', '/'],
    ['home-zh', '/zh'],
    ['article-en', en?.path ?? '/blog'],
    ['article-zh', zh?.path ?? '/blog'],
    ['blog-en', '/en/blog'],
    ['blog-zh', '/zh/blog'],
    ['product', catalog.products[0]?.path ?? '/products'],
    ['docs-api', '/docs/api'],
    ['search', '/search?q=vLLM'],
    ['search-zh', '/zh/search?q=私有化部署'],
    ['contact', '/contact'],
    ['contact-zh', '/zh/contact'],
  ];
}
const pages: [string, string][] = requested.length
  ? requested.map((p) => [p.replace(/^\/|\/$/g, '').replace(/\//g, '-') || 'home', p])
  : defaultPages();

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

mkdirSync(outDir, { recursive: true });
const runtime = await startRuntime({ edgeFunctions: false });
const { server } = await serve(runtime, 0, '127.0.0.1');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await launchBrowser(CHROMIUM_PATH);
const written: string[] = [];
try {
  for (const scheme of ['light', 'dark'] as const) {
    for (const [device, viewport] of Object.entries(VIEWPORTS)) {
      const context = await browser.newContext({
        colorScheme: scheme,
        viewport,
        deviceScaleFactor: 1,
        isMobile: device === 'phone',
        hasTouch: device === 'phone',
      });
      const page = await context.newPage();
      for (const [name, pathname] of pages) {
        await page.goto(base + pathname, { waitUntil: 'networkidle' });
        const file = path.join(outDir, `${name}-${scheme}-${device}.png`);
        await page.screenshot({ path: file, fullPage: true });
        written.push(file);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  server.closeAllConnections();
  server.close();
  await runtime.stop();
}
console.log(written.join('\n'));
