/**
 * The export tool's gate (tokenGate): what a client gets once its hourly allowance is used up, read by the MCP SDK's
 * client at its defaults, in-process.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { FIXTURE_DEPS, FIXTURE_ORIGIN, mcpRequest } from '../../../tests/support/core-fixtures.ts';
import { edge } from '../kernel/handler.ts';
import { EXPORT_RATE_LIMIT, tokenGate } from './auth.ts';
import { handleMcp, mcpEdge, type McpDeps } from './server.ts';

/** A client holding a valid export token whose allowance is spent: the next call is allowed in 1800 s. */
const SPENT: McpDeps = {
  ...FIXTURE_DEPS,
  authorize: tokenGate({
    check: async () => ({ kind: 'valid', clientId: 'agt_spent', scopes: ['content:export'] }),
    consumeExport: async () => ({ allowed: false, retryAfterSeconds: 1800 }),
  }),
};
const call = (req: Request): Promise<Response> => edge((r: Request) => handleMcp(r, SPENT), mcpEdge(SPENT))(req);

describe('export over its hourly limit', () => {
  it('is a tool result the model reads (HTTP 200, isError, rate_limited), with Retry-After', async () => {
    const res = await call(
      mcpRequest({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'export_article_index', arguments: { limit: 5 } } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('retry-after')).toBe('1800');
    const json = await res.json();
    expect(json.id).toBe(7);
    expect(json.result.isError).toBe(true);
    expect(json.result.structuredContent).toEqual({ error: 'rate_limited', retry_after: 1800 });
    expect(json.result.content[0].text).toBe(
      `Rate limited: at most ${EXPORT_RATE_LIMIT.limit} export calls per client per hour. Retry in 1800 s.`,
    );
  });

  it('reaches an MCP SDK v1 client at its defaults as the tool error, not a transport exception', async () => {
    const client = new Client({ name: 'export-limit', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${FIXTURE_ORIGIN}/mcp`), { fetch: (input, init) => call(new Request(input, init)) }),
    );
    try {
      const result = await client.callTool({ name: 'export_article_index', arguments: { limit: 5 } });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({ error: 'rate_limited', retry_after: 1800 });
    } finally {
      await client.close();
    }
  });

  it('a call the limit could not count (contention) is told busy, not that the hour is used up (s10a)', async () => {
    const busy: McpDeps = {
      ...FIXTURE_DEPS,
      authorize: tokenGate({
        check: async () => ({ kind: 'valid', clientId: 'agt_busy', scopes: ['content:export'] }),
        consumeExport: async () => ({ allowed: false, retryAfterSeconds: 1, contended: true }),
      }),
    };
    const res = await edge(
      (r: Request) => handleMcp(r, busy),
      mcpEdge(busy),
    )(mcpRequest({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'export_article_index', arguments: { limit: 5 } } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('retry-after')).toBe('1');
    const json = await res.json();
    expect(json.result.structuredContent).toEqual({ error: 'rate_limited', retry_after: 1 });
    expect(json.result.content[0].text).toBe(
      'Rate limited: too many export calls counted at the same moment (busy; none of the allowance was used). Retry in 1 s.',
    );
  });
});
