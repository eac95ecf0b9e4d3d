/**
 * HTTP semantics through the real runtime (and over a socket, as `npm start` serves): HEAD equals
 * GET without the body, text is compressed as the CDN compresses it, writes to static files are 405,
 * markdown clients get a markdown 404, every route family carries the security headers, and the
 * contact form refuses cross-site posts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request, type Server } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, serve } from '../../scripts/runtime/index.ts';
import { DATA_CONTENT_SECURITY_POLICY, SECURITY_HEADERS, SITE_CONTENT_SECURITY_POLICY } from '../../src/core/kernel/security-headers.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
const TWIN = '/blog/building-reliable-ai-agents.md';

/** Headers that differ between any two answers (time, per-request tickets; x-nf-* timings and ids). */
const VOLATILE = new Set(['date', 'age', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'set-cookie']);
const stable = (res: Response): Record<string, string> =>
  Object.fromEntries([...res.headers].filter(([name]) => !VOLATILE.has(name) && !name.startsWith('x-nf-')));

/** [path, request headers, whether the body changes between two GETs (a latency figure)]. */
const HEAD_CASES: [path: string, headers: Record<string, string>, dynamic?: boolean][] = [
  ['/products', {}],
  ['/', { accept: 'text/html' }],
  [TWIN, {}],
  ['/products', { accept: 'text/markdown' }],
  ['/products', { accept: 'application/json' }],
  ['/llms.txt', {}],
  ['/robots.txt', {}],
  ['/sitemap.xml', {}],
  ['/favicon.svg', {}],
  ['/.well-known/api-catalog', {}],
  ['/.well-known/mcp/server-card.json', {}],
  ['/.well-known/oauth-authorization-server', {}],
  ['/oauth/jwks.json', {}],
  ['/api/search?q=x', {}],
  ['/api/nope', {}],
  ['/mcp', {}],
  ['/health', {}, true],
  ['/no-such-page', {}],
  ['/no-such-page', { accept: 'text/markdown' }],
  ['/blog/no-such-article.md', {}],
];

describe('HEAD answers with the headers of GET (RFC 9110 §9.3.2)', () => {
  it.each(HEAD_CASES)('%s %j', async (path, headers, dynamic) => {
    const get = await site.fetchPath(path, { headers });
    const getLength = (await get.arrayBuffer()).byteLength;
    const head = await site.fetchPath(path, { method: 'HEAD', headers });
    expect(head.status).toBe(get.status);
    expect(stable(head)).toEqual(stable(get));
    expect(await head.text()).toBe('');
    const length = Number(head.headers.get('content-length'));
    if (dynamic) expect(Math.abs(length - getLength)).toBeLessThanOrEqual(4);
    else expect(length).toBe(getLength);
    expect(length).toBeGreaterThan(0);
  });
});

/** A request with exactly these headers, and the bytes as they came (fetch would add Accept-Encoding and decode). */
function rawGet(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('over HTTP, as npm start serves', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    ({ server, url: base } = await serve(site.runtime, 0));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it.each<[string, Record<string, string>]>([
    ['/products', {}],
    [TWIN, {}],
    ['/products', { accept: 'text/markdown' }],
    ['/llms.txt', {}],
    ['/.well-known/api-catalog', {}],
    ['/api/search?q=x', {}],
    ['/no-such-page', { accept: 'text/markdown' }],
  ])('HEAD %s %j: Content-Length of the GET body, no body (identity and encoded)', async (path, headers) => {
    // fetch asks for gzip unless told otherwise and decodes what comes: the identity body's length is compared here.
    const identity = { ...headers, 'accept-encoding': 'identity' };
    const get = await fetch(base + path, { headers: identity });
    const getLength = (await get.arrayBuffer()).byteLength;
    const head = await fetch(base + path, { method: 'HEAD', headers: identity });
    expect(head.status).toBe(get.status);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(getLength));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    // Encoded, HEAD names the same encoding and the encoded body's length.
    const encoded = await rawGet(base + path, { ...headers, 'accept-encoding': 'br' });
    const encodedHead = await rawGet(base + path, { ...headers, 'accept-encoding': 'br' }, 'HEAD');
    expect(encodedHead.headers['content-encoding']).toBe(encoded.headers['content-encoding']);
    expect(encodedHead.headers['content-length']).toBe(String(encoded.body.length));
    expect(encodedHead.body.length).toBe(0);
  });

  it('compresses text as the CDN does (brotli, else gzip, per Accept-Encoding) and leaves images alone', async () => {
    const pagePath = '/docs/api/all';
    const plain = await rawGet(base + pagePath, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/\bAccept-Encoding\b/);
    const etag = plain.headers.etag!;
    expect(etag).toMatch(/^"/);
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
    ] as const) {
      const res = await rawGet(base + pagePath, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe(encoding);
      expect(res.headers['content-length']).toBe(String(res.body.length));
      expect(res.body.length).toBeLessThan(plain.body.length / 5);
      expect(decode(res.body).equals(plain.body), accept).toBe(true);
      expect(res.headers.etag).toBe(`W/${etag}`);
      expect(res.headers.vary).toBe(plain.headers.vary);
    }
    // A function's JSON is compressed too; a static file revalidates with the encoded variant's weak ETag.
    const openapi = await rawGet(`${base}/openapi.json`, { 'accept-encoding': 'gzip' });
    expect(openapi.headers['content-encoding']).toBe('gzip');
    const css = `/_astro/${readdirSync(path.join(ROOT, 'dist/_astro')).find((f) => f.endsWith('.css'))}`;
    const first = await rawGet(base + css, { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    const again = await rawGet(base + css, { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
    expect([again.status, again.headers.etag, again.body.length]).toEqual([304, first.headers.etag, 0]);
    // A 304 carries the Vary of its 200, whatever the client accepts (RFC 9110 §15.4.5).
    const identityAgain = await rawGet(base + css, { 'if-none-match': first.headers.etag!.replace(/^W\//, '') });
    expect([identityAgain.status, identityAgain.headers.vary, again.headers.vary]).toEqual([304, first.headers.vary, first.headers.vary]);
    // Images go as they are, without Vary; a tiny text body (the SVG favicon) goes as it is, with the Vary of its type.
    for (const [image, vary] of [
      ['/icons/icon-512.png', undefined],
      ['/apple-touch-icon.png', undefined],
      ['/favicon.svg', 'Accept-Encoding'],
    ] as const) {
      const res = await rawGet(base + image, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      expect(res.status, image).toBe(200);
      expect(res.headers['content-encoding'], image).toBeUndefined();
      expect(res.headers.vary, image).toBe(vary);
      expect(res.headers['content-length'], image).toBe(String(res.body.length));
    }
  });

  it('requests carry the port actually bound when started on port 0 (a same-origin form post passes the CSRF check)', async () => {
    const form = new URLSearchParams({ name: 'Li Wei', email: 'li.wei@example.com', message: 'Over HTTP.' }).toString();
    const res = await fetch(`${base}/api/contact`, {
      method: 'POST',
      redirect: 'manual',
      body: form,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: base, 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status).toBe(303);
  });
});

describe('static files and pages only read', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s on a page, a twin, a file -> 405 with Allow', async (method) => {
    for (const path of ['/products', TWIN, '/llms.txt', '/robots.txt', '/favicon.svg', '/contact']) {
      const res = await site.fetchPath(path, {
        method,
        ...(method === 'DELETE' ? {} : { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it('OPTIONS on a page lists the methods', async () => {
    const res = await site.fetchPath('/products', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('OPTIONS on a static discovery document is a CORS preflight that allows If-None-Match', async () => {
    const res = await site.fetchPath('/llms.txt', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://agent.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/If-None-Match/i);
  });

  it('POST still reaches the functions', async () => {
    const mcp = await site.fetchPath('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    const register = await site.fetchPath('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.18.9.1' },
      body: '{}',
    });
    expect(register.status).not.toBe(405);
    expect(register.headers.get('content-type')).toMatch(/json/);
  });
});

describe('404 in markdown for markdown clients', () => {
  it.each<[string, Record<string, string>]>([
    ['/no-such-page', { accept: 'text/markdown' }],
    ['/blog/no-such-article', { accept: 'text/markdown, text/plain, */*' }],
    ['/blog/no-such-article.md', {}],
    ['/blog/no-such-article.md', { accept: 'text/markdown' }],
  ])('%s %j', async (path, headers) => {
    const res = await site.fetchPath(path, { headers });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    const body = await res.text();
    expect(body).toMatch(/^# Not found/);
    expect(body).toContain('/llms.txt)');
    expect(body).toContain('/sitemap.xml)');
  });

  it('a browser still gets the HTML 404 page', async () => {
    const res = await site.fetchPath('/blog/no-such-article.md', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

/** [route family, path, request init, expected CSP]. */
const SECURED: [family: string, path: string, init: RequestInit, csp: string | RegExp][] = [
  ['page', '/products', {}, SITE_CONTENT_SECURITY_POLICY],
  ['twin by URL', TWIN, {}, SITE_CONTENT_SECURITY_POLICY],
  ['twin by Accept', '/products', { headers: { accept: 'text/markdown' } }, SITE_CONTENT_SECURITY_POLICY],
  ['406', '/products', { headers: { accept: 'application/json' } }, DATA_CONTENT_SECURITY_POLICY],
  ['static discovery file', '/llms.txt', {}, SITE_CONTENT_SECURITY_POLICY],
  ['405 on a page', '/products', { method: 'POST', body: 'x' }, DATA_CONTENT_SECURITY_POLICY],
  ['markdown 404', '/no-such-page', { headers: { accept: 'text/markdown' } }, DATA_CONTENT_SECURITY_POLICY],
  ['/api/search', '/api/search?q=agents', {}, DATA_CONTENT_SECURITY_POLICY],
  ['/api/* 404 problem', '/api/nope', {}, DATA_CONTENT_SECURITY_POLICY],
  ['/api/contact 405', '/api/contact', {}, DATA_CONTENT_SECURITY_POLICY],
  ['/health', '/health', {}, DATA_CONTENT_SECURITY_POLICY],
  [
    '/mcp',
    '/mcp',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    },
    DATA_CONTENT_SECURITY_POLICY,
  ],
  ['/mcp server card', '/mcp/server-card', {}, DATA_CONTENT_SECURITY_POLICY],
  [
    '/oauth/* JSON',
    '/oauth/token',
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=nope' },
    DATA_CONTENT_SECURITY_POLICY,
  ],
  ['/oauth/jwks.json', '/oauth/jwks.json', {}, DATA_CONTENT_SECURITY_POLICY],
  [
    '/oauth/authorize HTML',
    '/oauth/authorize',
    {},
    /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
  ],
  [
    '/ops/ HTML',
    '/ops/',
    {},
    /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
  ],
  ['/.well-known/ function', '/.well-known/api-catalog', {}, DATA_CONTENT_SECURITY_POLICY],
  ['/.well-known/ OAuth metadata', '/.well-known/oauth-authorization-server', {}, DATA_CONTENT_SECURITY_POLICY],
  ['/.well-known/ skills 404', '/.well-known/agent-skills/nope', {}, DATA_CONTENT_SECURITY_POLICY],
];

describe('security headers on every route family', () => {
  it('every HTTP function answers through httpHandler (scheduled ones answer no request)', () => {
    const dir = path.resolve(import.meta.dirname, '../../netlify/functions');
    const unwrapped = readdirSync(dir)
      .filter((name) => name.endsWith('.mts'))
      .filter((name) => {
        const source = readFileSync(path.join(dir, name), 'utf8');
        return !/\bschedule:/.test(source) && !/^export default httpHandler\(/m.test(source);
      });
    expect(unwrapped).toEqual([]);
  });

  it.each(SECURED)('%s', async (_family, path, init, csp) => {
    const res = await site.fetchPath(path, init);
    await res.arrayBuffer();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      // Pages that must not leak their URL (OAuth parameters, the operator's page) send a stricter Referrer-Policy:
      // the OAuth pages same-origin, so their own form posts carry their Origin (kernel/html.ts).
      if (name === 'referrer-policy' && path.startsWith('/oauth/authorize')) expect(res.headers.get(name)).toBe('same-origin');
      else if (name === 'referrer-policy' && path.startsWith('/ops/')) expect(res.headers.get(name)).toBe('no-referrer');
      else expect(res.headers.get(name), name).toBe(value);
    }
    if (typeof csp === 'string') expect(res.headers.get('content-security-policy')).toBe(csp);
    else expect(res.headers.get('content-security-policy')).toMatch(csp);
  });
});

describe('the contact form', () => {
  let ip = 0;
  const post = (body: string, headers: Record<string, string>) =>
    site.fetchPath('/api/contact', { method: 'POST', body, headers: { 'x-forwarded-for': `198.18.77.${++ip}`, ...headers } });
  const valid = { name: 'Li Wei', email: 'li.wei@example.com', company: 'Example Bank', message: 'Framing test.' };
  const browserForm = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  it('its no-JavaScript error page, with the posted values in it, cannot be framed', async () => {
    const res = await post(new URLSearchParams({ name: 'Mallory', email: 'nope' }).toString(), {
      ...browserForm,
      origin: TEST_ORIGIN,
      'sec-fetch-site': 'same-origin',
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('value="Mallory"');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toBe(SITE_CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each<[string, Record<string, string>]>([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Origin: null from another site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
  ])('refuses a cross-site form post (%s) with 403', async (_name, headers) => {
    const res = await post(new URLSearchParams(valid).toString(), { ...browserForm, ...headers });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect((await res.json()).detail).toMatch(/only be sent from this site/);
  });

  it('accepts a same-origin form post (303) and a JSON post from a non-browser client (200)', async () => {
    const form = await post(new URLSearchParams(valid).toString(), {
      ...browserForm,
      origin: TEST_ORIGIN,
      'sec-fetch-site': 'same-origin',
    });
    expect(form.status).toBe(303);
    const json = await post(JSON.stringify(valid), { 'content-type': 'application/json' });
    expect(json.status).toBe(200);
    expect((await json.json()).status).toBe('accepted');
  });
});
