/**
 * The hardened fetcher of Client ID Metadata Documents against real sockets on loopback: what it
 * fetches, and every SSRF refusal (scheme, private and metadata addresses, names that resolve to
 * them, redirects, size, time). DNS is replaced only to make a name resolve to a private address.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetchDocument } from '../../netlify/functions/_shared/client-metadata-fetch.ts';

let server: Server;
let base = '';
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === '/client.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=120' });
      res.end(JSON.stringify({ client_id: `${base}/client.json`, redirect_uris: ['http://127.0.0.1:1/cb'] }));
    } else if (req.url === '/redirect') {
      res.writeHead(302, { location: '/client.json' });
      res.end();
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(6000) });
      res.end('x'.repeat(6000));
    } else if (req.url === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 12; i++) res.write('y'.repeat(1000));
      res.end();
    } else if (req.url === '/slow') {
      // Never answers: the fetcher must give up on its own.
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('safeFetchDocument', () => {
  it('fetches a loopback document when the site itself runs on loopback, with its caching header', async () => {
    const fetched = await safeFetchDocument(`${base}/client.json`, { allowLoopback: true });
    expect(fetched.status).toBe(200);
    expect(fetched.cacheControl).toBe('max-age=120');
    expect(JSON.parse(fetched.body).client_id).toBe(`${base}/client.json`);
  });

  it('a name resolving to loopback is fetched only in that mode', async () => {
    const port = (server.address() as AddressInfo).port;
    const lookup = (_name: string, cb: (e: Error | null, a: { address: string; family: number }[]) => void) =>
      cb(null, [{ address: '127.0.0.1', family: 4 }]);
    expect((await safeFetchDocument(`http://localhost:${port}/client.json`, { allowLoopback: true, lookup })).status).toBe(200);
  });

  it.each([
    ['plain http off loopback mode', () => `${base}/client.json`, /only https/],
    ['a private IPv4 literal', () => 'https://10.0.0.1/client.json', /10\.0\.0\.1 is not public/],
    ['the cloud metadata address', () => 'https://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is not public/],
    ['an IPv4-mapped loopback', () => 'https://[::ffff:127.0.0.1]/client.json', /is not public/],
    ['a unique-local IPv6', () => 'https://[fd00:ec2::254]/client.json', /is not public/],
  ])('refuses %s before connecting', async (_name, url, why) => {
    const before = hits;
    await expect(safeFetchDocument(url(), { allowLoopback: false })).rejects.toThrow(why);
    expect(hits).toBe(before);
  });

  it.each([
    ['a private address', [{ address: '192.168.1.5', family: 4 }]],
    [
      'a public and a private address',
      [
        { address: '93.184.216.34', family: 4 },
        { address: '10.1.1.1', family: 4 },
      ],
    ],
    ['loopback, outside loopback mode', [{ address: '127.0.0.1', family: 4 }]],
  ])('refuses a name that resolves to %s', async (_name, addresses) => {
    const lookup = (_host: string, cb: (e: Error | null, a: { address: string; family: number }[]) => void) => cb(null, addresses);
    await expect(safeFetchDocument('https://intranet.example/client.json', { allowLoopback: false, lookup })).rejects.toThrow(
      /resolves to .* not public/,
    );
  });

  it('does not follow redirects', async () => {
    await expect(safeFetchDocument(`${base}/redirect`, { allowLoopback: true })).rejects.toThrow(/redirects/);
  });

  it.each(['/big', '/big-chunked'])('refuses a body over the size limit (%s)', async (pathname) => {
    await expect(safeFetchDocument(`${base}${pathname}`, { allowLoopback: true, maxBytes: 5 * 1024 })).rejects.toThrow(
      /larger than 5120 bytes/,
    );
  });

  it('gives up after its time limit', async () => {
    const started = Date.now();
    await expect(safeFetchDocument(`${base}/slow`, { allowLoopback: true, timeoutMs: 300 })).rejects.toThrow(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
