import { describe, expect, it } from 'vitest';
import { asGet, httpHandler, passThroughHandler } from './handler.ts';
import { memoryStore } from './memory-store.ts';
import { Metrics } from './metrics.ts';

describe('httpHandler', () => {
  it('runs HEAD as GET and returns the GET body for the server to drop (it keeps the length)', async () => {
    const seen: string[] = [];
    const handler = httpHandler(async (req: Request, extra: string) => {
      seen.push(`${req.method} ${new URL(req.url).search} ${req.headers.get('accept')} ${extra}`);
      return new Response(req.method === 'HEAD' ? null : 'héllo', { headers: { 'content-type': 'text/plain' } });
    });
    const res = await handler(new Request('https://site.example/x?q=1', { method: 'HEAD', headers: { accept: 'text/plain' } }), 'ctx');
    expect(seen).toEqual(['GET ?q=1 text/plain ctx']);
    expect(await res.text()).toBe('héllo');
  });

  it('adds the security headers to every answer, and leaves other methods alone', async () => {
    const handler = httpHandler((req: Request) => new Response(req.method, { status: 405 }));
    const res = await handler(new Request('https://site.example/', { method: 'POST', body: 'x' }));
    expect(await res.text()).toBe('POST');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('asGet keeps GET and POST requests as they are', () => {
    const get = new Request('https://site.example/');
    expect(asGet(get)).toBe(get);
  });
});

describe('passThroughHandler (the edge function)', () => {
  it('adds the security headers to an answer, hands a request on untouched, counts both and writes through waitUntil', async () => {
    const metrics = new Metrics({ store: () => memoryStore(), clock: () => 0, instanceId: 'edge', flushIntervalMs: 0 });
    const counted: string[] = [];
    const waited: Promise<unknown>[] = [];
    const context = { waitUntil: (p: Promise<unknown>) => waited.push(p) };
    const handler = passThroughHandler(
      async (req: Request, _context: typeof context) => (new URL(req.url).pathname === '/page' ? new Response('page') : undefined),
      {
        metrics,
        count: (m, req, res) => {
          m.count('seen');
          counted.push(`${new URL(req.url).pathname} ${res?.status ?? 'passed on'}`);
        },
      },
    );
    const page = await handler(new Request('https://site.example/page'), context);
    expect(page?.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await handler(new Request('https://site.example/logo.png'), context)).toBeUndefined();
    expect(counted).toEqual(['/page 200', '/logo.png passed on']);
    expect(waited.length).toBeGreaterThan(0);
  });
});
