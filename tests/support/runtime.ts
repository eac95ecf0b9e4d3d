/**
 * One local runtime per test file, over the test build, with its own Blobs folder (so files can run
 * in parallel); `fetchPath` sends a real Request through it in-process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { TEST_ORIGIN } from './origin.ts';

export interface RuntimeHandle {
  fetchPath(path: string, init?: RequestInit): Promise<Response>;
  readonly runtime: LocalRuntime;
}

/** A fresh Blobs folder for one test file's runtime. */
export function testBlobsDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'runtime-blobs-'));
}

export function useRuntime(): RuntimeHandle {
  let runtime: LocalRuntime | undefined;
  beforeAll(async () => {
    runtime = await startRuntime({ blobsDir: testBlobsDir() });
  });
  afterAll(async () => {
    await runtime?.stop();
    if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
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
