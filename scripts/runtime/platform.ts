/**
 * The Netlify platform around the functions: a local Netlify Blobs server (with our conditional-write
 * fixes) and the `Netlify` global (`Netlify.env`, `Netlify.context`), set up by Netlify's own
 * @netlify/runtime as @netlify/dev does it (dist/main.js getRuntime), without the rest of the emulator.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { startLocalBlobs } from './local-blobs.ts';
import { assertNotAFile } from './local-blobs-dir.ts';
import { startRuntime as startNetlifyRuntime } from '@netlify/runtime';

import { LOCAL_DEPLOY_ID, LOCAL_SITE_ID, seedDeployStore } from './deploy-blobs.ts';

/** The site ID @netlify/dev uses offline: stored blobs live under `entries/0/site:<store>/` (scripts/enquiries.ts, keys.ts). */
export { LOCAL_SITE_ID };

/** The request context of the function running now, for `Netlify.context`. */
export const requestContext = new AsyncLocalStorage<object>();

export interface Platform {
  readonly blobsDir: string;
  /** The local Blobs server (loopback only). */
  readonly blobsUrl: string;
  stop(): Promise<void>;
}

let running = false;

/**
 * Starts Blobs, with the build's deploy store (the article bodies) in place, and installs the
 * `Netlify` global. One per process: the global and the Blobs context are process-wide.
 */
export async function startPlatform(blobsDir: string, root: string): Promise<Platform> {
  if (running)
    throw new Error('A local runtime is already running in this process (the Netlify global and Blobs context are process-wide)');
  assertNotAFile(blobsDir);
  running = true;
  mkdirSync(blobsDir, { recursive: true });
  seedDeployStore(blobsDir, root);
  const token = randomUUID();
  const blobs = await startLocalBlobs(blobsDir, token, { owner: true });
  const blobsURL = blobs.url;

  // Variables set through Netlify.env are undone on stop, as @netlify/dev does.
  const changed = new Map<string, string | undefined>();
  const remember = (key: string): void => void (changed.has(key) || changed.set(key, process.env[key]));
  const env = {
    get: (key: string) => process.env[key],
    has: (key: string) => process.env[key] !== undefined,
    set: (key: string, value: string) => {
      remember(key);
      process.env[key] = value;
    },
    delete: (key: string) => {
      remember(key);
      delete process.env[key];
    },
    toObject: () => Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
  };
  startNetlifyRuntime({
    blobs: { edgeURL: blobsURL, uncachedEdgeURL: blobsURL, primaryRegion: 'us-east-2', token },
    cache: { getCacheAPIContext: () => null, purgeToken: '' },
    deployID: LOCAL_DEPLOY_ID,
    siteID: LOCAL_SITE_ID,
    env,
    getRequestContext: () => (requestContext.getStore() ?? null) as never,
  });

  return {
    blobsDir,
    blobsUrl: blobsURL,
    async stop() {
      for (const [key, value] of changed) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      await blobs.stop();
      running = false;
    },
  };
}
