/**
 * Small response and request helpers shared by every `/api/*` handler.
 * @module
 */
import { parseClientJson, TOO_DEEP_MESSAGE } from './json-body.ts';
import { HttpProblem, badRequest, methodNotAllowed, payloadTooLarge, unsupportedMediaType } from './problem.ts';

/** A JSON response. */
export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json; charset=utf-8', ...init.headers },
  });
}

/** The methods a path answers when it serves `allowed`: HEAD is allowed wherever GET is. */
const answeredMethods = (allowed: readonly string[]): string[] =>
  allowed.includes('GET') && !allowed.includes('HEAD') ? allowed.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])) : [...allowed];

/** Throws 405 with `Allow` unless the method is allowed (HEAD is allowed wherever GET is). */
export function requireMethod(req: Request, allowed: readonly string[]): void {
  if (!answeredMethods(allowed).includes(req.method)) throw wrongMethodFor(allowed);
}

/** What `Allow` names for an endpoint serving `allowed`: them, HEAD with GET, and OPTIONS (kernel/handler.ts answers it). */
export function allowedMethods(allowed: readonly string[]): string[] {
  return [...answeredMethods(allowed), 'OPTIONS'];
}

/** The 405 {@link requireMethod} throws for `allowed`: `Allow` names them, HEAD with GET, and OPTIONS. */
export function wrongMethodFor(allowed: readonly string[]): HttpProblem {
  return methodNotAllowed(allowedMethods(allowed));
}

/** Whether every %-sequence of a query or form string decodes as UTF-8 (`+` is a space, not an escape). */
export function isWellPercentEncoded(encoded: string): boolean {
  try {
    decodeURIComponent(encoded.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

/**
 * The fields of a form body. URLSearchParams would silently keep the last of a repeated name and
 * turn a broken %-sequence into U+FFFD; a client that sent either hears so (400) instead.
 */
function formFields(text: string): Record<string, string> {
  if (!isWellPercentEncoded(text)) throw badRequest('The form body is not valid percent-encoded UTF-8.');
  const fields: Record<string, string> = {};
  const repeated = new Set<string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name)) repeated.add(name);
    fields[name] = value;
  }
  if (repeated.size > 0) {
    const names = [...repeated];
    throw badRequest(
      `Give each field once: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} repeated.`,
      names.map((name) => ({ name, reason: `${name} is repeated` })),
    );
  }
  return fields;
}

/** The body media types {@link readFields} reads. */
export const FIELD_MEDIA_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** A body read within its byte limit, or why not: every endpoint family reads bodies through {@link readBody}. */
export type BodyRead =
  | { ok: true; text: string }
  | { ok: false; problem: 'too-large' | 'not-utf8' }
  | { ok: false; problem: 'encoded'; coding: string };

/**
 * The content coding a request body claims beyond `identity` (`gzip`, `br`, `gzip, br`...), or null.
 * No endpoint decodes one: such a body is answered 415 with `Accept-Encoding: identity` (RFC 9110
 * §15.5.16, RFC 7694), not parsed as if it were plain and refused as bad JSON.
 */
export function unsupportedContentCoding(req: Request): string | null {
  const codings = (req.headers.get('content-encoding') ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  return codings.length ? codings.join(', ') : null;
}

/** The words of the 415 for a content-coded body, the same in every family. */
export function contentCodingMessage(coding: string): string {
  return `Content-Encoding ${coding} is not supported: send the body without a content coding (identity).`;
}

/** The response header of that 415: the only coding accepted (RFC 7694 §3). */
export const ACCEPT_IDENTITY_ONLY = { 'accept-encoding': 'identity' } as const;

/**
 * Reads the body as UTF-8 text, counting bytes (not characters) against `limitBytes`, and stops
 * reading as soon as the limit is passed, whatever Content-Length claims. A content-coded body is
 * not read ({@link unsupportedContentCoding}).
 */
export async function readBody(req: Request, limitBytes: number): Promise<BodyRead> {
  const coding = unsupportedContentCoding(req);
  if (coding) return { ok: false, problem: 'encoded', coding };
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) return { ok: false, problem: 'too-large' };
  if (!req.body) return { ok: true, text: '' };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      return { ok: false, problem: 'too-large' };
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
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { ok: false, problem: 'not-utf8' };
  }
}

/** {@link readBody} for `/api/*`: 413 beyond the limit, 415 for a content coding, 400 for bytes that are not UTF-8. */
export async function readBodyText(req: Request, limitBytes: number): Promise<string> {
  const read = await readBody(req, limitBytes);
  if (read.ok) return read.text;
  if (read.problem === 'encoded')
    throw new HttpProblem(415, 'Unsupported Media Type', contentCodingMessage(read.coding), { headers: { ...ACCEPT_IDENTITY_ONLY } });
  throw read.problem === 'too-large' ? payloadTooLarge(limitBytes) : badRequest('The request body is not valid UTF-8.');
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
  if (type === 'application/x-www-form-urlencoded') return { fields: formFields(text), form: true };
  const read = parseClientJson(text);
  if (!read.ok)
    throw badRequest(
      read.problem === 'too-deep' ? `The request body is refused: ${TOO_DEEP_MESSAGE}.` : 'The request body is not valid JSON.',
    );
  const parsed = read.value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw badRequest('The JSON body must be an object.');
  return { fields: parsed as Record<string, unknown>, form: false };
}
