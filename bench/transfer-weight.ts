/**
 * What a page downloads, as a CDN that compresses text would send it: text responses (HTML, CSS,
 * JS, JSON, SVG) at their gzip size, anything else (WebAssembly, Pagefind's already compressed
 * index files) as received. Measured from the decoded body, so the figure is gzip's whatever the
 * runtime sent (it compresses as the CDN does, brotli for Chromium: scripts/runtime/compression.ts)
 * and stays comparable with earlier records. Shared by the search-page and API-reference benchmarks.
 * @module
 */
import { gzipSync } from 'node:zlib';
import type { CDPSession } from 'playwright-core';

const TEXT_TYPE = /^text\/|javascript|json|svg/;

/** Starts counting on `cdp` (Network must be enabled); `sizes()` settles to one byte count per response. */
export function transferWeight(cdp: CDPSession): { sizes(): Promise<number[]>; total(): Promise<number> } {
  const types = new Map<string, string>();
  const sizes: Promise<number>[] = [];
  cdp.on('Network.responseReceived', (event: { requestId: string; response: { mimeType: string } }) => {
    types.set(event.requestId, event.response.mimeType);
  });
  cdp.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
    if (!TEXT_TYPE.test(types.get(event.requestId) ?? '')) {
      sizes.push(Promise.resolve(event.encodedDataLength));
      return;
    }
    sizes.push(
      cdp
        .send('Network.getResponseBody', { requestId: event.requestId })
        .then(({ body, base64Encoded }) => gzipSync(Buffer.from(body, base64Encoded ? 'base64' : 'utf8')).length)
        .catch(() => event.encodedDataLength),
    );
  });
  const settle = (): Promise<number[]> => Promise.all(sizes);
  return { sizes: settle, total: async () => (await settle()).reduce((a, b) => a + b, 0) };
}
