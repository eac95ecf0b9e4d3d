/**
 * Real-browser support: Debian's Chromium driven by playwright-core (no browser download), and
 * the production build served over HTTP on TEST_PORT so the absolute links baked into the test
 * build resolve. Only one test file may call `useServedSite()`: it holds port 8899.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { serve, startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { TEST_ORIGIN, TEST_PORT } from './origin.ts';
import { testBlobsDir } from './runtime.ts';

export { CHROMIUM_FLAGS, CHROMIUM_PATH, launchBrowser } from '../../tools/agent-ready/node/chromium.ts';

/** A fresh profile directory for a Chromium not started by Playwright (Lighthouse); removed by the caller. */
export function freshProfileDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServedSite {
  /** http://localhost:8899 */
  readonly origin: string;
  url(pathname: string): string;
  readonly runtime: LocalRuntime;
}

/** Starts the Netlify runtime over the test build and serves it on TEST_PORT for the file's tests. */
export function useServedSite(): ServedSite {
  let runtime: LocalRuntime | undefined;
  let server: Server | undefined;
  beforeAll(async () => {
    runtime = await startRuntime({ blobsDir: testBlobsDir() });
    // The tests stand in for Netlify's proxy: their X-Forwarded-For picks the client (rate-limit keys).
    ({ server } = await serve(runtime, TEST_PORT, { trustedProxies: ['127.0.0.1', '::1'] }));
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
    origin: TEST_ORIGIN,
    url: (pathname) => new URL(pathname, TEST_ORIGIN).href,
    get runtime() {
      return runtime!;
    },
  };
}
