/**
 * The local runtime over HTTP (node:http), hardened so that no request can bring it down:
 * llhttp's parse errors answer 400/408/431 and close; any method llhttp parses goes to the chain, so a method a path
 * does not answer (PROPFIND, QUERY, TRACE…) gets that path's 405 with `Allow`, and CONNECT a 405;
 * request-targets that are not origin-form get 400; a path with a malformed percent-escape (`/blog/%ZZ`) goes on
 * to the runtime, where the edge answers it 400 in the site's error page as it does on Netlify; request bodies
 * are buffered up to Netlify's 6 MB function limit (413 beyond); every failure is a 500, never a crash.
 *
 * The client IP is the socket's address. X-Forwarded-For counts only when the peer is a trusted
 * proxy (`TRUSTED_PROXIES`: IPs and CIDRs, comma-separated); then the client is the right-most entry
 * that is not itself a trusted proxy.
 */
import { BlockList, isIP, type Socket } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HandleOptions } from './index.ts';

/**
 * Methods the Fetch API cannot carry in a Request (its forbidden methods), so no function receives them, here or on
 * Netlify. Each goes through the chain as {@link STAND_IN_METHOD}, which no layer implements: the path answers with
 * its own 405 and `Allow`, as it does any other method it does not take (docs/http-api.md).
 */
const FETCH_FORBIDDEN_METHODS = new Set(['TRACE', 'TRACK']);
const STAND_IN_METHOD = 'X-UNSUPPORTED-METHOD';
/** CONNECT names a host, not a path of this site: it is refused with the methods of a page. */
const CONNECT_ALLOW = 'GET, HEAD, OPTIONS';
/** Netlify's buffered request limit for synchronous functions (docs.netlify.com/build/functions/configuration). */
export const MAX_REQUEST_BODY_BYTES = 6 * 1024 * 1024;
/** Node's default, stated: larger request headers get 431 from llhttp. */
const MAX_HEADER_BYTES = 16 * 1024;
const HEADERS_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 60_000;
/** Hop-by-hop headers that must not be copied from a Response to the socket. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);

interface Handler {
  handle(request: Request, options?: HandleOptions): Promise<Response>;
}

/** A set of trusted proxy addresses (IPs and CIDRs, IPv4 and IPv6). */
export class TrustedProxies {
  readonly #list = new BlockList();
  readonly size: number;

  constructor(spec: string | readonly string[] | undefined) {
    const entries = (typeof spec === 'string' ? spec.split(',') : (spec ?? [])).map((s) => s.trim()).filter(Boolean);
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : isIP(address) === 4 ? 'ipv4' : undefined;
      if (!family) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
      if (prefix === undefined) this.#list.addAddress(address, family);
      else this.#list.addSubnet(address, Number(prefix), family);
    }
    this.size = entries.length;
  }

  has(ip: string): boolean {
    const family = isIP(ip);
    return family !== 0 && this.#list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  }

  /** The client's IP: the peer, or with a trusted peer the right-most X-Forwarded-For entry that is not a trusted proxy. */
  clientIp(peer: string, forwardedFor: string | null | undefined): string {
    if (this.size === 0 || !forwardedFor || !this.has(peer)) return peer;
    const hops = forwardedFor
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      if (isIP(hop) === 0) return peer; // a malformed chain: trust nothing in it
      if (!this.has(hop)) return hop;
    }
    return hops[0] ?? peer;
  }
}

function peerAddress(socket: Socket): string {
  return (socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
}

/** Writes a complete response on a raw socket (parse errors happen before there is a ServerResponse). */
function rawReply(socket: Socket, status: number, reason: string, extraHeaders = ''): void {
  if (!socket.writable) return void socket.destroy();
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extraHeaders}connection: close\r\n\r\n${body}`,
  );
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

/** The request-target as a path, or undefined when it is not one we accept. */
export function requestPath(target: string): string | undefined {
  let pathAndQuery = target;
  // absolute-form (RFC 9112 §3.2.2: a server must accept it): keep only the path and query.
  if (/^https?:\/\//i.test(target)) {
    try {
      const url = new URL(target);
      pathAndQuery = url.pathname + url.search;
    } catch {
      return undefined;
    }
  }
  // origin-form only; '//x' would resolve to host x, '*' and authority-form are not ours.
  return /^\/(?!\/)[^\s#]*$/.test(pathAndQuery) ? pathAndQuery : undefined;
}

async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array<ArrayBuffer> | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return 'too-large';
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const NOT_YET = Symbol('not yet');
/** Resolves after pending I/O callbacks: a body chunk still missing then is really being produced. */
const afterIo = (): Promise<typeof NOT_YET> => new Promise((resolve) => setImmediate(resolve, NOT_YET));

/**
 * Writes a Response. A complete body (every answer here: a string, JSON, a file) is sent with its
 * head in one write, with Content-Length; a body still being produced streams chunk by chunk. A web
 * stream → Node stream pipeline cost more per request than the function itself (a CPU profile:
 * separate head and body writes, an AbortController and a DOMException per finished pipeline).
 */
async function send(res: ServerResponse, response: Response, method: string): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !HOP_BY_HOP.has(name)) headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  if (!response.body || method === 'HEAD') {
    await response.body?.cancel();
    res.writeHead(response.status, headers);
    return void res.end();
  }
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined)); // the client went away: stop producing
  const first = await reader.read();
  const pending = first.done ? undefined : reader.read();
  const next = pending ? await Promise.race([pending, afterIo()]) : first;
  if (next !== NOT_YET && next.done) {
    const body = first.value ?? new Uint8Array(0);
    headers['content-length'] ??= String(body.byteLength);
    res.writeHead(response.status, headers);
    return void res.end(body);
  }
  res.writeHead(response.status, headers);
  res.write(first.value);
  for (let chunk = next === NOT_YET ? await pending! : next; !chunk.done; chunk = await reader.read()) {
    if (!res.write(chunk.value)) {
      await new Promise((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
    }
    if (res.destroyed) break;
  }
  res.end();
}

async function answer(runtime: Handler, req: IncomingMessage, res: ServerResponse, origin: string, proxies: TrustedProxies): Promise<void> {
  const method = FETCH_FORBIDDEN_METHODS.has(req.method ?? '') ? STAND_IN_METHOD : (req.method ?? 'GET');
  const target = requestPath(req.url ?? '');
  if (target === undefined) return plain(res, 400, 'Bad Request: the request-target must be an absolute path', { connection: 'close' });

  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const peer = peerAddress(req.socket);
  const ip = proxies.clientIp(peer, headers.get('x-forwarded-for'));
  // Netlify's proxy sets these; a client must not choose them.
  headers.delete('x-nf-client-connection-ip');
  headers.set('x-forwarded-for', headers.has('x-forwarded-for') ? `${headers.get('x-forwarded-for')}, ${peer}` : peer);

  let body: Uint8Array<ArrayBuffer> | null = null;
  if (method !== 'GET' && method !== 'HEAD') {
    const read = await readBody(req, MAX_REQUEST_BODY_BYTES);
    if (read === 'too-large') return plain(res, 413, 'Payload Too Large', { connection: 'close' });
    body = read.length ? read : null;
  }
  const request = new Request(origin + target, { method, headers, body });
  await send(res, await runtime.handle(request, { ip }), method);
}

export interface ServeOptions {
  host?: string;
  /** Trusted proxies (npm start passes TRUSTED_PROXIES, parsed by src/core/config.ts); default none. */
  trustedProxies?: string | readonly string[];
}

/** Serves the runtime over HTTP on `port` (0 = any free port); URLs are built for http://localhost:<port>. */
export async function serve(
  runtime: Handler,
  port: number,
  hostOrOptions: string | ServeOptions = {},
): Promise<{ server: Server; url: string }> {
  const options = typeof hostOrOptions === 'string' ? { host: hostOrOptions } : hostOrOptions;
  const proxies = new TrustedProxies(options.trustedProxies);
  let origin = `http://localhost:${port}`;
  const server = createServer(
    { maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    (req, res) => {
      res.on('error', () => undefined); // a client that went away; nothing to answer
      answer(runtime, req, res, origin, proxies).catch((error: unknown) => {
        // A client that closed mid-response (load generators do at the end) is not a failure.
        if (req.socket.destroyed || (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return void res.destroy();
        console.error(`${req.method} ${req.url} failed:`, error);
        if (!res.headersSent) plain(res, 500, 'Internal Server Error');
        else res.destroy();
      });
    },
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'HPE_HEADER_OVERFLOW') return rawReply(socket, 431, 'Request Header Fields Too Large');
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return rawReply(socket, 408, 'Request Timeout');
    if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return void socket.destroy();
    rawReply(socket, 400, 'Bad Request');
  });
  // CONNECT never reaches the request listener; without a listener Node would just drop the socket.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => undefined);
    rawReply(socket, 405, 'Method Not Allowed', `allow: ${CONNECT_ALLOW}\r\n`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  origin = `http://localhost:${actualPort}`;
  return { server, url: origin };
}
