/**
 * The authorization server as a stranger on the internet would abuse it, through the HTTP runtime:
 * client metadata document URLs that make the server fetch itself (one request costing a hundred),
 * the fetcher as a port and service oracle, repeated requests that should cost one fetch, and an
 * IPv6 client walking around per-client limits with the 2^64 addresses of its /64.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../scripts/runtime/index.ts';
import { serve } from '../../scripts/runtime/index.ts';
import { CONSENT_ANSWER_RATE_LIMIT } from '../../src/core/oauth/endpoints/authorize.ts';
import { CLIENT_METADATA_FETCHER_AGENT } from '../../src/core/oauth/grants/client-metadata-document.ts';
import { answerFormPage, openFormPage } from '../support/consent.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const site = useRuntime();
let server: Server;
let base = '';
/** Requests that reached the site from its own metadata fetcher. */
let selfFetches = 0;
/** A loopback host that forwards every request to the site: another name of it, as a proxy or CNAME would give. */
let alias: Server;
let aliasBase = '';
let aliasRequests = 0;
/** A loopback port with nothing listening. */
let closedPort = 0;

beforeAll(async () => {
  const counting = {
    handle: (req: Request, options?: Parameters<LocalRuntime['handle']>[1]) => {
      if ((req.headers.get('user-agent') ?? '').includes(CLIENT_METADATA_FETCHER_AGENT)) selfFetches++;
      return site.runtime.handle(req, options);
    },
  } as unknown as LocalRuntime;
  // Behind a trusted proxy, as a deployment behind a load balancer: X-Forwarded-For names the client.
  ({ server, url: base } = await serve(counting, 0, { trustedProxies: ['127.0.0.1'] }));
  alias = createHttpServer((req, res) => {
    aliasRequests++;
    fetch(new URL(req.url ?? '/', base), { headers: { 'user-agent': req.headers['user-agent'] ?? '' }, redirect: 'manual' }).then(
      async (answer) => res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? '' }).end(await answer.text()),
      () => res.writeHead(502).end(),
    );
  });
  await new Promise<void>((resolve) => alias.listen(0, '127.0.0.1', resolve));
  aliasBase = `http://127.0.0.1:${(alias.address() as AddressInfo).port}`;
  const probe = createHttpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  server?.closeAllConnections();
  alias?.closeAllConnections();
  await Promise.all([new Promise((r) => server?.close(r)), new Promise((r) => alias?.close(r))]);
});

/**
 * `client_id` nesting the authorization endpoint at `outer` `levels` times, unencoded: the query
 * parser reads everything after `client_id=` as the value, so each level costs only its own length
 * (about 120 levels fit the 8 KB query limit).
 */
function nested(outer: string, levels: number, bottom: string): string {
  let id = bottom;
  for (let i = 0; i < levels; i++) id = `${outer}/oauth/authorize?client_id=${id}`;
  return id;
}

const authorize = (clientId: string) => fetch(`${base}/oauth/authorize?response_type=code&client_id=${clientId}`, { redirect: 'manual' });

describe('client metadata documents that point at the server', () => {
  it('a client_id nesting the authorization endpoint of this site is refused without a single fetch', async () => {
    const before = selfFetches;
    for (const outer of [base, base.replace('localhost', '127.0.0.1')]) {
      const clientId = nested(outer, 100, `${outer}/never-answers`);
      expect(clientId.length).toBeGreaterThan(4000);
      const answer = await authorize(clientId);
      expect(answer.status).toBe(400);
      expect(await answer.text()).toContain('must not point at this site itself');
    }
    expect(selfFetches - before).toBe(0);
  });

  it('through another name of the site, a nested client_id costs one fetch, not one per level', async () => {
    const before = selfFetches;
    aliasRequests = 0;
    const answer = await authorize(nested(aliasBase, 100, `${aliasBase}/never-answers`));
    expect(answer.status).toBe(400);
    expect(aliasRequests).toBe(1);
    expect(selfFetches - before).toBe(1);
  });

  it('/oauth/token and /oauth/revoke refuse a client_id on this site without fetching', async () => {
    const before = selfFetches;
    for (const path of ['/oauth/token', '/oauth/revoke']) {
      const answer = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', token: 'x', client_id: nested(base, 5, `${base}/x`) }),
      });
      expect(answer.status).toBe(401);
      expect(((await answer.json()) as { error_description: string }).error_description).toContain('this site itself');
    }
    expect(selfFetches - before).toBe(0);
  });
});

describe('a loopback site reaches loopback only for clients on its own machine', () => {
  it('a client elsewhere (even with the local site exposed) cannot make it connect to loopback, by http or https', async () => {
    const connections: string[] = [];
    const listener = createNetServer((socket) => {
      connections.push('connected');
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as AddressInfo).port;
    try {
      for (const clientId of [`http://127.0.0.1:${port}/json`, `https://127.0.0.1:${port}/c`, `https://[::ffff:7f00:1]:${port}/c`]) {
        const answer = await fetch(`${base}/oauth/authorize?response_type=code&client_id=${encodeURIComponent(clientId)}`, {
          headers: { 'x-forwarded-for': '198.51.100.81' },
        });
        expect(answer.status).toBe(400);
      }
      expect(connections).toEqual([]);
      // The same document from this machine is fetched (local development with a local MCP client).
      await fetch(`${base}/oauth/authorize?response_type=code&client_id=${encodeURIComponent(`https://127.0.0.1:${port}/c`)}`);
      expect(connections).toEqual(['connected']);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});

describe('the fetcher answers no questions about other hosts', () => {
  const token = (clientId: string) =>
    fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, code: 'x', code_verifier: 'v'.repeat(43) }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error: string; error_description: string } }));

  it('a closed port, a port speaking another protocol and a 404 all read "could not be fetched"', async () => {
    const answers = [
      await token(`http://127.0.0.1:${closedPort}/x`),
      await token(`https://127.0.0.1:${new URL(aliasBase).port}/x`),
      await token(`${aliasBase}/missing.json`),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.error).toBe('invalid_client');
      expect(answer.body.error_description).toMatch(/cannot be used: it could not be fetched \(reference [0-9a-f-]{36}\)\.$/);
      expect(answer.body.error_description).not.toMatch(/ECONNREFUSED|version number|SSL|HTTP 404|EPROTO/i);
    }
  });

  it('17 identical requests make one fetch: failures are cached', async () => {
    aliasRequests = 0;
    const descriptions = new Set<string>();
    for (let i = 0; i < 17; i++) descriptions.add((await token(`${aliasBase}/gone.json`)).body.error_description);
    expect(aliasRequests).toBe(1);
    expect(descriptions.size).toBe(1);
  });
});

describe('limits per client network: an IPv6 client is its /64', () => {
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  const register = (ip: string) =>
    fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from(ip) },
      body: JSON.stringify({ client_name: 'walker', grant_types: ['client_credentials'] }),
    });

  it('registration: twenty addresses of one /64 share one hourly budget; another /64 has its own', async () => {
    for (let i = 1; i <= 20; i++) expect((await register(`2001:db8:aaaa:1::${i.toString(16)}`)).status).toBe(201);
    const refused = await register('2001:db8:aaaa:1:ffff:ffff:ffff:fffe');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error_description: string }).error_description).toContain('IPv6 /64');
    expect((await register('2001:db8:aaaa:2::1')).status).toBe(201);
  });

  it('contact: one enquiry a minute per /64, whichever of its addresses sends it', async () => {
    const post = (ip: string) =>
      fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...from(ip) },
        body: JSON.stringify({ name: 'Li Wei', email: 'li.wei@example.com', message: 'Pricing for the gateway, please.' }),
      });
    expect((await post('2001:db8:bbbb:7::1')).status).toBe(200);
    const second = await post('2001:db8:bbbb:7:1234:5678:9abc:def0');
    expect(second.status).toBe(429);
    expect(second.headers.get('content-type')).toContain('application/problem+json');
    expect((await post('2001:db8:bbbb:8::1')).status).toBe(200);
    // An IPv4 client is its own address.
    expect((await post('203.0.113.10')).status).toBe(200);
    expect((await post('203.0.113.11')).status).toBe(200);
  });
});

describe('what one network can make the site store', () => {
  it('consent answers: a script approving in a loop is stopped after the per-network limit (429 page, Retry-After)', async () => {
    const network = { 'x-forwarded-for': '2001:db8:cccc:1::7' };
    // In process, as a browser on the site's own origin would post (the page checks Origin).
    const browser = (url: string, init: RequestInit = {}) =>
      site.runtime.handle(
        new Request(new URL(url, TEST_ORIGIN), { ...init, headers: { ...network, origin: TEST_ORIGIN, ...init.headers } }),
      );
    const registered = (await (
      await browser('/oauth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:4000/cb'], token_endpoint_auth_method: 'none' }),
      })
    ).json()) as { client_id: string };
    const authorizationUrl = `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: 'http://127.0.0.1:4000/cb',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`;
    const statuses: number[] = [];
    for (let i = 0; i <= CONSENT_ANSWER_RATE_LIMIT.limit; i++) {
      const page = await openFormPage(browser, authorizationUrl);
      const answer = await answerFormPage(browser, page, 'approve');
      statuses.push(answer.status);
      if (answer.status === 429) expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(statuses.slice(0, -1)).toEqual(Array(CONSENT_ANSWER_RATE_LIMIT.limit).fill(303));
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('deeply nested JSON is a 4xx on every JSON endpoint, never a 500', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const a2aMessage = {
    jsonrpc: '2.0',
    id: 1,
    method: 'SendMessage',
    params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }, metadata: { x: JSON.parse(deep(60)) } },
  };
  const bodies: [string, string, Record<string, string>, (depth: number) => string][] = [
    ['/api/contact', 'application/json', {}, (d) => `{"name":"a","email":"a@example.com","message":"hello there","x":${deep(d)}}`],
    ['/oauth/register', 'application/json', {}, (d) => `{"client_name":"a","x":${deep(d)}}`],
    // The claim endpoint takes at most 4 KB: 300 levels fit.
    ['/oauth/claim', 'application/json', {}, (d) => `{"claim_token":"clm_x","x":${deep(Math.min(d, 300))}}`],
    [
      '/mcp',
      'application/json',
      { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      (d) => `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${deep(d)}}}`,
    ],
    [
      '/a2a',
      'application/json',
      { 'a2a-version': '1.0' },
      (d) => JSON.stringify(a2aMessage).replace('"metadata":{', `"metadata":{"deep":${deep(d)},`),
    ],
  ];

  it.each(bodies)('%s: thousands of levels answer 4xx with a body that says why', async (path, type, headers, body) => {
    const answer = await site.fetchPath(path, { method: 'POST', headers: { 'content-type': type, ...headers }, body: body(4000) });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(await answer.text()).toMatch(/more than 64 levels deep/);
  });
});
