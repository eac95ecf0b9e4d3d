import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressibleType, MIN_COMPRESSED_BYTES, negotiateEncoding, ResponseCompressor } from './compression.ts';

const PAGE = `<!doctype html><title>t</title>${'<p>Private LLM deployment, 私有化部署.</p>'.repeat(80)}`;
const request = (acceptEncoding?: string, extra: Record<string, string> = {}): Request =>
  new Request('http://localhost/docs/api/all', {
    headers: { ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...extra },
  });
const page = (headers: Record<string, string> = {}, body: string = PAGE, status = 200): Response =>
  new Response(body, { status, headers: { 'content-type': 'text/html; charset=utf-8', etag: '"abc"', vary: 'Accept', ...headers } });

describe('negotiateEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'], // Chromium: brotli first whatever the header's order
    ['gzip, deflate', 'gzip'], // undici's fetch over http
    ['br;q=0.5, gzip', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['identity', undefined],
    ['', undefined],
    [null, undefined],
  ] as const)('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compressibleType', () => {
  it.each([
    ['text/html; charset=utf-8', true],
    ['text/markdown; charset=utf-8', true],
    ['application/json', true],
    ['application/problem+json', true],
    ['image/svg+xml', true],
    ['image/png', false],
    ['image/webp', false],
    ['font/woff2', false],
    ['application/octet-stream', false],
    ['text/event-stream', false],
    [null, false],
  ] as const)('%s → %s', (type, expected) => {
    expect(compressibleType(type)).toBe(expected);
  });
});

describe('ResponseCompressor', () => {
  it('brotli for a browser: the body decodes to the page, Content-Length is the encoded length, ETag weak, Vary kept', async () => {
    const res = await new ResponseCompressor().encode(request('gzip, deflate, br, zstd'), page());
    const encoded = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-length')).toBe(String(encoded.length));
    expect(encoded.length).toBeLessThan(PAGE.length / 4);
    expect(brotliDecompressSync(encoded).toString()).toBe(PAGE);
    expect(res.headers.get('etag')).toBe('W/"abc"');
    expect(res.headers.get('vary')).toBe('Accept, Accept-Encoding');
  });

  it('gzip when only gzip is accepted', async () => {
    const res = await new ResponseCompressor().encode(request('gzip'), page());
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(PAGE);
  });

  it('the same body, strong ETag and Vary: Accept-Encoding to a client that accepts no encoding', async () => {
    for (const header of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const res = await new ResponseCompressor().encode(request(header), page());
      expect(res.headers.get('content-encoding'), header).toBeNull();
      expect(await res.text()).toBe(PAGE);
      expect(res.headers.get('etag')).toBe('"abc"');
      expect(res.headers.get('vary')).toBe('Accept, Accept-Encoding');
    }
  });

  it('leaves alone images, binary, event streams, tiny bodies, encoded, partial and no-transform answers', async () => {
    const png = new Uint8Array(4096).fill(7);
    const cases: Response[] = [
      new Response(png, { headers: { 'content-type': 'image/png' } }),
      new Response(png, { headers: { 'content-type': 'font/woff2' } }),
      new Response(png, { headers: { 'content-type': 'application/octet-stream' } }),
      new Response(PAGE, { headers: { 'content-type': 'text/event-stream' } }),
      page({ 'content-encoding': 'gzip' }),
      page({ 'content-range': 'bytes 0-99/5000' }, PAGE, 206),
      page({ 'cache-control': 'public, no-transform' }),
    ];
    for (const response of cases) {
      const type = response.headers.get('content-type');
      const before = new Headers(response.headers);
      const res = await new ResponseCompressor().encode(request('br, gzip'), response);
      expect(res.headers.get('content-encoding'), type!).toBe(before.get('content-encoding'));
      expect(res.headers.get('vary'), type!).toBe(before.get('vary'));
      expect(res.headers.get('etag'), type!).toBe(before.get('etag'));
    }
  });

  it('a tiny body goes as it is, with the Vary its 304 also carries', async () => {
    const tiny = 'x'.repeat(MIN_COMPRESSED_BYTES - 1);
    const res = await new ResponseCompressor().encode(request('br, gzip'), page({}, tiny));
    expect([res.headers.get('content-encoding'), res.headers.get('etag'), await res.text()]).toEqual([null, '"abc"', tiny]);
    expect(res.headers.get('vary')).toBe('Accept, Accept-Encoding');
  });

  it('a 304 to a client that accepts no encoding carries the Vary its 200 has (RFC 9110 §15.4.5)', async () => {
    const compressor = new ResponseCompressor();
    const full = await compressor.encode(request(undefined), page());
    const notModified = await compressor.encode(
      request(undefined, { 'if-none-match': '"abc"' }),
      new Response(null, { status: 304, headers: { etag: '"abc"', 'content-type': 'text/html; charset=utf-8', vary: 'Accept' } }),
    );
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe('"abc"');
    expect(notModified.headers.get('vary')).toBe(full.headers.get('vary'));
  });

  it('a 304 carries the validator of the variant the client holds', async () => {
    const compressor = new ResponseCompressor();
    const notModified = (headers: Record<string, string>) => new Response(null, { status: 304, headers: { etag: '"abc"', ...headers } });
    // A static file's 304 names its type: Vary always; the weak ETag when the client holds the encoded body.
    const held = await compressor.encode(request('br', { 'if-none-match': 'W/"abc"' }), notModified({ 'content-type': 'text/css' }));
    expect([held.status, held.headers.get('etag'), held.headers.get('vary')]).toEqual([304, 'W/"abc"', 'Accept-Encoding']);
    const identity = await compressor.encode(request('br', { 'if-none-match': '"abc"' }), notModified({ 'content-type': 'text/css' }));
    expect([identity.headers.get('etag'), identity.headers.get('vary')]).toEqual(['"abc"', 'Accept-Encoding']);
    // A function's 304 names no type: the client's If-None-Match tells.
    const fn = await compressor.encode(request('gzip', { 'if-none-match': 'W/"abc"' }), notModified({}));
    expect(fn.headers.get('etag')).toBe('W/"abc"');
    const image = await compressor.encode(request('gzip', { 'if-none-match': '"abc"' }), notModified({ 'content-type': 'image/png' }));
    expect([image.headers.get('etag'), image.headers.get('vary')]).toEqual(['"abc"', null]);
  });

  it('keeps an encoded body per path, type and ETag, and compresses again after reset', async () => {
    const compressor = new ResponseCompressor();
    const first = Buffer.from(await (await compressor.encode(request('br'), page())).arrayBuffer());
    // Same ETag, different bytes: the kept encoding answers (as a CDN answers from its cache until the deploy changes).
    const other = `${PAGE}<p>changed</p>`;
    const kept = Buffer.from(await (await compressor.encode(request('br'), page({}, other))).arrayBuffer());
    expect(kept.equals(first)).toBe(true);
    compressor.reset();
    const fresh = Buffer.from(await (await compressor.encode(request('br'), page({}, other))).arrayBuffer());
    expect(brotliDecompressSync(fresh).toString()).toBe(other);
  });
});
