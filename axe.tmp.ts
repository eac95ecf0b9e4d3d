import AxeBuilder from '@axe-core/playwright';
import type { AddressInfo } from 'node:net';
import { launchBrowser } from './scripts/chromium.ts';
import { serve, startRuntime } from './scripts/runtime/index.ts';
const runtime = await startRuntime({ edgeFunctions: false });
const { server } = await serve(runtime, 0, '127.0.0.1');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await launchBrowser();
const pages = process.argv.slice(2);
for (const scheme of ['light', 'dark'] as const) {
  for (const p of pages) {
    const context = await browser.newContext({ bypassCSP: true, colorScheme: scheme, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const t = performance.now();
    await page.goto(base + p); if (process.env.CSS) await page.addStyleTag({ content: process.env.CSS }); console.log('loaded', Math.round(performance.now() - t));
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).disableRules((process.env.OFF ?? '').split(',').filter(Boolean)).analyze();
    console.log(scheme, p, Math.round(performance.now() - t), 'ms', result.violations.map((v) => `${v.id} ${v.nodes.length}× ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`));
    await context.close();
  }
}
await browser.close(); server.closeAllConnections(); server.close(); await runtime.stop();
