/**
 * Compression of what the runtime sends, as Netlify's CDN compresses what it sends (static files and
 * function responses alike): brotli or gzip by the request's Accept-Encoding (negotiator: q-values,
 * `identity;q=0`, `*`), for text types (compressible, on mime-db's list), with `Vary: Accept-Encoding`
 * on every answer of such a type (a small one too, so that its 304 and its 200 say the same Vary).
 * Left alone: a response that already has a Content-Encoding (a function that compressed its own
 * body), a partial response (206, Content-Range), `no-transform`, already compressed types (images but
 * SVG, fonts, octet-stream such as the gzipped search index), bodies under {@link MIN_COMPRESSED_BYTES}
 * (sent as they are, with the Vary), and event streams (buffering would hold the events back).
 * An encoded variant carries the weak form of the ETag (W/"…", RFC 9110 §8.8.3.3: not the same
 * bytes), and If-None-Match compares weakly everywhere here, so revalidation still answers 304.
 *
 * Node's zlib does the work (built in, both encodings; no library of the field compresses a Web
 * `Response`, and the connect middleware `compression` patches a ServerResponse, which would miss
 * the in-process `handle()` the tests and HEAD use). Encoded static files are kept per ETag, as a CDN
 * keeps them, so a page loaded again costs no compression.
 * @module
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import compressible from 'compressible';
import Negotiator from 'negotiator';
import { appendVary } from '../../src/core/kernel/handler.ts';

/** Below this a body goes as it is: the encoding's frame would save little or nothing (express `compression`'s threshold). */
export const MIN_COMPRESSED_BYTES = 1024;
/** The encodings offered, best first (Netlify's CDN serves brotli to browsers that accept it, else gzip). */
const ENCODINGS = ['br', 'gzip', 'identity'];
/** Brotli quality for on-the-fly compression: 5 is about gzip -6's speed at a brotli size (11 takes ~50× the CPU). */
const BROTLI_QUALITY = 5;
/** Encoded bodies kept (keyed by URL path, type, ETag and encoding), in bytes; the whole cache starts afresh beyond it. */
const MAX_KEPT_ENCODED_BYTES = 32 * 1024 * 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Types never compressed although mime-db calls them compressible: binary by name, or streamed. */
const NEVER = /^(?:application\/octet-stream|text\/event-stream)\b/i;

/** Whether a response of this Content-Type is compressed (when large enough and accepted). */
export function compressibleType(contentType: string | null): boolean {
  if (!contentType || NEVER.test(contentType)) return false;
  return compressible(contentType) === true;
}

/** The encoding to send for an Accept-Encoding header: 'br', 'gzip' or undefined (identity). */
export function negotiateEncoding(acceptEncoding: string | null): 'br' | 'gzip' | undefined {
  const chosen = new Negotiator({ headers: acceptEncoding === null ? {} : { 'accept-encoding': acceptEncoding } }).encoding(ENCODINGS, {
    preferred: ENCODINGS,
  });
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined;
}

/** The weak form of an ETag (unchanged when already weak). */
export function weakEtag(etag: string): string {
  return etag.startsWith('W/') ? etag : `W/${etag}`;
}

function untouchable(response: Response): boolean {
  return (
    response.headers.has('content-encoding') ||
    response.status === 206 ||
    response.headers.has('content-range') ||
    /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(response.headers.get('cache-control') ?? '') ||
    !compressibleType(response.headers.get('content-type'))
  );
}

/**
 * A 304 stands for the variant the client holds, which its If-None-Match names: the weak form of the
 * ETag came only with an encoded 200, so the 304 carries it (and Vary) too; the strong form, the
 * identity body. Vary is added wherever the type says the 200 had it, whatever the client accepts
 * (RFC 9110 §15.4.5: a 304 carries the 200's Vary); a function's 304 names no type, and says its Vary
 * itself (kernel/document.ts).
 */
function notModified(request: Request, response: Response, encoding: 'br' | 'gzip' | undefined): Response {
  const etag = response.headers.get('etag');
  const heldEncoded =
    encoding !== undefined &&
    etag !== null &&
    !etag.startsWith('W/') &&
    (request.headers.get('if-none-match') ?? '').split(',').some((tag) => tag.trim() === `W/${etag}`);
  if (!heldEncoded && !compressibleType(response.headers.get('content-type'))) return response;
  const headers = new Headers(response.headers);
  appendVary(headers, 'Accept-Encoding');
  if (heldEncoded) headers.set('etag', weakEtag(etag));
  return new Response(null, { status: 304, statusText: response.statusText, headers });
}

/** Compresses responses for the requests that accept it; one per runtime (it keeps encoded static files). */
export class ResponseCompressor {
  #kept = new Map<string, Uint8Array>();
  #keptBytes = 0;

  /** Forget the encoded bodies kept (after a rebuild). */
  reset(): void {
    this.#kept.clear();
    this.#keptBytes = 0;
  }

  /** `response` as sent to a client that made `request` (GET's request for a HEAD: the same headers). */
  async encode(request: Request, response: Response): Promise<Response> {
    const encoding = negotiateEncoding(request.headers.get('accept-encoding'));
    if (response.status === 304) return notModified(request, response, encoding);
    if (untouchable(response) || !response.body) return response;
    const bytes = new Uint8Array(await response.arrayBuffer());
    const headers = new Headers(response.headers);
    const init = { status: response.status, statusText: response.statusText, headers };
    // By type, not size: a 304 has no body to measure, and must say the same Vary as its 200.
    appendVary(headers, 'Accept-Encoding');
    if (bytes.byteLength < MIN_COMPRESSED_BYTES || !encoding) return new Response(bytes, init);
    const etag = headers.get('etag');
    const encoded = await this.#compress(
      bytes,
      encoding,
      etag && `${new URL(request.url).pathname} ${headers.get('content-type')} ${etag} ${encoding}`,
    );
    headers.set('content-encoding', encoding);
    headers.set('content-length', String(encoded.byteLength));
    if (etag) headers.set('etag', weakEtag(etag));
    return new Response(encoded as Uint8Array<ArrayBuffer>, init);
  }

  async #compress(bytes: Uint8Array, encoding: 'br' | 'gzip', key: string | null): Promise<Uint8Array> {
    const kept = key ? this.#kept.get(key) : undefined;
    if (kept) return kept;
    const encoded =
      encoding === 'br'
        ? await brotli(bytes, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
              [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
            },
          })
        : await gzipAsync(bytes);
    if (key) {
      if (this.#keptBytes + encoded.byteLength > MAX_KEPT_ENCODED_BYTES) this.reset();
      this.#kept.set(key, encoded);
      this.#keptBytes += encoded.byteLength;
    }
    return encoded;
  }
}
