/**
 * The checker's only way onto the network: one GET with a timeout, a body-size cap, a clear
 * User-Agent and same-origin redirects only. Responses are memoised per check context, so the
 * checks that share a document (robots.txt, `/`, the OAuth metadata) fetch it once.
 * @module
 */
import type { CheckContext } from './types.ts';
import { CHECKER_NAME, CHECKER_VERSION } from './version.ts';

/** Per-request budget, headers and body included. */
export const REQUEST_TIMEOUT_MS = 10_000;
/** Larger bodies are refused (RFC 9309 asks crawlers to parse at least 500 KiB of robots.txt). */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;
/** Same-origin redirects followed per request. */
export const MAX_REDIRECTS = 5;
/** Sent with every request so site owners can recognise (and allow) the checker. */
export const USER_AGENT = `${CHECKER_NAME}/${CHECKER_VERSION} (agent-readiness checker)`;

/** A fetched document, or why it could not be fetched. */
export interface Fetched {
  /** The URL finally answered (after same-origin redirects). */
  url: string;
  /** HTTP status; 0 when no response arrived. */
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
  /** Set when the request failed: network error, timeout, body too large, off-origin redirect. */
  error?: string;
  /** Milliseconds from sending the request to the response headers of the final hop. */
  ms: number;
  /** Every URL that redirected on the way to `url`, in order (empty: answered directly). */
  redirects: string[];
  /** Set when the chain redirected off the origin (not followed): the target. */
  offOrigin?: string;
  /** The request method, when it was not GET (summaries name it). */
  method?: string;
  /** Set when the body was cut at the cap on purpose ({@link GetOptions.truncate}): only its head is in `bytes`. */
  truncated?: boolean;
}

export interface GetOptions {
  accept?: string;
  /** Body cap for this request (default {@link MAX_BODY_BYTES}). */
  maxBytes?: number;
  /** Bypass the memo: a new request every call (the cache-safety checks repeat requests on purpose). */
  fresh?: boolean;
  /** Keep the first `maxBytes` of a larger body instead of failing (robots.txt: RFC 9309 §2.5). */
  truncate?: boolean;
}

/** A request other than a memoised GET (the behaviour checks): method, headers and body as sent. */
export interface SendOptions {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  maxBytes?: number;
}

const memo = new WeakMap<CheckContext, Map<string, Promise<Fetched>>>();

/** Absolute URL of `path` on the audited origin. */
export function siteUrl(ctx: CheckContext, path: string): string {
  return new URL(path, `${ctx.baseUrl}/`).href;
}

/** True when `url` is on the audited origin. */
export function sameOrigin(ctx: CheckContext, url: string): boolean {
  try {
    return new URL(url).origin === new URL(ctx.baseUrl).origin;
  } catch {
    return false; // not a URL at all: certainly not ours
  }
}

/**
 * The origin of `url` when it is a URL on another origin than the audited one, else null: a site built for one origin
 * and served at another names the first in its cards, metadata and links.
 */
export function otherOriginOf(ctx: CheckContext, url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin !== 'null' && origin !== new URL(ctx.baseUrl).origin ? origin : null;
  } catch {
    return null; // not a URL: no origin to name
  }
}

/** The clause a verdict adds when the site names another origin than the scanned one. */
export function builtForOtherOrigin(ctx: CheckContext, origin: string): string {
  return `${origin}, not the scanned ${new URL(ctx.baseUrl).origin}: was the site built for another origin?`;
}

/** GET `pathOrUrl` (memoised per context, URL and Accept, unless `fresh`). Never throws. */
export function get(ctx: CheckContext, pathOrUrl: string, options: GetOptions = {}): Promise<Fetched> {
  const url = siteUrl(ctx, pathOrUrl);
  if (options.fresh)
    return fetchOnce(ctx, url, {
      method: 'GET',
      headers: options.accept ? { accept: options.accept } : {},
      maxBytes: options.maxBytes,
      truncate: options.truncate,
    }).then((fetched) => noteBudgetCut(ctx, fetched));
  const key = `${url}\n${options.accept ?? ''}\n${options.maxBytes ?? MAX_BODY_BYTES}\n${options.truncate ? 'head' : ''}`;
  let cache = memo.get(ctx);
  if (!cache) {
    cache = new Map();
    memo.set(ctx, cache);
  }
  let pending = cache.get(key);
  if (!pending) {
    pending = fetchOnce(ctx, url, {
      method: 'GET',
      headers: options.accept ? { accept: options.accept } : {},
      maxBytes: options.maxBytes,
      truncate: options.truncate,
    });
    cache.set(key, pending);
  }
  return pending.then((fetched) => noteBudgetCut(ctx, fetched));
}

/**
 * Sends one request that is not a plain GET (a JSON-RPC call, an OAuth form): never memoised, never
 * redirected (a POST that redirects is reported as such), same caps and timeout as {@link get}.
 */
export function send(ctx: CheckContext, pathOrUrl: string, options: SendOptions): Promise<Fetched> {
  return fetchOnce(ctx, siteUrl(ctx, pathOrUrl), { ...options, noRedirects: true }).then((fetched) => noteBudgetCut(ctx, fetched));
}

const budgetCuts = new WeakMap<CheckContext, number>();

/**
 * How many answers the scan's deadline cut (or never let start) the checks have read so far in `ctx`; a memoised
 * answer counts again at each read. The runner compares it around a check to tell a starved check from a failed one.
 */
export function budgetCutsRead(ctx: CheckContext): number {
  return budgetCuts.get(ctx) ?? 0;
}

function noteBudgetCut(ctx: CheckContext, fetched: Fetched): Fetched {
  if (fetched.error === SCAN_BUDGET_USED) budgetCuts.set(ctx, budgetCutsRead(ctx) + 1);
  return fetched;
}

async function fetchOnce(
  ctx: CheckContext,
  start: string,
  options: SendOptions & { noRedirects?: boolean; truncate?: boolean },
): Promise<Fetched> {
  const fetched = await fetchHops(ctx, start, options);
  return options.method === 'GET' ? fetched : { ...fetched, method: options.method };
}

async function fetchHops(
  ctx: CheckContext,
  start: string,
  options: SendOptions & { noRedirects?: boolean; truncate?: boolean },
): Promise<Fetched> {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...options.headers };
  let url = start;
  const redirects: string[] = [];
  for (let hop = 0; ; hop++) {
    let response: Response;
    const left = ctx.deadline === undefined ? Number.POSITIVE_INFINITY : ctx.deadline - Date.now();
    if (left <= 0) return failed(url, 0, new Headers(), SCAN_BUDGET_USED, 0, redirects);
    const timeoutMs = Math.min(ctx.requestTimeoutMs ?? REQUEST_TIMEOUT_MS, left);
    // The scan's deadline cuts a request as its own timeout does; the reason says which one it was.
    const byDeadline = timeoutMs < (ctx.requestTimeoutMs ?? REQUEST_TIMEOUT_MS);
    const describe = (error: unknown): string => (byDeadline && isTimeout(error) ? SCAN_BUDGET_USED : describeError(error, timeoutMs));
    const signal = AbortSignal.timeout(timeoutMs);
    const started = performance.now();
    try {
      response = await ctx.fetch(url, { method: options.method, headers, body: options.body, redirect: 'manual', signal });
    } catch (error) {
      return failed(url, 0, new Headers(), describe(error), performance.now() - started, redirects);
    }
    const ms = performance.now() - started;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location && !options.noRedirects) {
      await response.body?.cancel();
      const next = new URL(location, url).href;
      if (!sameOrigin(ctx, next))
        return {
          ...failed(url, response.status, response.headers, `redirects off the origin to ${next} (not followed)`, ms, redirects),
          offOrigin: next,
        };
      if (hop >= MAX_REDIRECTS)
        return failed(url, response.status, response.headers, `more than ${MAX_REDIRECTS} redirects`, ms, redirects);
      redirects.push(url);
      url = next;
      continue;
    }
    try {
      const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
      if (options.truncate && response.body) {
        const head = await readStreamHead(response.body, maxBytes);
        const done = { url, status: response.status, headers: response.headers, bytes: head.bytes, ms, redirects };
        return { ...done, text: new TextDecoder().decode(head.bytes), ...(head.truncated ? { truncated: true } : {}) };
      }
      const bytes = await readCapped(response, maxBytes);
      if (!bytes) return failed(url, response.status, response.headers, `body larger than ${maxBytes} bytes`, ms, redirects);
      return { url, status: response.status, headers: response.headers, bytes, text: new TextDecoder().decode(bytes), ms, redirects };
    } catch (error) {
      return failed(url, response.status, response.headers, describe(error), ms, redirects);
    }
  }
}

function failed(url: string, status: number, headers: Headers, error: string, ms: number, redirects: string[]): Fetched {
  return { url, status, headers, bytes: new Uint8Array(), text: '', error, ms, redirects };
}

/** The error of a request the scan's deadline stopped (or never sent). */
export const SCAN_BUDGET_USED = 'scan budget used up';

const isTimeout = (error: unknown): boolean => error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

/** The body, or null when it exceeds `maxBytes`. */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  if (!response.body) return new Uint8Array();
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body.cancel();
    return null;
  }
  return readStreamCapped(response.body, maxBytes);
}

/** The first `maxBytes` of a byte stream (the rest is not read), and whether there was more. */
async function readStreamHead(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = stream.getReader();
  const bytes = new Uint8Array(maxBytes);
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: bytes.slice(0, size), truncated: false };
    const room = maxBytes - size;
    bytes.set(value.subarray(0, room), size);
    size += Math.min(room, value.byteLength);
    if (value.byteLength > room) {
      await reader.cancel();
      return { bytes, truncated: true };
    }
  }
}

/** Reads a byte stream to the end, or returns null (and cancels it) past `maxBytes`. */
export async function readStreamCapped(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The media type of a response, lower-case, without parameters (`''` when absent). */
export function mediaType(res: Fetched): string {
  return (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** `application/json` or any `+json` type. */
export function isJsonType(type: string): boolean {
  return type === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

/** A body that is an HTML document (what a soft 404 or an SPA shell returns). */
export function looksLikeHtml(text: string): boolean {
  return /^\s*(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text);
}

/** `GET /path → 404` style summary of a response, for reasons. */
export function summary(ctx: CheckContext, res: Fetched): string {
  const where = sameOrigin(ctx, res.url) ? new URL(res.url).pathname + new URL(res.url).search : res.url;
  const method = res.method ?? 'GET';
  if (res.error) return `${method} ${where}: ${res.error}`;
  return `${method} ${where} → ${res.status}${mediaType(res) ? ` ${mediaType(res)}` : ''}`;
}

/** What came back, without the request line: `200 application/json`, or the error (`no answer within 10000 ms`). */
export function outcome(res: Fetched): string {
  return res.error ?? `${res.status}${mediaType(res) ? ` ${mediaType(res)}` : ''}`;
}

/** A 200 answer with a body, or the one-line reason it is not one (soft 404s included). */
export function problemWith(ctx: CheckContext, res: Fetched, expected: 'json' | 'text'): string | null {
  if (res.error || res.status !== 200) return summary(ctx, res);
  if (expected === 'json' && (mediaType(res) === 'text/html' || looksLikeHtml(res.text)))
    return `${summary(ctx, res)}: an HTML page where JSON belongs (soft 404)`;
  if (expected === 'text' && mediaType(res) === 'text/html') return `${summary(ctx, res)}: an HTML page (soft 404)`;
  return null;
}

/** Parses a JSON object body; a string reason when it is not one. */
export function parseJsonObject(res: Fetched): Record<string, unknown> | string {
  try {
    const value: unknown = JSON.parse(res.text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    return 'the body is JSON but not an object';
  } catch {
    return 'the body is not valid JSON'; // the parser's position detail is noise in a one-line reason
  }
}

/**
 * Fetches a JSON discovery document: 200, a JSON media type, an object body. Returns the object or
 * a one-line reason. The scanner asks only for "200 JSON"; RFC 8259/6838 make the media type part
 * of that, so a JSON body served as text/plain fails here (stricter reading).
 */
export async function getJsonDocument(
  ctx: CheckContext,
  path: string,
  accept = 'application/json',
): Promise<{ doc: Record<string, unknown>; res: Fetched } | { problem: string; res: Fetched }> {
  const res = await get(ctx, path, { accept });
  const problem = problemWith(ctx, res, 'json');
  if (problem) return { problem, res };
  if (!isJsonType(mediaType(res))) return { problem: `${summary(ctx, res)}: expected a JSON media type`, res };
  const doc = parseJsonObject(res);
  if (typeof doc === 'string') return { problem: `${summary(ctx, res)}: ${doc}`, res };
  return { doc, res };
}

/**
 * The JSON object at `path` when the site really serves one (200, not an HTML page, a JSON object), else
 * null: a soft 404 (200 HTML) does not count as a document being there.
 */
export async function servedJson(ctx: CheckContext, path: string, accept = 'application/json'): Promise<Record<string, unknown> | null> {
  const res = await get(ctx, path, { accept });
  if (res.error || res.status !== 200 || mediaType(res) === 'text/html' || looksLikeHtml(res.text)) return null;
  const doc = parseJsonObject(res);
  return typeof doc === 'string' ? null : doc;
}

/** An absolute http(s) URL string. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false; // unparsable: not a URL
  }
}

/** Loopback hosts, where plain http is acceptable for identifiers that must otherwise be https. */
export function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/** An absolute https URL (or http on a loopback host, so local builds can be checked). */
export function isSecureUrl(value: unknown): value is string {
  return isHttpUrl(value) && (new URL(value).protocol === 'https:' || isLoopback(value));
}

/** SHA-256 of `bytes` as lower-case hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}
