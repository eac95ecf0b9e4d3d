/**
 * Workaround for @netlify/blobs' local BlobsServer: its conditional writes are not atomic and its
 * keyed GET carries no ETag. It makes the local Blobs server keep the production guarantee of
 * conditional writes.
 *
 * Upstream: the missing ETag is https://github.com/netlify/primitives/pull/772 (open when written);
 * the check-then-write race is in the conditional-write support of
 * https://github.com/netlify/primitives/pull/306 (no upstream issue filed for it yet).
 *
 * @netlify/blobs' BlobsServer (11.1.1) checks `If-None-Match: *` / `If-Match` and then writes
 * after several awaits, so two concurrent conditional writes can both succeed; and its ETag is an
 * HMAC of the file's mtime at millisecond precision, so two writes in the same millisecond share an
 * ETag. Netlify's hosted Blobs do neither. Without this, the local runtime would let 5 of 20
 * concurrent "create if new" writes through (measured; see src/core/kernel/rate-limit.test.ts).
 *
 * It also answers a keyed GET without an ETag, so `getWithMetadata` returns none and a following
 * `onlyIfMatch` write would be unconditional.
 *
 * The fix, local only: PUT, DELETE and keyed GET run one at a time (reads of a deploy store, which
 * nothing writes at run time, need not); a GET carries the ETag of the bytes it returns; the ETag
 * also hashes the file's bytes and nanosecond mtime. Production code never imports this file.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { BlobsServer } from '@netlify/blobs/server';
import { answerHelp } from '../usage.ts';

/** The BlobsServer whose private methods this patches (package.json pins it exactly); another version must be re-checked first. */
const PATCHED_BLOBS_VERSION = '11.1.1';
/** Refuses to patch any BlobsServer but the one this was written for: its private methods may differ. */
export function assertPatchedBlobsVersion(installed: string): void {
  if (installed !== PATCHED_BLOBS_VERSION) {
    throw new Error(
      `scripts/runtime/blobs-server-conditional-writes.ts patches @netlify/blobs ${PATCHED_BLOBS_VERSION}, but ${installed} is installed: re-check the patch (src/core/kernel/rate-limit.test.ts) and update PATCHED_BLOBS_VERSION`,
    );
  }
}
assertPatchedBlobsVersion((createRequire(import.meta.url)('@netlify/blobs/package.json') as { version: string }).version);

type Handler = (this: unknown, req: unknown) => Promise<Response>;
interface PatchableServer {
  put: Handler;
  delete: Handler;
  get: Handler;
  address: string;
  parseAPIRequest(req: { url?: string }): { url: URL } | null;
  getLocalPaths(url: URL): { dataPath?: string; key?: string };
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
  const plainGet = proto.get;
  const urlOf = (server: PatchableServer, req: unknown): URL => {
    const request = req as { url?: string };
    return server.parseAPIRequest(request)?.url ?? new URL(request.url ?? '', server.address);
  };
  const getWithETag: Handler = async function (this: unknown, req: unknown) {
    const server = this as PatchableServer;
    const res = await plainGet.call(server, req);
    const { dataPath, key } = server.getLocalPaths(urlOf(server, req));
    if (res.status === 200 && key && dataPath && !res.headers.has('etag')) res.headers.set('etag', await statics.generateETag(dataPath));
    return res;
  };
  const serialisedGet = serialise(getWithETag);
  // A deploy store (the build's article bodies) is never written while the site runs, so its reads
  // need no place in the write queue: get_article under load would otherwise wait behind every write.
  proto.get = function (this: unknown, req: unknown) {
    const deployStore = decodeURIComponent(urlOf(this as PatchableServer, req).pathname).includes('/deploy:');
    return (deployStore ? getWithETag : serialisedGet).call(this, req);
  };
  statics.generateETag = async (filePath: string): Promise<string> => {
    try {
      const [info, bytes] = await Promise.all([stat(filePath, { bigint: true }), readFile(filePath)]);
      return `"${createHash('sha256').update(String(info.mtimeNs)).update('\0').update(bytes).digest('hex')}"`;
    } catch {
      return '';
    }
  };
}

if (import.meta.main)
  answerHelp(
    'Usage: imported, not run: importing it patches the local Netlify Blobs server (conditional writes, ETags) for npm start, the tests and npm run keys.',
  );
