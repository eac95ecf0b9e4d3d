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
import { afterAll, beforeAll } from 'vitest';
import { serve, startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { TEST_ORIGIN, TEST_PORT } from './origin.ts';
import { serveOnTestPort } from './test-port.ts';
import { testBlobsDir } from './runtime.ts';

export { CHROMIUM_FLAGS, CHROMIUM_PATH, launchBrowser } from '../../tools/agent-ready/node/chromium.ts';

/** A fresh profile directory for a Chromium not started by Playwright (Lighthouse); removed by the caller. */
export function freshProfileDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
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
