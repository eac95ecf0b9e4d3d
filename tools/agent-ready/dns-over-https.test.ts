/** The DNS-over-HTTPS resolver against a fake JSON resolver on a real loopback HTTP server. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDnsAid } from './checks/dns-aid.ts';
import { dnsOverHttpsResolver } from './dns-over-https.ts';

let server: Server;
let endpoint: string;
const asked: URLSearchParams[] = [];
let answer: (params: URLSearchParams, req: IncomingMessage) => { status?: number; body: unknown } = () => ({
  body: { Status: 3, AD: true },
});

beforeAll(async () => {
  server = createServer((req, res) => {
    const params = new URL(req.url ?? '/', 'http://x').searchParams;
    asked.push(params);
    const { status = 200, body } = answer(params, req);
    res.writeHead(status, { 'content-type': 'application/dns-json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}/dns-query`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('dnsOverHttpsResolver', () => {
  it('asks name, type and do=1 with Accept: application/dns-json, keeps records of the asked type, reads AD', async () => {
    let accept: string | undefined;
    answer = (params, req) => {
      accept = req.headers.accept;
      return {
        body: {
          Status: 0,
          AD: true,
          Answer: [
            { name: `${params.get('name')}.`, type: 5, data: 'cname.example.' },
            { name: `${params.get('name')}.`, type: 65, data: '1 acme.example. alpn="h2" port=443' },
          ],
        },
      };
    };
    const answered = await dnsOverHttpsResolver(endpoint)('_index._agents.acme.example', 'HTTPS');
    expect(answered).toEqual({
      records: [{ name: '_index._agents.acme.example.', type: 'HTTPS', data: '1 acme.example. alpn="h2" port=443' }],
      dnssecValidated: true,
    });
    expect(Object.fromEntries(asked.at(-1)!)).toEqual({ name: '_index._agents.acme.example', type: 'HTTPS', do: '1' });
    expect(accept).toBe('application/dns-json');
  });

  it('NXDOMAIN is an empty answer; SERVFAIL and HTTP errors throw', async () => {
    answer = () => ({ body: { Status: 3, AD: false } });
    expect(await dnsOverHttpsResolver(endpoint)('_a2a._agents.acme.example', 'SVCB')).toEqual({ records: [], dnssecValidated: false });
    answer = () => ({ body: { Status: 2 } });
    await expect(dnsOverHttpsResolver(endpoint)('x.example', 'SVCB')).rejects.toThrow(/DNS status 2/);
    answer = () => ({ status: 503, body: {} });
    await expect(dnsOverHttpsResolver(endpoint)('x.example', 'SVCB')).rejects.toThrow(/HTTP 503/);
  });

  it('drives the dnsAid check: a validated ServiceMode record passes, an AliasMode one does not count', async () => {
    const site: typeof fetch = async () => new Response('', { status: 404 });
    answer = (params) => ({
      body: {
        Status: 0,
        AD: true,
        Answer:
          params.get('name') === '_mcp._agents.acme.example' && params.get('type') === 'HTTPS'
            ? [{ name: '_mcp._agents.acme.example.', type: 65, data: '1 acme.example. alpn="h2,h3" port=443' }]
            : [],
      },
    });
    expect(await checkDnsAid({ baseUrl: 'https://acme.example', fetch: site, resolveDns: dnsOverHttpsResolver(endpoint) })).toEqual({
      status: 'pass',
      reason: '1 DNSSEC-validated DNS-AID record(s) at _mcp._agents.acme.example',
    });
    answer = (params) => ({
      body: {
        Status: 0,
        AD: true,
        Answer: params.get('type') === 'HTTPS' ? [{ name: `${params.get('name')}.`, type: 65, data: '0 elsewhere.example.' }] : [],
      },
    });
    expect(await checkDnsAid({ baseUrl: 'https://acme.example', fetch: site, resolveDns: dnsOverHttpsResolver(endpoint) })).toMatchObject({
      status: 'neutral',
      reason: expect.stringMatching(/^no DNS-AID record/),
    });
  });
});
