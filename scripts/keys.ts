/**
 * `npm run keys`: signing keys for OAuth access tokens.
 *   npm run keys                      print a new OAUTH_SIGNING_KEYS value (one fresh key)
 *   npm run keys -- --rotate          read OAUTH_SIGNING_KEYS from the environment, add a new
 *                                     active key, keep the old one published until its tokens
 *                                     expire, print the new value to set
 *   npm run keys -- --rotate --local  rotate the key kept in local Blobs (what `npm start` uses)
 */
import { BlobsServer } from '@netlify/blobs/server';
import { blobsStore } from '../netlify/functions/_shared/blobs-store.ts';
import { localBlobsDir } from './local-blobs-dir.ts';
import { generateKeyRecord, liveRecords, parseKeyRecords, rotate, rotateStoredKeys } from '../src/core/oauth/keys.ts';
import './blobs-emulation.ts';

const now = Math.floor(Date.now() / 1000);
const args = process.argv.slice(2);

async function main(): Promise<void> {
  if (args.includes('--local')) {
    const token = 'local-keys-tool';
    const server = new BlobsServer({ directory: localBlobsDir(), token, port: 0 });
    const { port } = await server.start();
    try {
      const edgeURL = `http://127.0.0.1:${port}`;
      const records = await rotateStoredKeys(blobsStore('keys', { siteID: '0', token, edgeURL, uncachedEdgeURL: edgeURL }), now);
      console.log(`Rotated the local signing key. Active kid: ${records[0]!.kid}; published: ${liveRecords(records, now).map((r) => r.kid).join(', ')}`);
    } finally {
      await server.stop();
    }
    return;
  }
  const records = args.includes('--rotate')
    ? liveRecords(await rotate(parseKeyRecords(process.env.OAUTH_SIGNING_KEYS ?? ''), now), now)
    : [await generateKeyRecord(now)];
  console.error(`Active kid: ${records[0]!.kid}. Set this as the OAUTH_SIGNING_KEYS environment variable (secret) and redeploy:\n`);
  console.log(JSON.stringify(records));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
