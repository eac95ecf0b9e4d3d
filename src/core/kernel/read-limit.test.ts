import { describe, expect, it } from 'vitest';
import { httpHandler } from './handler.ts';
import { memoryStore } from './memory-store.ts';
import { Metrics, type MetricsRecord } from './metrics.ts';
import { readAdmission, readLimitDetail, ReadLimiter, readRules, RATE_LIMITED_CODE } from './read-limit.ts';

const clock = (startMs = 1_000_000) => {
  let nowMs = startMs;
  return { now: () => nowMs, advance: (ms: number) => (nowMs += ms) };
};

describe('ReadLimiter', () => {
  it('admits a burst, then refuses with the seconds until one more request fits', () => {
    const time = clock();
    const limiter = new ReadLimiter({ now: time.now });
    const rule = { burst: 3, perSecond: 0.5 };
    expect([1, 2, 3].map(() => limiter.take('a', rule).allowed)).toEqual([true, true, true]);
    expect(limiter.take('a', rule)).toEqual({ allowed: false, retryAfterSeconds: 2, remaining: 0 });
    time.advance(1000);
    // Half a token back: still refused, one second to go.
    expect(limiter.take('a', rule)).toEqual({ allowed: false, retryAfterSeconds: 1, remaining: 0 });
    time.advance(1000);
    expect(limiter.take('a', rule)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0 });
  });

  it('keeps one bucket per client and refills no further than the burst', () => {
    const time = clock();
    const limiter = new ReadLimiter({ now: time.now });
    const rule = { burst: 2, perSecond: 1 };
    limiter.take('a', rule);
    limiter.take('a', rule);
    expect(limiter.take('a', rule).allowed).toBe(false);
    expect(limiter.take('b', rule)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 1 });
    time.advance(3_600_000);
    expect(limiter.take('a', rule)).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 1 });
  });

  it('holds at most maxClients buckets, forgetting the client seen longest ago', () => {
    const limiter = new ReadLimiter({ now: clock().now, maxClients: 2 });
    const rule = { burst: 1, perSecond: 0.001 };
    limiter.take('a', rule);
    limiter.take('b', rule);
    limiter.take('a', rule); // refused, and seen last
    limiter.take('c', rule); // b is forgotten
    expect(limiter.size).toBe(2);
    expect(limiter.take('a', rule).allowed).toBe(false);
    expect(limiter.take('b', rule).allowed).toBe(true);
  });
});

describe('readRules', () => {
  it('gives a minute of requests at once and five times as much to a verified agent', () => {
    expect(readRules()).toEqual({ anonymous: { burst: 120, perSecond: 2 }, verified: { burst: 600, perSecond: 10 } });
    expect(readRules(1)).toEqual({ anonymous: { burst: 60, perSecond: 1 }, verified: { burst: 300, perSecond: 5 } });
  });
});

const MORE = 'https://site.example/auth.md#read-limits';
const network = (context: unknown) => (context as { ip: string }).ip;

describe('readAdmission', () => {
  it('refuses an anonymous network past its allowance with an RFC 9457 problem, Retry-After and how to get more', async () => {
    const admit = readAdmission({
      limiter: new ReadLimiter({ now: clock().now }),
      rules: readRules(1),
      network,
      refuseAs: 'problem',
      moreAt: MORE,
    });
    const req = new Request('https://site.example/api/search?q=x');
    for (let i = 0; i < 60; i++) expect((await admit(req, { ip: '198.51.100.1' })).refused).toBeUndefined();
    const { refused } = await admit(req, { ip: '198.51.100.1' });
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get('retry-after')).toBe('1');
    expect(refused?.headers.get('content-type')).toBe('application/problem+json');
    expect(refused?.headers.get('access-control-expose-headers')).toBe('retry-after');
    const body = await refused?.json();
    expect(body).toMatchObject({ status: 429, title: 'Too Many Requests', retry_after: 1, instance: '/api/search' });
    expect(body.detail).toBe(
      `Too many requests from your network (60 requests at once, then 1 a second). Retry after 1 s. Agents that sign their requests with Web Bot Auth get 300 at once and 5 a second: ${MORE}`,
    );
    // Another network is not affected.
    expect((await admit(req, { ip: '198.51.100.2' })).refused).toBeUndefined();
  });

  /** A JSON-RPC endpoint's admission allowing one request at once, one a second (five when verified). */
  const jsonRpcAdmission = (extra: { maxBodyBytes?: number } = {}) =>
    readAdmission({
      limiter: new ReadLimiter({ now: clock().now }),
      rules: { anonymous: { burst: 1, perSecond: 1 }, verified: { burst: 5, perSecond: 5 } },
      network,
      refuseAs: 'jsonrpc',
      moreAt: MORE,
      ...extra,
    });

  it('refuses on a JSON-RPC endpoint with a JSON-RPC error', async () => {
    const admit = jsonRpcAdmission();
    const req = new Request('https://site.example/mcp', { method: 'POST' });
    await admit(req, { ip: '198.51.100.1' });
    const { refused } = await admit(req, { ip: '198.51.100.1' });
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get('retry-after')).toBe('1');
    expect(await refused?.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: RATE_LIMITED_CODE,
        message: readLimitDetail(1, false, readRules(1), MORE)
          .replace('60 requests', '1 requests')
          .replace('300 at once and 5', '5 at once and 5'),
        data: { retry_after: 1 },
      },
    });
  });

  it("echoes a refused JSON-RPC request's id, read within the endpoint's body limit; null when it cannot be read", async () => {
    const admit = jsonRpcAdmission({ maxBodyBytes: 100 });
    const rpc = (body: string, headers: Record<string, string> = {}) =>
      new Request('https://site.example/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    await admit(rpc('{}'), { ip: '198.51.100.1' });
    const idOf = async (req: Request) => {
      const { refused } = await admit(req, { ip: '198.51.100.1' });
      expect(refused?.status).toBe(429);
      return ((await refused!.json()) as { id: unknown }).id;
    };
    expect(await idOf(rpc('{"jsonrpc":"2.0","id":7,"method":"tools/list"}'))).toBe(7);
    expect(await idOf(rpc('{"jsonrpc":"2.0","id":"a-1","method":"SendMessage","params":{}}'))).toBe('a-1');
    // The id is readable even when the request has another fault.
    expect(await idOf(rpc('{"jsonrpc":"2.0","id":8,"method":""}'))).toBe(8);
    for (const unreadable of [
      rpc('[{"jsonrpc":"2.0","id":1,"method":"ping"}]'),
      rpc('{"jsonrpc":"2.0","method":"notifications/initialized"}'),
      rpc('{"jsonrpc":"2.0","id":9,'),
      rpc(`{"jsonrpc":"2.0","id":10,"method":"ping","params":{"pad":"${'x'.repeat(100)}"}}`),
      rpc('{"jsonrpc":"2.0","id":11,"method":"ping"}', { 'content-type': 'text/plain' }),
      rpc('{"jsonrpc":"2.0","id":12,"method":"ping"}', { 'content-encoding': 'gzip' }),
    ])
      expect(await idOf(unreadable)).toBeNull();
  });

  it('gives a verified agent its directory bucket, whatever network it calls from, and names it', async () => {
    // The verifier is told the requester's network: a directory it fetches comes out of that network's share.
    const verifiedFor: string[] = [];
    const admit = readAdmission({
      limiter: new ReadLimiter({ now: clock().now }),
      rules: { anonymous: { burst: 1, perSecond: 1 }, verified: { burst: 3, perSecond: 1 } },
      network,
      verify: async (req, from) => {
        verifiedFor.push(from);
        return req.headers.has('signature') ? 'https://bot.example' : null;
      },
      refuseAs: 'problem',
      moreAt: MORE,
    });
    const signed = new Request('https://site.example/api/search', { headers: { signature: 'sig1=:x:' } });
    const results = [];
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) results.push(await admit(signed, { ip }));
    expect(results.map((r) => r.verifiedAgent)).toEqual(Array(4).fill('https://bot.example'));
    expect(verifiedFor).toEqual(['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'].map((ip) => network({ ip })));
    expect(results.map((r) => r.refused?.status)).toEqual([undefined, undefined, undefined, 429]);
    expect(await results[3]?.refused?.json()).toMatchObject({
      detail: 'Too many requests from this verified agent (3 requests at once, then 1 a second). Retry after 1 s.',
    });
  });

  it('gives one network no more verified reading than one directory, however many directories it signs for', async () => {
    const admit = readAdmission({
      limiter: new ReadLimiter({ now: clock().now }),
      rules: { anonymous: { burst: 1, perSecond: 1 }, verified: { burst: 3, perSecond: 1 } },
      network,
      verify: async (req) => req.headers.get('signature-agent'),
      refuseAs: 'problem',
      moreAt: MORE,
    });
    const signedBy = (directory: string) => new Request('https://site.example/api/search', { headers: { 'signature-agent': directory } });
    // One network, the same server spelt three ways: three requests in all, then 429.
    const directories = ['http://127.0.0.1:8945', 'http://localhost:8945', 'http://127.0.0.1:8944', 'http://localhost:8944'];
    const results = [];
    for (const directory of directories) results.push(await admit(signedBy(directory), { ip: '198.51.100.9' }));
    expect(results.map((r) => r.refused?.status)).toEqual([undefined, undefined, undefined, 429]);
    // The refusal names the network's share, not the fourth directory, which had used none of its 3 (s10a).
    expect(await results[3]?.refused?.json()).toMatchObject({
      detail:
        'Too many verified requests from your network (3 requests at once, then 1 a second, shared by every agent verified from one network). Retry after 1 s.',
    });
    // Unsigned, the network keeps its own allowance; another network keeps the directory's.
    expect((await admit(new Request('https://site.example/api/search'), { ip: '198.51.100.9' })).refused).toBeUndefined();
    expect((await admit(signedBy('http://localhost:8944'), { ip: '198.51.100.10' })).refused).toBeUndefined();
  });

  it('takes nothing for a request the endpoint refuses anyway (a browser origin it does not allow)', async () => {
    const admit = readAdmission({
      limiter: new ReadLimiter({ now: clock().now }),
      rules: { anonymous: { burst: 1, perSecond: 1 }, verified: { burst: 3, perSecond: 1 } },
      network,
      refuseAs: 'jsonrpc',
      moreAt: MORE,
      refusedAnyway: (req) => req.headers.get('origin') === 'https://evil.example',
    });
    const foreign = new Request('https://site.example/mcp', { method: 'POST', headers: { origin: 'https://evil.example' } });
    for (let i = 0; i < 5; i++) expect(await admit(foreign, { ip: '198.51.100.1' })).toEqual({});
    expect((await admit(new Request('https://site.example/mcp', { method: 'POST' }), { ip: '198.51.100.1' })).refused).toBeUndefined();
  });

  it('treats a verifier that fails as an unsigned request', async () => {
    const admit = readAdmission({
      limiter: new ReadLimiter({ now: clock().now }),
      rules: readRules(),
      network,
      verify: () => Promise.reject(new Error('directory unreachable')),
      refuseAs: 'problem',
      moreAt: MORE,
    });
    expect(await admit(new Request('https://site.example/api/search'), { ip: '198.51.100.1' })).toEqual({});
  });

  it('admits everything at READ_LIMIT_PER_SECOND=0', async () => {
    const admit = readAdmission({ limiter: new ReadLimiter(), rules: readRules(0), network, refuseAs: 'problem', moreAt: MORE });
    for (let i = 0; i < 1000; i++) expect(await admit(new Request('https://site.example/api/search'), { ip: '198.51.100.1' })).toEqual({});
  });
});

describe('httpHandler with an admission', () => {
  it('sends the refusal with the security headers instead of running the handler, answers a preflight, and counts both', async () => {
    let ran = 0;
    const store = memoryStore();
    const metrics = new Metrics({ store: () => store, clock: () => 0, instanceId: 'test', flushIntervalMs: 3_600_000 });
    const handler = httpHandler(
      (_req: Request, _context: unknown) => {
        ran++;
        return new Response('ok');
      },
      {
        usage: { surface: 'api', metrics },
        admission: readAdmission({
          limiter: new ReadLimiter({ now: clock().now }),
          rules: { anonymous: { burst: 1, perSecond: 1 }, verified: { burst: 1, perSecond: 1 } },
          network,
          verify: async (req) => (req.headers.has('signature') ? 'https://bot.example' : null),
          refuseAs: 'problem',
          moreAt: MORE,
        }),
      },
    );
    const context = { ip: '198.51.100.1' };
    expect((await handler(new Request('https://site.example/api/search'), context)).status).toBe(200);
    const refused = await handler(new Request('https://site.example/api/search'), context);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    expect(ran).toBe(1);
    // A preflight is never limited.
    expect((await handler(new Request('https://site.example/api/search', { method: 'OPTIONS' }), context)).status).toBe(200);
    expect((await handler(new Request('https://site.example/api/search', { headers: { signature: 'x' } }), context)).status).toBe(200);
    await metrics.flushIfDue(true);
    const counted: Record<string, number> = {};
    for (const key of await store.list('raw/'))
      for (const [name, n] of Object.entries((await store.get<MetricsRecord>(key))?.value.counts ?? {}))
        counted[name] = (counted[name] ?? 0) + n;
    expect(counted).toMatchObject({
      'errors.api.429': 1,
      'requests.audience.verified-agent': 1,
      'requests.verified.bot.example': 1,
    });
  });
});
