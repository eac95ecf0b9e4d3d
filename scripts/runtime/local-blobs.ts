/**
 * The local Netlify Blobs server every local tool uses (npm start, npm run enquiries and keys, the
 * tests), with the workarounds that make it keep production's guarantees: conditional writes and
 * ETags, no temporary files in listings, loopback only.
 */
import './blobs-server-conditional-writes.ts';
import './blobs-server-loopback.ts';
import { removeInterruptedWrites } from './blobs-server-temp-files.ts';
import { BlobsServer } from '@netlify/blobs/server';

export interface LocalBlobs {
  /** http://127.0.0.1:<port>: the edge and uncached URL for @netlify/blobs' clients. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts a Blobs server over `directory` on 127.0.0.1. The runtime that owns the folder (npm start,
 * a test's runtime) first removes what killed writes left there; a tool that only reads beside a
 * running npm start (enquiries, keys) must not, or it could remove a write in flight.
 */
export async function startLocalBlobs(directory: string, token: string, options: { owner: boolean }): Promise<LocalBlobs> {
  if (options.owner) {
    const removed = await removeInterruptedWrites(directory);
    if (removed.length)
      console.warn(`Local Blobs: removed ${removed.length} temporary file(s) of writes a stopped process left unfinished.`);
  }
  const server = new BlobsServer({ directory, token, port: 0 });
  const { port } = await server.start();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.stop();
    },
  };
}
