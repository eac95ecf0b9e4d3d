/** Public documents: one body served (behind the edge's CORS) with a cache lifetime, a strong ETag and 304s. */
import { describe, expect, it } from 'vitest';
import { noneMatch, PUBLIC_DOCUMENT_EDGE, publicDocument, serveDocument, strongEtag, withValidators } from './document.ts';
import { edge } from './handler.ts';

const URL_ = 'https://site.example/.well-known/doc';
const request = (method = 'GET', headers: Record<string, string> = {}) => new Request(URL_, { method, headers });
const refuse = () => Response.json({ error: 'no' }, { status: 405, headers: { allow: 'GET, HEAD, OPTIONS' } });

describe('strongEtag and noneMatch (RFC 9110 §13.1.2)', () => {
  it('a strong ETag is the first 128 bits of the SHA-256, base64url, quoted', async () => {
    // SHA-256("abc") = ba7816bf8f01cfea414140de5dae2223…
    expect(await strongEtag('abc')).toBe('"ungWv48Bz-pBQUDeXa4iIw"');
  });

  it.each([
    [null, false],
    ['*', true],
    [' * ', true],
    ['"x"', true],
    ['W/"x"', true],
    ['"y", "x"', true],
    ['"y",W/"x"', true],
    ['"y"', false],
    ['x', false],
    ['', false],
  ])('If-None-Match %j against "x": %s', (header, match) => {
    expect(noneMatch(header, '"x"')).toBe(match);
    expect(noneMatch(header, 'W/"x"')).toBe(match);
  });
});

describe('serveDocument', () => {
  const doc = () => publicDocument('{"a":1}', 'application/json', { link: '</x>; rel="y"' });
  const serve = edge(
    async (req: Request) => serveDocument(req, await doc(), { maxAgeSeconds: 60, methodNotAllowed: refuse }),
    PUBLIC_DOCUMENT_EDGE,
  );

  it('GET: the body with its type, ETag, cache lifetime, extra headers and open CORS', async () => {
    const res = await serve(request());
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"a":1}');
    expect(Object.fromEntries(res.headers)).toEqual({
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'ETag, Link',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'A2A-Version, Content-Type, If-None-Match',
      'cache-control': 'public, max-age=60',
      'content-type': 'application/json',
      etag: await strongEtag('{"a":1}'),
      link: '</x>; rel="y"',
      vary: 'Accept-Encoding',
    });
  });

  it('a 304 carries the Vary of its 200 whole, the document’s own and the CDN’s Accept-Encoding (RFC 9110 §15.4.5)', async () => {
    const negotiated = await publicDocument('{"a":1}', 'application/json', { vary: 'A2A-Version, Accept' });
    const serveIt = (headers: Record<string, string>) =>
      serveDocument(request('GET', headers), negotiated, { maxAgeSeconds: 60, methodNotAllowed: refuse });
    const full = serveIt({});
    const notModified = serveIt({ 'if-none-match': negotiated.etag });
    expect([full.status, notModified.status]).toEqual([200, 304]);
    expect(full.headers.get('vary')).toBe('A2A-Version, Accept, Accept-Encoding');
    expect(notModified.headers.get('vary')).toBe(full.headers.get('vary'));
  });

  it('a matching If-None-Match: 304 with the validators and no content type', async () => {
    const etag = await strongEtag('{"a":1}');
    const res = await serve(request('GET', { 'if-none-match': etag }));
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('content-type')).toBeNull();
    expect((await serve(request('GET', { 'if-none-match': '"other"' }))).status).toBe(200);
  });

  it('OPTIONS: a 204 preflight with Allow; other methods: the caller’s 405 with CORS', async () => {
    const pre = await serve(request('OPTIONS'));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(pre.headers.get('access-control-max-age')).toBe('86400');
    expect(pre.headers.get('access-control-allow-headers')).toBe('A2A-Version, Content-Type, If-None-Match');
    const post = await serve(request('POST'));
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ error: 'no' });
    expect(post.headers.get('access-control-allow-origin')).toBe('*');
    expect(post.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
  });

  it('a document without extra headers has none', async () => {
    const plain = await publicDocument('x', 'text/plain');
    expect(plain).toEqual({ body: 'x', contentType: 'text/plain', etag: await strongEtag('x') });
  });
});

describe('withValidators (static files through the CDN)', () => {
  const upstream = (headers: Record<string, string> = {}, status = 200) =>
    new Response('hello', { status, headers: { 'content-type': 'text/plain', 'content-length': '5', ...headers } });

  it('adds a strong ETag when the CDN sent none, and keeps the body', async () => {
    const res = await withValidators(request(), upstream());
    expect(res.headers.get('etag')).toBe(await strongEtag('hello'));
    expect(res.headers.get('content-length')).toBeNull();
    expect(await res.text()).toBe('hello');
  });

  it('keeps the CDN’s own ETag and answers 304 to it, without the body headers', async () => {
    const res = await withValidators(request('GET', { 'if-none-match': '"cdn"' }), upstream({ etag: '"cdn"', 'content-encoding': 'br' }));
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe('"cdn"');
    for (const name of ['content-length', 'content-type', 'content-encoding']) expect(res.headers.get(name), name).toBeNull();
    expect((await withValidators(request('GET', { 'if-none-match': await strongEtag('hello') }), upstream())).status).toBe(304);
  });

  it('the 304 carries the Vary of its 200 whole: what the upstream said, and the CDN’s Accept-Encoding', async () => {
    for (const vary of [undefined, 'Accept']) {
      const from = () => upstream(vary ? { vary } : {});
      const full = await withValidators(request(), from());
      const notModified = await withValidators(request('GET', { 'if-none-match': await strongEtag('hello') }), from());
      expect(notModified.status).toBe(304);
      expect(full.headers.get('vary'), vary).toBe(vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
      expect(notModified.headers.get('vary'), vary).toBe(full.headers.get('vary'));
    }
  });

  it('leaves other statuses and methods alone', async () => {
    const missing = upstream({}, 404);
    expect(await withValidators(request(), missing)).toBe(missing);
    const posted = upstream();
    expect(await withValidators(request('POST'), posted)).toBe(posted);
  });
});
