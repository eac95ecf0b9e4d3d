/** A real local Netlify Blobs server per test file (no mocks), with stores opened on it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type LocalBlobs, startLocalBlobs } from '../../scripts/runtime/local-blobs.ts';
import { afterAll, beforeAll } from 'vitest';
import { blobsStore } from '../../netlify/functions/_shared/blobs-store.ts';
import type { Store, StoreFactory, StoreName } from '../../src/core/kernel/store.ts';

const TOKEN = 'local-test-token';
const SITE_ID = 'local-test-site';

export interface BlobsHandle {
  store(name: StoreName): Store;
  stores: StoreFactory;
  readonly directory: string;
}

export function useBlobs(): BlobsHandle {
  let server: LocalBlobs | undefined;
  let directory = '';
  let edgeURL = '';
  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'blobs-'));
    server = await startLocalBlobs(directory, TOKEN, { owner: true });
    edgeURL = server.url;
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(directory, { recursive: true, force: true });
  });
  const open = (name: StoreName): Store => blobsStore(name, { siteID: SITE_ID, token: TOKEN, edgeURL, uncachedEdgeURL: edgeURL });
  return {
    store: open,
    stores: open,
    get directory() {
      return directory;
    },
  };
}
