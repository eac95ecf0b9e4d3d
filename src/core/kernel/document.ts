/**
 * Public documents (discovery JSON, metadata, server card, skills): the one place that serves a
 * fixed body with a cache lifetime, a strong ETag and `If-None-Match` → 304. CORS and OPTIONS are the
 * edge's ({@link PUBLIC_DOCUMENT_EDGE}, kernel/handler.ts).
 * @module
 */
import { PUBLIC_DOCUMENT_CORS } from './cors.ts';
import { base64url, sha256 } from './crypto.ts';
import { appendVary, type EdgeOptions } from './handler.ts';

/** A body ready to serve: its bytes as text, media type and strong ETag. */
export interface PublicDocument {
  body: string;
  contentType: string;
  etag: string;
  /** Extra headers sent with every answer for this document (e.g. a `Link`). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * The CDN compresses the text it serves (Netlify's; locally scripts/runtime/compression.ts), so a
 * document's 200 varies by Accept-Encoding. Said here, where the 304 is made, so that the 304 carries
 * the 200's whole `Vary` (RFC 9110 §15.4.5) whatever the CDN adds to a 304 (locally it added nothing
 * to one for a client that accepts no encoding).
 */
const COMPRESSED_BY_THE_CDN = 'Accept-Encoding';

/** The `Allow` of a public document: it is read, never written. */
export const PUBLIC_DOCUMENT_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS'];

/** The edge of a public document: read by any origin; `If-None-Match` may be sent cross-origin and the ETag read back. */
export const PUBLIC_DOCUMENT_EDGE: EdgeOptions = { methods: ['GET'], cors: PUBLIC_DOCUMENT_CORS };

/** A strong ETag: the first 128 bits of the SHA-256 of the body, base64url. */
export async function strongEtag(body: string): Promise<string> {
  return `"${base64url((await sha256(body)).subarray(0, 16))}"`;
}

/** Wraps a body as a {@link PublicDocument} (hashes it once; callers keep the result). */
export async function publicDocument(
  body: string,
  contentType: string,
  headers?: Readonly<Record<string, string>>,
): Promise<PublicDocument> {
  return { body, contentType, etag: await strongEtag(body), ...(headers ? { headers } : {}) };
}

/** RFC 9110 §13.1.2: `If-None-Match` uses the weak comparison; `*` matches any current representation. */
export function noneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

/**
 * Answers `GET` with the document (or 304); HEAD arrives as GET and OPTIONS never arrives
 * (kernel/handler.ts). Any other method gets the caller's 405, since each family words its errors
 * its own way (problem JSON, RFC 6749 JSON).
 */
export function serveDocument(
  req: Request,
  doc: PublicDocument,
  options: { maxAgeSeconds: number; methodNotAllowed: () => Response },
): Response {
  if (req.method !== 'GET') return options.methodNotAllowed();
  const headers = new Headers(doc.headers);
  headers.set('cache-control', `public, max-age=${options.maxAgeSeconds}`);
  headers.set('etag', doc.etag);
  appendVary(headers, COMPRESSED_BY_THE_CDN);
  if (noneMatch(req.headers.get('if-none-match'), doc.etag)) return new Response(null, { status: 304, headers });
  headers.set('content-type', doc.contentType);
  return new Response(doc.body, { status: 200, headers });
}

/**
 * Validators for a static file read through the CDN (an edge function's `context.next()`): the
 * CDN's own ETag is kept when it sends one; otherwise (the local emulation sends none) a strong
 * ETag is computed from the bytes. `If-None-Match` then answers 304, so static discovery documents
 * revalidate like the function-served ones.
 */
export async function withValidators(req: Request, res: Response): Promise<Response> {
  if (res.status !== 200 || req.method !== 'GET') return res;
  const headers = new Headers(res.headers);
  let body: string | null = null;
  if (!headers.has('etag')) {
    body = await res.text();
    headers.set('etag', await strongEtag(body));
  }
  const etag = headers.get('etag')!;
  appendVary(headers, COMPRESSED_BY_THE_CDN);
  if (noneMatch(req.headers.get('if-none-match'), etag)) {
    for (const name of ['content-length', 'content-type', 'content-encoding']) headers.delete(name);
    return new Response(null, { status: 304, headers });
  }
  headers.delete('content-length');
  return new Response(body ?? res.body, { status: 200, headers });
}
