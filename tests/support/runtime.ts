/** One local Netlify runtime per test file, over the test build; `fetchPath` sends a real Request through it. */
import { afterAll, beforeAll } from 'vitest';
import { startRuntime, type LocalRuntime } from '../../scripts/local-server.ts';
import { TEST_ORIGIN } from './origin.ts';

export interface RuntimeHandle {
  fetchPath(path: string, init?: RequestInit): Promise<Response>;
  readonly runtime: LocalRuntime;
}

export function useRuntime(): RuntimeHandle {
  let runtime: LocalRuntime | undefined;
  beforeAll(async () => {
    runtime = await startRuntime();
  });
  afterAll(async () => {
    await runtime?.stop();
  });
  return {
    fetchPath: (path, init) => runtime!.handle(new Request(new URL(path, TEST_ORIGIN), init)),
    get runtime() {
      return runtime!;
    },
  };
}

/** Paths listed in the built sitemap, in order. */
export function sitemapPaths(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
}
