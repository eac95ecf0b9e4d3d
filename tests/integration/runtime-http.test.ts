/**
 * The local runtime's HTTP server (scripts/runtime/http.ts): malformed HTTP sent as raw bytes must be
 * answered (400/405/413/431), never crash the process, and the server must still answer after;
 * the client IP comes from the socket unless the peer is a trusted proxy (TRUSTED_PROXIES).
 */
import { connect } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, TrustedProxies } from '../../scripts/runtime/index.ts';
import { MAX_REQUEST_BODY_BYTES } from '../../scripts/runtime/http.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
let direct: { server: Server; url: string };
let behindProxy: { server: Server; url: string };

beforeAll(async () => {
  direct = await serve(site.runtime, 0, { trustedProxies: [] });
  behindProxy = await serve(site.runtime, 0, { trustedProxies: '127.0.0.0/8, ::1' });
});
afterAll(async () => {
  for (const { server } of [direct, behindProxy]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const port = (served: { url: string }): number => Number(new URL(served.url).port);

/** Sends raw bytes and returns everything the server wrote until it closed or went quiet. */
function raw(bytes: string | Buffer, options: { quietMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port(direct), '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      clearTimeout(timer);
      timer = setTimeout(finish, options.quietMs ?? 300);
    });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? finish() : reject(error),
    );
    socket.write(bytes);
  });
}

const statusOf = (response: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);

describe('malformed requests get an answer, never a crash', () => {
  const cases: [string, string, number][] = [
    ['TRACE', 'TRACE / HTTP/1.1\r\nHost: x\r\n\r\n', 405],
    ['PROPFIND (WebDAV)', 'PROPFIND / HTTP/1.1\r\nHost: x\r\n\r\n', 405],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405],
    ['an unknown method', 'BREW / HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a space in the target', 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['asterisk-form', 'GET * HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a protocol-relative target (would pick the host)', 'GET //evil.example/x HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a broken absolute-form', 'GET http://[::1 HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a bad percent escape', 'GET /% HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a truncated UTF-8 escape', 'GET /%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    [
      'Content-Length with Transfer-Encoding',
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    ['binary garbage', '\x00\x01\x02\xff\r\n\r\n', 400],
    ['a 1 MB header', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(1024 * 1024)}\r\n\r\n`, 431],
    ['POST to a static page', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n', 405],
  ];
  for (const [name, bytes, status] of cases) {
    it(`${name} → ${status}`, async () => {
      expect(statusOf(await raw(bytes))).toBe(status);
    });
  }

  it('a path that does not decode is a 400 in the site’s error page, or text for an agent, over HTTP and in-process alike', async () => {
    for (const path of ['/%', '/blog/%ZZ', '/%E0%A4%A', '/zh/blog/%ZZ']) {
      const page = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\nConnection: close\r\n\r\n`, { quietMs: 1000 });
      expect(statusOf(page), path).toBe(400);
      expect(page, path).toMatch(/\r\ncontent-type: text\/html/i);
      expect(page, path).toContain(path.startsWith('/zh/') ? '<html lang="zh-CN"' : '<html lang="en"');
      const inProcess = await site.fetchPath(path);
      expect(inProcess.status, path).toBe(400);
      expect(await inProcess.text(), path).toContain('data-not-found');
    }
    const text = await raw('GET /blog/%ZZ HTTP/1.1\r\nHost: x\r\nAccept: text/markdown\r\nConnection: close\r\n\r\n', { quietMs: 1000 });
    expect(statusOf(text)).toBe(400);
    expect(text).toMatch(/\r\ncontent-type: text\/markdown/i);
    expect(text).toContain('is not a valid URL');
    // Paths the edge does not serve: an answer from their own layer, never a 5xx.
    for (const path of ['/api/%ZZ', '/oauth/%ZZ', '/mcp/%ZZ', '/_astro/%ZZ.js', '/.well-known/%ZZ', '/pagefind/%ZZ']) {
      const status = (await site.fetchPath(path)).status;
      expect(status, path).toBeGreaterThanOrEqual(400);
      expect(status, path).toBeLessThan(500);
    }
  });

  it('an unusual method is answered as the path answers any method it does not take: 405 with its Allow', async () => {
    const headerOf = (response: string, name: string): string | undefined => new RegExp(`\r\n${name}: ([^\r]*)`, 'i').exec(response)?.[1];
    const send = (method: string, path: string) =>
      raw(`${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`, { quietMs: 1000 });
    for (const path of ['/', '/api/search?q=a', '/mcp', '/a2a', '/oauth/token', '/health', '/llms.txt']) {
      const patch = await send('PATCH', path);
      expect(statusOf(patch), path).toBe(405);
      const allow = headerOf(patch, 'allow');
      expect(allow, path).toBeTruthy();
      for (const method of ['PROPFIND', 'TRACE', 'QUERY', 'SEARCH', 'MKCOL', 'LINK']) {
        const answer = await send(method, path);
        expect(statusOf(answer), `${method} ${path}`).toBe(405);
        expect(headerOf(answer, 'allow'), `${method} ${path}`).toBe(allow);
      }
    }
    expect(headerOf(await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 'allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('an absolute-form target is served as its path (RFC 9112 §3.2.2)', async () => {
    expect(statusOf(await raw('GET http://localhost/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'))).toBe(200);
  });

  it(`a request body over ${MAX_REQUEST_BODY_BYTES} bytes → 413`, async () => {
    const res = await fetch(`${direct.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(MAX_REQUEST_BODY_BYTES + 1),
    });
    expect(res.status).toBe(413);
  });

  it('a half-sent request does not hold up others, and the server still answers after everything above', async () => {
    const slow = connect(port(direct), '127.0.0.1');
    slow.on('error', () => undefined);
    slow.write('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    try {
      const res = await fetch(`${direct.url}/health`);
      expect(res.status).toBe(200);
      expect((await fetch(`${direct.url}/`)).status).toBe(200);
    } finally {
      slow.destroy();
    }
  });
});

describe('client IP', () => {
  it('comes from the socket; X-Forwarded-For only from a trusted proxy', () => {
    const none = new TrustedProxies(undefined);
    expect(none.clientIp('127.0.0.1', '9.9.9.9')).toBe('127.0.0.1');
    const proxies = new TrustedProxies('127.0.0.1, 10.0.0.0/8, ::1');
    expect(proxies.clientIp('127.0.0.1', '1.1.1.1, 9.9.9.9')).toBe('9.9.9.9');
    expect(proxies.clientIp('127.0.0.1', '1.1.1.1, 9.9.9.9, 10.1.2.3')).toBe('9.9.9.9');
    expect(proxies.clientIp('127.0.0.1', undefined)).toBe('127.0.0.1');
    expect(proxies.clientIp('203.0.113.5', '9.9.9.9')).toBe('203.0.113.5');
    expect(proxies.clientIp('::1', 'not-an-ip')).toBe('::1');
    expect(() => new TrustedProxies('example.com')).toThrow(/TRUSTED_PROXIES/);
  });

  const register = (base: string, forwardedFor: string): Promise<Response> =>
    fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: JSON.stringify({ grant_types: ['client_credentials'] }),
    });

  it('a spoofed X-Forwarded-For does not escape the per-IP limit (20 registrations per hour)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await register(direct.url, `198.51.100.${i}`)).status);
    expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('behind a trusted proxy the forwarded client is the key', async () => {
    // 127.0.0.1 is spent above; clients named by the trusted proxy have their own windows.
    expect((await register(behindProxy.url, '198.51.100.77')).status).toBe(201);
    expect((await register(behindProxy.url, '203.0.113.9, 198.51.100.78')).status).toBe(201);
  });
});

describe('response bodies', () => {
  it('a complete body goes out with its Content-Length; a body still being produced streams, chunk by chunk', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
    const handler = {
      async handle(request: Request): Promise<Response> {
        if (!request.url.endsWith('/stream')) return new Response('complete answer');
        return new Response(
          new ReadableStream({
            async start(controller) {
              controller.enqueue(encode('first;'));
              await gate;
              controller.enqueue(encode('second'));
              controller.close();
            },
          }),
        );
      },
    };
    const served = await serve(handler, 0, { trustedProxies: [] });
    try {
      const complete = await fetch(`${served.url}/complete`);
      expect(complete.headers.get('content-length')).toBe('15');
      expect(await complete.text()).toBe('complete answer');
      const streamed = await fetch(`${served.url}/stream`);
      expect(streamed.headers.get('content-length')).toBeNull();
      const reader = streamed.body!.getReader();
      // The first chunk arrives while the function still holds back the second.
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('first;');
      release();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
      expect(rest).toBe('second');
    } finally {
      served.server.closeAllConnections();
      await new Promise<void>((resolve) => served.server.close(() => resolve()));
    }
  });
});
