/**
 * Makes the local Netlify Blobs emulator keep the production guarantee of conditional writes.
 *
 * @netlify/blobs' BlobsServer (11.1.1) checks `If-None-Match: *` / `If-Match` and then writes
 * after several awaits, so two concurrent conditional writes can both succeed; and its ETag is an
 * HMAC of the file's mtime at millisecond precision, so two writes in the same millisecond share an
 * ETag. Netlify's hosted Blobs do neither. Without this, the local runtime would let 5 of 20
 * concurrent "create if new" writes through (measured; see src/core/ratelimit/fixed-window.test.ts).
 *
 * The fix, local only: PUT and DELETE run one at a time, and the ETag also hashes the file's bytes
 * and nanosecond mtime. Production code never imports this file.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { BlobsServer } from '@netlify/blobs/server';

type Handler = (this: unknown, req: unknown) => Promise<Response>;
interface PatchableServer {
  put: Handler;
  delete: Handler;
}
interface PatchableStatics {
  generateETag(filePath: string): Promise<string>;
  __atomicWrites?: boolean;
}

const statics = BlobsServer as unknown as PatchableStatics;
if (!statics.__atomicWrites) {
  statics.__atomicWrites = true;
  const proto = BlobsServer.prototype as unknown as PatchableServer;
  let queue: Promise<unknown> = Promise.resolve();
  const serialise = (original: Handler): Handler =>
    function (this: unknown, req: unknown) {
      const run = queue.then(() => original.call(this, req));
      queue = run.catch(() => undefined);
      return run;
    };
  proto.put = serialise(proto.put);
  proto.delete = serialise(proto.delete);
  statics.generateETag = async (filePath: string): Promise<string> => {
    try {
      const [info, bytes] = await Promise.all([stat(filePath, { bigint: true }), readFile(filePath)]);
      return `"${createHash('sha256').update(String(info.mtimeNs)).update('\0').update(bytes).digest('hex')}"`;
    } catch {
      return '';
    }
  };
}
