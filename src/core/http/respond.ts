/**
 * Small response and request helpers shared by every `/api/*` handler.
 * @module
 */
import { type HttpProblem, badRequest, methodNotAllowed, payloadTooLarge, unsupportedMediaType } from './problem.ts';

/** CORS for public read APIs: any origin, no credentials. */
export const PUBLIC_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'Accept, Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag, Retry-After',
  'access-control-max-age': '86400',
};

/** A JSON response. */
export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json; charset=utf-8', ...init.headers },
  });
}

/** Answers a CORS preflight (204) with the given headers. */
export function preflight(headers: Readonly<Record<string, string>>): Response {
  return new Response(null, { status: 204, headers: { ...headers } });
}

/** The methods a path answers when it serves `allowed`: HEAD is allowed wherever GET is. */
const answeredMethods = (allowed: readonly string[]): string[] => (allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : [...allowed]);

/** Throws 405 with `Allow` unless the method is allowed (HEAD is allowed wherever GET is). */
export function requireMethod(req: Request, allowed: readonly string[]): void {
  if (!answeredMethods(allowed).includes(req.method)) throw wrongMethodFor(allowed);
}

/** The 405 {@link requireMethod} throws for `allowed`: `Allow` names them, HEAD with GET, and OPTIONS (CORS preflight). */
export function wrongMethodFor(allowed: readonly string[]): HttpProblem {
  return methodNotAllowed([...answeredMethods(allowed), 'OPTIONS']);
}

/** The body media types {@link readFields} reads. */
export const FIELD_MEDIA_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** Reads the body up to `limitBytes` (413 beyond it, whatever Content-Length claims). */
export async function readBodyText(req: Request, limitBytes: number): Promise<string> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) throw payloadTooLarge(limitBytes);
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      throw payloadTooLarge(limitBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('The request body is not valid UTF-8.');
  }
}

/** The media type of a Content-Type header, lowercased, without parameters. */
export function mediaTypeOf(req: Request): string {
  return (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Reads a JSON or form-encoded body into a flat record of strings (415 for other types,
 * 400 for malformed JSON or a JSON value that is not an object).
 */
export async function readFields(req: Request, limitBytes: number): Promise<{ fields: Record<string, unknown>; form: boolean }> {
  const type = mediaTypeOf(req);
  if (type !== 'application/json' && type !== 'application/x-www-form-urlencoded') {
    throw unsupportedMediaType(FIELD_MEDIA_TYPES);
  }
  const text = await readBodyText(req, limitBytes);
  if (type === 'application/x-www-form-urlencoded') {
    return { fields: Object.fromEntries(new URLSearchParams(text)), form: true };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('The JSON body must be an object.');
  return { fields: parsed as Record<string, unknown>, form: false };
}
