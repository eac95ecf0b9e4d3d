/**
 * Small response and request helpers shared by every `/api/*` handler.
 * @module
 */
import { PUBLIC_API_CORS, preflightHeaders } from './cors.ts';
import { badRequest, methodNotAllowed, payloadTooLarge, unsupportedMediaType } from './problem.ts';

/** CORS for public read APIs: any origin, no credentials. */
export const PUBLIC_CORS_HEADERS: Readonly<Record<string, string>> = preflightHeaders(PUBLIC_API_CORS);

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

/** Throws 405 with `Allow` unless the method is allowed (HEAD is allowed wherever GET is). */
export function requireMethod(req: Request, allowed: readonly string[]): void {
  const all = allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : [...allowed];
  if (!all.includes(req.method)) throw methodNotAllowed([...all, 'OPTIONS']);
}

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
    throw unsupportedMediaType(['application/json', 'application/x-www-form-urlencoded']);
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
