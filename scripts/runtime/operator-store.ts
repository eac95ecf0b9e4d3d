/**
 * The one way the operator scripts (`npm run enquiries`, `feedback`, `stats`) read a Blobs store:
 * the deployed site's with --production (NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN), else the local
 * Blobs that `npm start` writes, through a Blobs server of their own over the same folder, stopped
 * when the read is done. The folder is named on stderr; a missing one is an error, never created.
 */
import { blobsStore } from '../../netlify/functions/_shared/blobs-store.ts';
import { parseEnv } from '../../src/core/config.ts';
import type { Store, StoreName } from '../../src/core/kernel/store.ts';
import { LOCAL_SITE_ID } from './deploy-blobs.ts';
import { startLocalBlobs } from './local-blobs.ts';
import { existingLocalBlobsDir } from './local-blobs-dir.ts';

/** `read` over the store `name`, production's or the local one; the local server stops whatever `read` does. */
export async function readOperatorStore<T>(name: StoreName, production: boolean, read: (store: Store) => Promise<T>): Promise<T> {
  if (production) {
    const { NETLIFY_SITE_ID: siteID, NETLIFY_AUTH_TOKEN: token } = parseEnv(process.env, ['NETLIFY_SITE_ID', 'NETLIFY_AUTH_TOKEN']);
    if (!siteID || !token) throw new Error('--production needs NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN (a personal access token)');
    return read(blobsStore(name, { siteID, token }));
  }
  const token = `local-${name}-reader`;
  const dir = existingLocalBlobsDir();
  // On stderr, so stdout (or --output) holds the document alone: which folder was read, for an answer that looks empty.
  process.stderr.write(`Local Blobs: ${dir}\n`);
  const server = await startLocalBlobs(dir, token, { owner: false });
  try {
    return await read(blobsStore(name, { siteID: LOCAL_SITE_ID, token, edgeURL: server.url, uncachedEdgeURL: server.url }));
  } finally {
    await server.stop();
  }
}
