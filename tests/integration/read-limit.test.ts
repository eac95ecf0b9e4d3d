/**
 * The read limit through the HTTP runtime: each public read endpoint answers a network past its
 * allowance with 429, Retry-After and its family's error, and other networks are unaffected.
 * READ_LIMIT_PER_SECOND=1 (60 at once) keeps the test short; the default is 2 (120 at once).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useRuntime } from '../support/runtime.ts';

beforeAll(() => {
  process.env.READ_LIMIT_PER_SECOND = '1';
});
const site = useRuntime();
const BURST = 60;

const search = (ip: string) => site.fetchPath('/api/search?q=gateway', { headers: { 'x-forwarded-for': ip } });
const rpc = (path: string, ip: string, body: unknown) =>
  site.fetchPath(path, {
    method: 'POST',
    headers: {
      'x-forwarded-for': ip,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'a2a-version': '1.0',
    },
    body: JSON.stringify(body),
  });

describe('read limits per network', () => {
  it('GET /api/search: a minute of requests at once, then a 429 problem saying when and how to get more', async () => {
    for (let i = 0; i < BURST; i++) expect((await search('198.51.100.10')).status).toBe(200);
    const refused = await search('198.51.100.10');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const problem = await refused.json();
    expect(problem).toMatchObject({ status: 429, title: 'Too Many Requests', instance: '/api/search' });
    expect(problem.detail).toContain('Web Bot Auth');
    expect(problem.detail).toContain('/auth.md#read-limits');
    // Other networks are not affected.
    expect((await search('2001:db8:1:2::1')).status).toBe(200);
    expect((await search('198.51.100.11')).status).toBe(200);
  });

  it.each([
    ['/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }],
    ['/a2a', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'none' } }],
  ])('POST %s: past the allowance a 429 JSON-RPC error echoing the request’s id', async (path, body) => {
    for (let i = 0; i < BURST; i++) expect((await rpc(path, '198.51.100.20', body)).status).not.toBe(429);
    const refused = await rpc(path, '198.51.100.20', body);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const envelope = await refused.json();
    expect(envelope).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32029, data: { retry_after: expect.any(Number) } } });
    expect(envelope.error.message).toContain('/auth.md#read-limits');
    expect((await rpc(path, '198.51.100.21', body)).status).not.toBe(429);
  });
});

describe('requests the endpoint refuses anyway', () => {
  it('POST /mcp from a browser on a foreign origin: 403 every time, and none of it spends the network allowance', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const headers = {
      'x-forwarded-for': '198.51.100.30',
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    for (let i = 0; i < BURST + 5; i++) {
      const foreign = await site.fetchPath('/mcp', { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body });
      expect(foreign.status).toBe(403);
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect((await site.fetchPath('/mcp', { method: 'POST', headers, body })).status).toBe(200);
  });
});
