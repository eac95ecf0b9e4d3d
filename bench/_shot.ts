// temporary screenshot helper (not committed)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve, startRuntime } from '../scripts/runtime/index.ts';
import { launchBrowser } from '../scripts/chromium.ts';
const [pagePath, ...rest] = process.argv.slice(2);
const runtime = await startRuntime({ blobsDir: mkdtempSync(path.join(tmpdir(), 'shot-')) });
const { server, url } = await serve(runtime, 0);
const browser = await launchBrowser();
for (const scheme of ['light', 'dark'] as const) {
  for (const [w, h, name] of [[1280, 900, 'desktop'], [390, 844, 'phone']] as const) {
    const ctx = await browser.newContext({ colorScheme: scheme, viewport: { width: w, height: h } });
    const page = await ctx.newPage();
    page.on('console', (m) => console.log('console:', m.type(), m.text()));
    await page.goto(new URL(pagePath!, url).href);
    if (rest[0]) await page.evaluate((sel) => document.querySelector(sel)?.scrollIntoView(), rest[0]);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `/tmp/apiref-shots/${pagePath!.replace(/\W+/g, '_')}-${name}-${scheme}.png`, fullPage: false });
    await ctx.close();
  }
}
await browser.close();
server.close();
await runtime.stop();
console.log('served at', url);
