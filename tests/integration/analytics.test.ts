/**
 * Usage counts end to end in the local runtime: real requests to the functions and the edge, each
 * instance's counters written to the local Blobs server, the hourly roll-up, and the report the
 * operator reads. Nothing stored names an address or a query only one network asked.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { blobsStore } from '../../netlify/functions/_shared/blobs-store.ts';
import { usageReport } from '../../src/core/analytics/report.ts';
import { useRuntime } from '../support/runtime.ts';

/** Each instance writes after its first request, then at most once a second (the least the setting allows). */
const FLUSH_SECONDS = 1;
beforeAll(() => {
  process.env.ANALYTICS_FLUSH_SECONDS = String(FLUSH_SECONDS);
});
const site = useRuntime();

const from = (ip: string, headers: Record<string, string> = {}) => ({ headers: { 'x-forwarded-for': ip, ...headers } });
const mcp = (ip: string, body: unknown) =>
  site.fetchPath('/mcp', {
    method: 'POST',
    headers: { 'x-forwarded-for': ip, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });

describe('usage counts through the runtime', () => {
  it('counts every surface without an address, keeps a query three networks asked and drops one only one network asked', async () => {
    const today = new Date().toISOString().slice(0, 10);
    // Each function's and the edge's first request is written at once; what follows waits for the interval.
    for (const ip of ['198.51.100.1', '198.51.100.2', '2001:db8:77:1::5'])
      expect((await site.fetchPath('/api/search?q=LLM%20Gateway', from(ip))).status).toBe(200);
    expect((await site.fetchPath('/api/search?q=my%20own%20secret%20name', from('198.51.100.9'))).status).toBe(200);
    const call = await mcp('198.51.100.3', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_articles', arguments: { query: 'llm gateway' } },
    });
    expect(call.status).toBe(200);
    expect((await mcp('198.51.100.3', { jsonrpc: '2.0', id: 2, method: 'no/such/method' })).status).toBe(200);
    const twin = await site.fetchPath(
      '/blog/mcp-oauth-agent-integrations/',
      from('198.51.100.4', { accept: 'text/markdown', 'user-agent': 'claude-code/2.1.3' }),
    );
    expect(twin.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect((await site.fetchPath('/llms.txt', from('198.51.100.4', { 'user-agent': 'python-requests/2.32.3' }))).status).toBe(200);
    const registered = await site.fetchPath('/oauth/register', {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.5', 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Counting agent',
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_basic',
      }),
    });
    expect(registered.status).toBe(201);
    expect((await site.fetchPath('/oauth/register', from('198.51.100.5'))).status).toBe(405);

    // After the interval, one more request to each instance writes what it counted since.
    await sleep(FLUSH_SECONDS * 1000 + 100);
    await site.fetchPath('/api/search?q=vllm', from('198.51.100.6'));
    await mcp('198.51.100.6', { jsonrpc: '2.0', id: 3, method: 'ping' });
    await site.fetchPath(
      '/',
      from('198.51.100.6', { accept: 'text/html', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36' }),
    );
    await site.fetchPath('/oauth/register', from('198.51.100.6'));
    // The local runtime loads every function in one process (one counting instance for the functions, one for
    // the edge): after another interval, one request to each writes what the second round counted.
    await sleep(FLUSH_SECONDS * 1000 + 100);
    await site.fetchPath('/health', from('198.51.100.7'));
    await site.fetchPath('/llms-full.txt', from('198.51.100.7'));

    const analytics = blobsStore('analytics');
    // The writes run after the answers (context.waitUntil): wait for them, briefly. Three per instance.
    for (let tries = 0; tries < 50 && (await analytics.list('raw/')).length < 6; tries++) await sleep(100);
    const raw = await analytics.list('raw/');
    // Not a write per request: 17 requests, one write per instance and interval.
    expect(raw.length).toBe(6);

    expect((await site.runtime.invokeScheduled('analytics-rollup')).status).toBeLessThan(300);
    expect(await analytics.list('raw/')).toEqual([]);
    const report = await usageReport(analytics, today, today);
    expect(report.totals).toMatchObject({
      'mcp.tool.search_articles': 1,
      'mcp.method.tools/call': 1,
      'mcp.method.other': 1,
      'mcp.method.ping': 1,
      'mcp.era.legacy': 3,
      'documents.twin': 1,
      'documents.llms.txt': 1,
      'oauth.registration.dcr': 1,
      'errors.oauth.405': 2,
      'requests.audience.markdown-agent': 1,
      'requests.agent.claude': 1,
      'requests.agent.python': 1,
      'requests.audience.browser': 1,
    });
    expect(report.totals['requests.surface.api']).toBe(5);
    // Four networks asked "llm gateway" (three over the API, one through MCP); one asked the other.
    expect(report.topQueries).toContainEqual({ query: 'llm gateway', n: 4 });
    expect(report.topQueries.map((q) => q.query)).not.toContain('my own secret name');

    const stored = JSON.stringify(await Promise.all((await analytics.list()).map(async (key) => [key, (await analytics.get(key))?.value])));
    expect(stored).not.toMatch(/198\.51\.100|2001:db8|claude-code\/|python-requests/);
  });
});
