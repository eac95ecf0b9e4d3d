/**
 * Real-browser support: Debian's Chromium driven by playwright-core (no browser download), and
 * the production build served over HTTP: on TEST_PORT by default, so the absolute links baked into
 * the test build resolve (such files are in the `port-8899` project, one at a time), or on a free
 * port for tests that follow only the pages' relative links.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import axe, { type AxeResults, type RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { serve, startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { TEST_ORIGIN, TEST_PORT } from './origin.ts';
import { serveOnTestPort } from './test-port.ts';
import { testBlobsDir } from './runtime.ts';

export { CHROMIUM_HEADLESS_FLAGS, CHROMIUM_PATH, launchBrowser } from '../../tools/agent-ready/node/chromium.ts';

/** A fresh profile directory for a Chromium not started by Playwright (Lighthouse); removed by the caller. */
export function freshProfileDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The light-scheme audit: every WCAG 2.1 A/AA and best-practice rule. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
/**
 * The rules whose outcome depends on colours. The dark scheme changes only colours (the pages'
 * `prefers-color-scheme` CSS), so the dark audit runs these and the light audit runs everything.
 */
export const AXE_COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** What each scheme's audit runs (see {@link AXE_TAGS} and {@link AXE_COLOUR_RULES}). */
export const AXE_RUN_ONLY: Record<'light' | 'dark', NonNullable<RunOptions['runOnly']>> = {
  light: { type: 'tag', values: AXE_TAGS },
  dark: { type: 'rule', values: AXE_COLOUR_RULES },
};

/** What the tests read of axe's results: every violation in full, and which rules passed. */
export interface AxeReport {
  violations: AxeResults['violations'];
  /** The rules that passed, with how many nodes passed each. */
  passes: { id: string; nodes: number }[];
}

const summarise = (results: AxeResults): AxeReport => ({
  violations: results.violations,
  passes: results.passes.map((rule) => ({ id: rule.id, nodes: rule.nodes.length })),
});

/**
 * axe-core's report on the page as it is now, with only the `runOnly` rules (axe's defaults otherwise).
 * AxeBuilder.analyze() evaluates axe's 650 kB source again on every call and finishes each run in
 * a new blank page, to which it copies every node of every rule as JSON: 34 s for the light audit
 * of /docs/api (10,000 elements) on a loaded machine. A page without frames needs none of that:
 * axe is injected once per document, axe.run (what AxeBuilder's partial runs add up to) runs
 * there, and only the violations come back in full (copying the passing nodes out of the page
 * cost another 7 s there); the audit takes 3 s. A page with frames goes through AxeBuilder, which
 * injects axe into each frame.
 */
export async function runAxe(page: Page, runOnly: NonNullable<RunOptions['runOnly']>): Promise<AxeReport> {
  if (page.frames().length > 1) return summarise(await new AxeBuilder({ page }).options({ runOnly }).analyze());
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(
    async (options): Promise<AxeReport> => {
      const results = await (window as unknown as { axe: typeof axe }).axe.run(document, options);
      // As summarise() does, in the page (only its result crosses to Node).
      return { violations: results.violations, passes: results.passes.map((rule) => ({ id: rule.id, nodes: rule.nodes.length })) };
    },
    { runOnly },
  );
}

/**
 * Switches the page to `scheme` (the `prefers-color-scheme` media feature, as a context's
 * `colorScheme` sets it) and waits for the transitions the switch starts, so that what is read
 * next (axe's contrast checks) sees the scheme's final colours.
 */
export async function useColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate(async () => {
    void document.body.getBoundingClientRect(); // the style recalculation that starts them
    const finite = document.getAnimations().filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity));
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * Starts counting the page's layout shifts as Lighthouse's CLS does (shifts within 500 ms of input left out), from
 * before its first paint; call before `page.goto`. The returned function reads the total and each shift's sources.
 */
export async function countLayoutShifts(page: Page): Promise<() => Promise<{ cls: number; shifts: string[] }>> {
  await page.addInitScript(() => {
    const record = { cls: 0, shifts: [] as string[] };
    (window as unknown as { layoutShifts: typeof record }).layoutShifts = record;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node | null }[];
      }[]) {
        if (entry.hadRecentInput) continue;
        record.cls += entry.value;
        const sources = entry.sources.map((s) =>
          s.node instanceof Element ? `${s.node.localName}.${s.node.className}` : String(s.node?.nodeName),
        );
        record.shifts.push(`${entry.value.toFixed(3)} ${sources.join(' ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return () => page.evaluate(() => (window as unknown as { layoutShifts: { cls: number; shifts: string[] } }).layoutShifts);
}

export interface ServedSite {
  /** http://localhost:8899, or http://localhost:<free port> */
  readonly origin: string;
  url(pathname: string): string;
  readonly runtime: LocalRuntime;
}

/** Starts the local runtime over the test build and serves it on `port` (default TEST_PORT; 0: a free one) for the file's tests. */
export function useServedSite(options: { port?: number } = {}): ServedSite {
  let runtime: LocalRuntime | undefined;
  let server: Server | undefined;
  let origin = TEST_ORIGIN;
  beforeAll(async () => {
    runtime = await startRuntime({ blobsDir: testBlobsDir() });
    // The tests stand in for Netlify's proxy: their X-Forwarded-For picks the client (rate-limit keys).
    let url: string;
    const serveOptions = { trustedProxies: ['127.0.0.1', '::1'] };
    ({ server, url } = await ((options.port ?? TEST_PORT) === TEST_PORT
      ? serveOnTestPort(runtime, serveOptions)
      : serve(runtime, options.port!, serveOptions)));
    origin = url;
  });
  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await runtime?.stop();
    if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
  });
  return {
    get origin() {
      return origin;
    },
    url: (pathname) => new URL(pathname, origin).href,
    get runtime() {
      return runtime!;
    },
  };
}
