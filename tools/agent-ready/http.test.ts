/** Fetch hygiene: User-Agent, timeouts, body caps, same-origin redirects only, errors as reasons. */
import { describe, expect, it } from 'vitest';
import { FIXTURE_ORIGIN, goodRoutes, memoryFetch } from './test/good-site.ts';
import { get, MAX_BODY_BYTES, send, summary, USER_AGENT } from './http.ts';
import { runChecks } from './registry.ts';
import { BEHAVIOUR } from './rubrics/behaviour.ts';
import { scan } from './scan.ts';
import { checkRobotsTxt } from './checks/robots.ts';
import type { CheckContext } from './types.ts';

const O = FIXTURE_ORIGIN;
const ctxWith = (fetch: typeof globalThis.fetch, extra: Partial<CheckContext> = {}): CheckContext => ({ baseUrl: O, fetch, ...extra });

describe('requests', () => {
  it('every request carries the checker User-Agent, asks for no redirect following, and has a timeout signal', async () => {
    const seen: Request[] = [];
    await runChecks(ctxWith(memoryFetch(goodRoutes(O), seen)));
    expect(seen.length).toBeGreaterThan(15);
    for (const req of seen) {
      expect(req.headers.get('user-agent')).toBe(USER_AGENT);
      expect(req.redirect).toBe('manual');
      expect(req.method).toBe('GET');
    }
    expect(USER_AGENT).toMatch(/^agent-ready-check\/\d/);
  });

  it('follows same-origin redirects', async () => {
    const routes = goodRoutes(O);
    routes.set('/robots-moved.txt', routes.get('/robots.txt')!);
    routes.set('/robots.txt', () => new Response(null, { status: 301, headers: { location: '/robots-moved.txt' } }));
    expect(await checkRobotsTxt(ctxWith(memoryFetch(routes)))).toMatchObject({ status: 'pass' });
  });

  it('does not follow a redirect off the origin, and says so', async () => {
    const routes = goodRoutes(O);
    const seen: Request[] = [];
    routes.set('/robots.txt', () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/robots.txt' } }));
    const verdict = await checkRobotsTxt(ctxWith(memoryFetch(routes, seen)));
    expect(verdict).toMatchObject({
      status: 'fail',
      reason: 'GET /robots.txt: redirects off the origin to https://elsewhere.example/robots.txt (not followed)',
    });
    expect(seen.map((r) => r.url)).toEqual([`${O}/robots.txt`]);
  });

  it('stops after too many redirects', async () => {
    let n = 0;
    const res = await get(
      ctxWith(async () => new Response(null, { status: 302, headers: { location: `/hop${++n}` } })),
      '/',
    );
    expect(res.error).toBe('more than 5 redirects');
    expect(n).toBe(6);
  });

  it('gives up after the request timeout', async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    const started = Date.now();
    const verdict = await checkRobotsTxt(ctxWith(hanging, { requestTimeoutMs: 50 }));
    expect(verdict).toMatchObject({ status: 'fail', reason: 'GET /robots.txt: no answer within 50 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses bodies over the cap, streamed or declared', async () => {
    const big = `{"a": "${'#'.repeat(MAX_BODY_BYTES)}"}`;
    const streamed = await get(
      ctxWith(async () => new Response(big, { headers: { 'content-type': 'application/json' } })),
      '/big.json',
    );
    expect(streamed.error).toBe(`body larger than ${MAX_BODY_BYTES} bytes`);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => {
        pulled++;
        c.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const declared = await get(
      ctxWith(
        async () => new Response(endless, { headers: { 'content-type': 'text/plain', 'content-length': String(MAX_BODY_BYTES + 1) } }),
      ),
      '/big.txt',
    );
    expect(declared.error).toMatch(/body larger than/);
    expect(pulled).toBeLessThan(3);
  });

  it('reads robots.txt up to 500 KiB and parses that (RFC 9309 §2.5), however long the body', async () => {
    let pulled = 0;
    const head = new TextEncoder().encode('User-agent: *\nAllow: /\n');
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => {
        c.enqueue(pulled++ === 0 ? head : new TextEncoder().encode(`# ${'x'.repeat(64 * 1024)}\n`));
      },
    });
    const verdict = await checkRobotsTxt(ctxWith(async () => new Response(endless, { headers: { 'content-type': 'text/plain' } })));
    expect(verdict).toMatchObject({ status: 'pass', reason: expect.stringMatching(/^robots\.txt with 1 group\(s\) in its first 500 KiB/) });
    expect(pulled).toBeLessThan(12);
  });

  it('names the method of a request that was not a GET in its summary (a POST that timed out is no GET)', async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    const ctx = ctxWith(hanging, { requestTimeoutMs: 50 });
    const res = await send(ctx, '/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(summary(ctx, res)).toBe('POST /mcp: no answer within 50 ms');
  });

  it('reports a network error by its code, without throwing', async () => {
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      });
    };
    const results = await runChecks(ctxWith(refused));
    expect(results.find((r) => r.id === 'robotsTxt')!.reason).toBe('GET /robots.txt: ECONNREFUSED');
    expect(results.every((r) => r.status !== 'pass')).toBe(true);
  });
});

describe('the scan budget', () => {
  /** The good site, except that `slow(path)` requests get no answer until they are aborted. */
  const stalling = (slow: (path: string) => boolean): typeof fetch => {
    const site = memoryFetch(goodRoutes(O));
    return (input, init) =>
      slow(new URL(new Request(input).url).pathname)
        ? new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)))
        : site(input, init);
  };

  it('a check the deadline starved is neutral "scan budget used up", never a FAIL with a fix (a site that passes everything)', async () => {
    let sent = 0;
    const fetch = stalling(() => ++sent > 12);
    const ctx = ctxWith(fetch, { behaviour: true, deadline: Date.now() + 300 });
    const report = await scan(ctx);
    expect(report.incomplete).toMatch(/^the scan budget ran out/);
    const all = report.rubrics.flatMap((r) => r.checks);
    expect(all.filter((c) => c.status === 'fail' || c.status === 'warn').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    expect(all.filter((c) => c.reason.includes('scan budget used up')).length).toBeGreaterThan(10);
    // Behaviour was asked for: the points the budget starved are not blamed on a missing --behaviour.
    expect(report.rubrics.find((r) => r.id === 'mintlify')!.summary.headline).toMatch(/ points not evaluated: scan budget used up\)$/);
    expect(report.rubrics.find((r) => r.id === 'agentready-org')!.summary.headline).toMatch(
      /^conformance not established \([^)]*: scan budget used up\);/,
    );
  });

  it('an OAuth token request cut after it was sent is neither "→ 0" nor "holds no token"', async () => {
    const ctx = ctxWith(
      stalling((path) => path === '/oauth/token'),
      { behaviour: true, deadline: Date.now() + 300 },
    );
    const report = await scan(ctx, [BEHAVIOUR]);
    const checks = report.rubrics[0]!.checks;
    const token = checks.find((c) => c.id === 'oauth-token')!;
    expect(token).toMatchObject({ status: 'neutral', reason: expect.stringContaining('scan budget used up') });
    expect(token.evidence!.join('\n')).toMatch(/POST \/oauth\/token grant_type=client_credentials .*→ scan budget used up/);
    expect(JSON.stringify(checks)).not.toMatch(/→ 0\b|holds no token/);
  });
});
