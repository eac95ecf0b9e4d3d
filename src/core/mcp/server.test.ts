/** The /mcp transport and dispatcher: every row of docs/reference/mcp-oauth.md §4.1, scenarios A5 and B1–B5. */
import { describe, expect, it } from 'vitest';
import {
  FIXTURE_DEPS,
  FIXTURE_ORIGIN,
  LEGACY_HEADERS,
  MODERN_META,
  mcpRequest,
  modernRequest,
} from '../../../tests/support/core-fixtures.ts';
import type { ParsedJson } from '../../../tests/support/parsed-json.ts';
import { edge } from '../kernel/handler.ts';
import { decodeHeaderValue, handleMcp, MAX_BODY_BYTES, mcpEdge, type McpDeps } from './server.ts';
import { SERVER_CAPABILITIES, SUPPORTED_PROTOCOL_VERSIONS } from './server-info.ts';
import { serverIdentity } from '../agent-tools/identity.ts';

const SERVER_NAME = serverIdentity(FIXTURE_DEPS.catalog.company.name).name;

/** A request to /mcp through its edge (OPTIONS and CORS are the edge's: kernel/handler.ts). */
const call = (req: Request, deps: McpDeps = FIXTURE_DEPS): Promise<Response> =>
  edge((r: Request) => handleMcp(r, deps), mcpEdge(deps))(req);

async function body(res: Response): Promise<ParsedJson> {
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

describe('transport rejections (before dispatch)', () => {
  it.each([
    ['GET', 405],
    ['DELETE', 405],
    ['PUT', 405],
  ])('%s /mcp -> %i with Allow: POST', async (method, status) => {
    const res = await call(mcpRequest(null, {}, method));
    expect(res.status).toBe(status);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await body(res)).error.code).toBe(-32600);
  });

  it.each([
    ['text/plain body', { 'content-type': 'text/plain' }, 415, null],
    ['no Content-Type', { 'content-type': '' }, 415, null],
    // The id is readable, so the 406 echoes it (JSON-RPC 2.0: null only when it cannot be read).
    ['Accept without JSON', { accept: 'text/event-stream' }, 406, 1],
    ['Accept with JSON at q=0', { accept: 'application/json;q=0, text/html' }, 406, 1],
  ])('%s: rejected with its status', async (_name, headers, status, id) => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, headers));
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect((await body(res)).id).toBe(id);
  });

  it('a 406 whose id cannot be read (a batch, not JSON, a notification, over the body limit) answers id null', async () => {
    const accept = { accept: 'text/event-stream' };
    const ping = { jsonrpc: '2.0', id: 'p', method: 'ping' };
    for (const payload of [[ping], 'not json', { jsonrpc: '2.0', method: 'ping' }, { ...ping, pad: 'x'.repeat(MAX_BODY_BYTES) }]) {
      const res = await call(mcpRequest(payload, accept));
      expect(res.status).toBe(406);
      expect((await body(res)).id).toBeNull();
    }
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 'abc', method: 'tools/list' }, accept));
    expect((await body(res)).id).toBe('abc');
  });

  it.each(['gzip', 'deflate', 'zstd'])('a body with Content-Encoding %s: 415 naming it, Accept-Encoding: identity', async (coding) => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'content-encoding': coding }));
    expect(res.status).toBe(415);
    expect(res.headers.get('accept-encoding')).toBe('identity');
    expect(await body(res)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: `Content-Encoding ${coding} is not supported: send the body without a content coding (identity).` },
    });
  });

  it.each([
    ['no Origin', {}],
    ['Content-Encoding: identity', { 'content-encoding': 'identity' }],
    ['the site origin', { origin: FIXTURE_ORIGIN }],
    ['no Accept', { accept: '' }],
    ['Accept */*', { accept: '*/*' }],
    ['Content-Type with charset', { 'content-type': 'application/json; charset=utf-8' }],
  ])('accepts %s', async (_name, headers) => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 7, method: 'ping' }, headers));
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('a public https site lets a browser on any origin call (no ambient credentials: kernel/browser-origin.ts)', async () => {
    for (const origin of ['https://agent.example', 'http://localhost:3000', 'null']) {
      const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin }));
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('vary')).toBe('Origin');
    }
    const pre = await call(mcpRequest(null, { origin: 'https://agent.example', 'access-control-request-method': 'POST' }, 'OPTIONS'));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/MCP-Protocol-Version/);
  });

  it.each([
    ['Origin of another site', 'https://evil.example'],
    ['Origin null', 'null'],
  ])('same-origin policy (or a private site): %s -> 403 with no CORS headers', async (_name, origin) => {
    for (const deps of [
      { ...FIXTURE_DEPS, browserOrigins: { kind: 'listed' as const, origins: [] } },
      { ...FIXTURE_DEPS, origin: 'https://intranet.corp' },
      { ...FIXTURE_DEPS, origin: 'https://10.1.2.3' },
      { ...FIXTURE_DEPS, origin: 'http://acme-ai.example' },
    ]) {
      const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin }), deps);
      expect(res.status, deps.origin).toBe(403);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect((await body(res)).id).toBeNull();
    }
  });

  it('allows a configured extra origin and answers it with CORS headers', async () => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'http://localhost:4321' }), {
      ...FIXTURE_DEPS,
      browserOrigins: { kind: 'listed', origins: ['http://localhost:4321'] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:4321');
    expect(res.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    // The answer names one origin, so a shared cache must key it by Origin.
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('a loopback-origin (dev/test) build accepts any loopback origin; a public build does not', async () => {
    const ping = (origin: string, deps = FIXTURE_DEPS) => call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin }), deps);
    const dev = { ...FIXTURE_DEPS, origin: 'http://localhost:8899' };
    for (const origin of ['http://localhost:4321', 'http://127.0.0.1:9000', 'http://[::1]:8080'])
      expect((await ping(origin, dev)).status).toBe(200);
    for (const origin of ['http://evil.example.com', 'http://localhost.evil.example', 'null'])
      expect((await ping(origin, dev)).status).toBe(403);
    // A loopback site keeps the DNS-rebinding guard whatever the policy says, but for '*'.
    expect((await ping('http://evil.example.com', { ...dev, browserOrigins: { kind: 'auto' } })).status).toBe(403);
    expect((await ping('http://localhost:4321', { ...FIXTURE_DEPS, browserOrigins: { kind: 'listed', origins: [] } })).status).toBe(403);
  });

  it('OPTIONS preflight from the site origin -> 204 with CORS; from elsewhere -> 403', async () => {
    const pre = await call(mcpRequest(null, { origin: FIXTURE_ORIGIN, 'access-control-request-method': 'POST' }, 'OPTIONS'));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(FIXTURE_ORIGIN);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Mcp-Method/);
    const evil = await call(mcpRequest(null, { origin: 'https://evil.example' }, 'OPTIONS'), {
      ...FIXTURE_DEPS,
      browserOrigins: { kind: 'listed', origins: [] },
    });
    expect(evil.status).toBe(403);
  });

  it('413 for a body over 1 MiB, by Content-Length or by actual size', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(MAX_BODY_BYTES) } });
    const res = await call(mcpRequest(big));
    expect(res.status).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const streamed = new Request(`${FIXTURE_ORIGIN}/mcp`, {
      method: 'POST',
      headers: LEGACY_HEADERS,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect((await call(streamed)).status).toBe(413);
  });
});

describe('JSON-RPC framing', () => {
  it.each([
    ['malformed JSON', '{bad', 400, -32700, null],
    ['invalid UTF-8 is a parse error', new Uint8Array([0x7b, 0xff, 0x7d]), 400, -32700, null],
    ['batch', JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]), 400, -32600, null],
    ['a bare string', '"ping"', 400, -32600, null],
    ['jsonrpc 1.0, id echoed', JSON.stringify({ jsonrpc: '1.0', id: 5, method: 'ping' }), 400, -32600, 5],
    ['method not a string', JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 3 }), 400, -32600, 'a'],
    ['id boolean', JSON.stringify({ jsonrpc: '2.0', id: true, method: 'ping' }), 400, -32600, null],
    ['id object', JSON.stringify({ jsonrpc: '2.0', id: {}, method: 'ping' }), 400, -32600, null],
    ['params an array', JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping', params: [] }), 400, -32600, 9],
  ])('%s: status, code and id', async (_name, raw, status, code, id) => {
    const req = new Request(`${FIXTURE_ORIGIN}/mcp`, { method: 'POST', headers: LEGACY_HEADERS, body: raw as BodyInit });
    const res = await call(req);
    expect(res.status).toBe(status);
    const json = await body(res);
    expect(json.jsonrpc).toBe('2.0');
    expect(json.error.code).toBe(code);
    expect(json.id).toBe(id);
  });

  it.each([
    ['notifications/initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['notifications/cancelled', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }],
    ['a response', { jsonrpc: '2.0', id: 1, result: {} }],
    ['an error response', { jsonrpc: '2.0', id: null, error: { code: 1, message: 'x' } }],
  ])('%s -> 202 without a body', async (_name, message) => {
    const res = await call(mcpRequest(message));
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('a request with a null id (the contract and JSON-RPC 2.0 allow it; MCP clients never send one) is answered with id null', async () => {
    const list = await call(mcpRequest({ jsonrpc: '2.0', id: null, method: 'tools/list' }));
    expect(list.status).toBe(200);
    const listed = await body(list);
    expect(listed.id).toBeNull();
    expect(listed.result.tools.length).toBeGreaterThan(0);
    const search = await call(
      mcpRequest({ jsonrpc: '2.0', id: null, method: 'tools/call', params: { name: 'search_articles', arguments: { query: 'RAG' } } }),
    );
    expect(search.status).toBe(200);
    const found = await body(search);
    expect(found).toMatchObject({ jsonrpc: '2.0', id: null, result: { structuredContent: { query: 'RAG' } } });
    expect(found.result.isError).toBeUndefined();
    // An error answer echoes it too.
    const unknown = await body(await call(mcpRequest({ jsonrpc: '2.0', id: null, method: 'no/such' })));
    expect(unknown).toMatchObject({ id: null, error: { code: -32601 } });
  });

  it('never mints Mcp-Session-Id, even when the client sends one', async () => {
    const res = await call(
      mcpRequest(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        },
        { 'mcp-session-id': 'abc' },
      ),
    );
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('answers an unexpected exception with 500 -32603 echoing the id', async () => {
    const logged: string[] = [];
    const deps: McpDeps = {
      ...FIXTURE_DEPS,
      engine: {
        search: () => {
          throw new Error('boom');
        },
      } as never,
      log: (m) => logged.push(m),
    };
    const res = await call(
      mcpRequest({ jsonrpc: '2.0', id: 'x1', method: 'tools/call', params: { name: 'search_articles', arguments: { query: 'rag' } } }),
      deps,
    );
    expect(res.status).toBe(500);
    const json = await body(res);
    expect(json).toMatchObject({ id: 'x1', error: { code: -32603 } });
    expect(json.error.message).not.toContain('boom');
    expect(logged).toHaveLength(1);
  });
});

describe('legacy era (handshake, 2025-03-26 … 2025-11-25)', () => {
  it.each([
    ['2025-11-25', '2025-11-25'],
    ['2025-06-18', '2025-06-18'],
    ['2025-03-26', '2025-03-26'],
    ['2024-11-05', '2025-11-25'],
    ['2026-07-28', '2025-11-25'],
  ])('initialize asking for %s -> %s', async (asked, answered) => {
    const res = await call(
      mcpRequest({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    expect(res.status).toBe(200);
    const { result } = await body(res);
    expect(result.protocolVersion).toBe(answered);
    expect(result.serverInfo).toEqual({ name: SERVER_NAME, title: expect.any(String), version: '9.9.9' });
    expect(result.capabilities).toEqual(SERVER_CAPABILITIES);
    expect(typeof result.instructions).toBe('string');
  });

  it.each([
    ['no version header (assume 2025-03-26)', {}, 200],
    ['2025-11-25', { 'mcp-protocol-version': '2025-11-25' }, 200],
    ['2025-06-18', { 'mcp-protocol-version': '2025-06-18' }, 200],
    ['1999-01-01', { 'mcp-protocol-version': '1999-01-01' }, 400],
    ['not a date', { 'mcp-protocol-version': 'latest' }, 400],
  ])('MCP-Protocol-Version %s', async (_name, headers, status) => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 3, method: 'ping' }, headers));
    expect(res.status).toBe(status);
    const json = await body(res);
    expect(json.id).toBe(3);
    if (status === 400) expect(json.error.data.supported).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
  });

  it.each([
    ['unknown method', 'prompts/list', {}, 200, -32601],
    ['resources/subscribe (no subscribe capability)', 'resources/subscribe', { uri: 'x' }, 200, -32601],
    ['logging/setLevel', 'logging/setLevel', { level: 'info' }, 200, -32601],
    ['tools/list with a cursor', 'tools/list', { cursor: 'abc' }, 200, -32602],
    ['tools/call without a name', 'tools/call', { arguments: {} }, 200, -32602],
    ['tools/call with array arguments', 'tools/call', { name: 'search_articles', arguments: [] }, 200, -32602],
    ['unknown tool', 'tools/call', { name: 'nope' }, 200, -32602],
  ])('%s: status and code, id echoed', async (_name, method, params, status, code) => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 'req-1', method, params }, { 'mcp-protocol-version': '2025-11-25' }));
    expect(res.status).toBe(status);
    expect(await body(res)).toMatchObject({ jsonrpc: '2.0', id: 'req-1', error: { code } });
  });

  it('needs no prior initialize: tools/list works on a cold request, twice identically', async () => {
    const list = async () => (await body(await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/list' })))).result;
    const first = await list();
    expect(first.tools.map((t: { name: string }) => t.name)).toEqual([
      'search_articles',
      'get_article',
      'list_products',
      'get_company_info',
      'export_article_index',
      'submit_feedback',
    ]);
    expect(await list()).toEqual(first);
    expect(first.resultType).toBeUndefined();
  });
});

describe('modern era (2026-07-28)', () => {
  it('server/discover -> versions, capabilities, cache hints and serverInfo', async () => {
    const res = await call(modernRequest('server/discover'));
    expect(res.status).toBe(200);
    const { result } = await body(res);
    expect(result.supportedVersions).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
    expect(result).toMatchObject({ resultType: 'complete', capabilities: { tools: {} }, cacheScope: 'public' });
    expect(result.ttlMs).toBeGreaterThanOrEqual(0);
    expect(result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: SERVER_NAME, version: '9.9.9' });
  });

  it('tools/list -> resultType, ttlMs, cacheScope', async () => {
    const { result } = await body(await call(modernRequest('tools/list')));
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
    expect(result.ttlMs).toBeGreaterThanOrEqual(0);
    expect(result.tools).toHaveLength(6);
  });

  it('tools/call -> a complete result with serverInfo', async () => {
    const res = await call(modernRequest('tools/call', { name: 'list_products', arguments: {} }));
    expect(res.status).toBe(200);
    const { result } = await body(res);
    expect(result.resultType).toBe('complete');
    expect(result.structuredContent.products.map((p: { slug: string }) => p.slug)).toEqual(['platform', 'gateway']);
    expect(result._meta['io.modelcontextprotocol/serverInfo'].name).toBe(SERVER_NAME);
  });

  it.each([
    ['missing MCP-Protocol-Version (era from _meta)', 'tools/list', {}, { 'mcp-protocol-version': '' }, 400, -32020],
    [
      'header version differs from _meta',
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-06-18' } },
      {},
      400,
      -32020,
    ],
    ['an unsupported header version', 'tools/list', {}, { 'mcp-protocol-version': '2030-01-01' }, 400, -32022],
    ['missing Mcp-Method', 'tools/list', {}, { 'mcp-method': '' }, 400, -32020],
    ['Mcp-Method differs from the body', 'tools/list', {}, { 'mcp-method': 'tools/call' }, 400, -32020],
    ['missing Mcp-Name on tools/call', 'tools/call', { name: 'list_products' }, { 'mcp-name': '' }, 400, -32020],
    ['Mcp-Name differs from params.name', 'tools/call', { name: 'list_products' }, { 'mcp-name': 'get_article' }, 400, -32020],
    [
      'missing _meta.clientCapabilities',
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/clientCapabilities': undefined } },
      {},
      400,
      -32602,
    ],
    [
      'unsupported version 2030-01-01',
      'tools/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } },
      { 'mcp-protocol-version': '2030-01-01' },
      400,
      -32022,
    ],
    ['initialize is removed', 'initialize', { protocolVersion: '2026-07-28' }, {}, 404, -32601],
    ['ping is removed', 'ping', {}, {}, 404, -32601],
    ['logging/setLevel', 'logging/setLevel', { level: 'info' }, {}, 404, -32601],
    ['resources/subscribe', 'resources/subscribe', { uri: 'x' }, {}, 404, -32601],
    ['unknown/method', 'unknown/method', {}, {}, 404, -32601],
    ['unknown tool (in-band)', 'tools/call', { name: 'nope' }, {}, 200, -32602],
    ['tools/list cursor (in-band)', 'tools/list', { cursor: 'x' }, {}, 200, -32602],
  ])('%s: status and code, id echoed', async (_name, method, params, headers, status, code) => {
    const res = await call(modernRequest(method, params, headers, 'm-7'));
    expect(res.status).toBe(status);
    const json = await body(res);
    expect(json).toMatchObject({ jsonrpc: '2.0', id: 'm-7', error: { code } });
    if (code === -32022) expect(json.error.data).toEqual({ supported: SUPPORTED_PROTOCOL_VERSIONS, requested: '2030-01-01' });
  });

  it('a modern header alone selects the modern era (missing _meta -> 400 -32602)', async () => {
    const res = await call(
      mcpRequest({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }),
    );
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it('header names are case-insensitive, values trimmed, =?base64?…?= decoded', async () => {
    const encoded = `=?base64?${btoa('list_products')}?=`;
    const req = mcpRequest(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_products', _meta: MODERN_META } },
      { 'MCP-PROTOCOL-VERSION': ' 2026-07-28 ', 'MCP-METHOD': 'tools/call', 'MCP-NAME': encoded },
    );
    expect((await call(req)).status).toBe(200);
    expect(decodeHeaderValue('=?base64?5pCc57Si?=')).toBe('搜索');
    expect(decodeHeaderValue('=?base64?###?=')).toBe('=?base64?###?=');
  });

  it('a modern notification -> 202; with a bad Mcp-Method -> 400 -32020', async () => {
    const note = (method: string) =>
      mcpRequest(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: MODERN_META } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
      );
    expect((await call(note('notifications/cancelled'))).status).toBe(202);
    expect((await call(note('tools/list'))).status).toBe(400);
  });
});

describe('clients as they ship', () => {
  /** claude.ai connectors: a 2026-07-28 body under `MCP-Protocol-Version: 2025-11-25` (anthropics/claude-code#93290). */
  const claudeAi = (method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    modernRequest(
      method,
      { ...params, _meta: { 'io.modelcontextprotocol/clientInfo': { name: 'Anthropic/ClaudeAI', version: '1.0.0' } } },
      { 'mcp-protocol-version': '2025-11-25', ...headers },
    );

  it("claude.ai's 2025-11-25 header over a 2026-07-28 body is answered in the body's revision, and logged once", async () => {
    const notes: string[] = [];
    const deps = { ...FIXTURE_DEPS, warn: (message: string) => notes.push(message) };
    const listed = await call(claudeAi('tools/list'), deps);
    expect(listed.status).toBe(200);
    const { result } = await body(listed);
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public' });
    expect(result._meta['io.modelcontextprotocol/serverInfo'].name).toBe(SERVER_NAME);
    const called = await body(await call(claudeAi('tools/call', { name: 'list_products', arguments: {} }), deps));
    expect(called.result.structuredContent.products).toHaveLength(2);
    // Without the SEP-2243 method and name headers too; a value that is sent must still match.
    expect((await call(claudeAi('tools/call', { name: 'list_products' }, { 'mcp-method': '', 'mcp-name': '' }), deps)).status).toBe(200);
    const wrongName = await call(claudeAi('tools/call', { name: 'list_products' }, { 'mcp-name': 'get_article' }), deps);
    expect(wrongName.status).toBe(400);
    expect((await body(wrongName)).error.code).toBe(-32020);
    const wrongMethod = await call(claudeAi('tools/list', {}, { 'mcp-method': 'tools/call' }), deps);
    expect((await body(wrongMethod)).error.code).toBe(-32020);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('"Anthropic/ClaudeAI" sent MCP-Protocol-Version 2025-11-25 with a 2026-07-28 body');
    expect(notes[0]).toContain('https://github.com/anthropics/claude-code/issues/93290');
  });

  it.each([
    ['a 2026-07-28 header over a 2025-11-25 body', '2026-07-28', '2025-11-25'],
    ['a 2026-07-28 header over an unknown body revision (the conformance check)', '2026-07-28', 'v999.0.0'],
    ['a 2025-11-25 header over an unknown body revision', '2025-11-25', '2030-01-01'],
    ['a header revision this server does not speak over a 2026-07-28 body', '2024-11-05', '2026-07-28'],
    // Older handshake-era headers: no client that speaks 2026-07-28 sends them (claude.ai's SDK defaults to 2025-11-25).
    ['a 2025-06-18 header over a 2026-07-28 body', '2025-06-18', '2026-07-28'],
    ['a 2025-03-26 header over a 2026-07-28 body', '2025-03-26', '2026-07-28'],
  ])('every other disagreement stays a header mismatch: %s', async (_name, header, meta) => {
    const res = await call(
      modernRequest('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': meta } }, { 'mcp-protocol-version': header }),
    );
    expect(res.status).toBe(400);
    expect((await body(res)).error.code).toBe(-32020);
  });

  it("Claude Code's first request, server/discover as the 2026-07-28 client sends it, answers; a handshake-era probe gets -32601 and initialize works", async () => {
    const discovered = await call(
      mcpRequest(
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'server/discover',
          params: { _meta: { ...MODERN_META, 'io.modelcontextprotocol/clientInfo': { name: 'claude-code', version: '2.1.260' } } },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      ),
    );
    expect(discovered.status).toBe(200);
    expect((await body(discovered)).result.supportedVersions[0]).toBe('2026-07-28');
    const probe = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'server/discover' }, { 'mcp-protocol-version': '2025-11-25' }));
    expect((await body(probe)).error.code).toBe(-32601);
    const initialized = await call(
      mcpRequest({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'claude-code', version: '2.1.260' } },
      }),
    );
    expect((await body(initialized)).result.protocolVersion).toBe('2025-11-25');
  });
});

describe('protected tool gate', () => {
  it.each([
    [
      'legacy',
      mcpRequest({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'export_article_index', arguments: { limit: 5 } } }),
    ],
    ['modern', modernRequest('tools/call', { name: 'export_article_index', arguments: { limit: 5 } }, {}, 11)],
  ])('%s: no token -> 401, challenge with resource_metadata and scope, tool-error body', async (era, req) => {
    const res = await call(req);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${FIXTURE_ORIGIN}/.well-known/oauth-protected-resource/mcp", scope="content:export"`,
    );
    const json = await body(res);
    expect(json.id).toBe(11);
    expect(json.result.isError).toBe(true);
    expect(json.result.content[0].text).toContain('scope content:export');
    expect(json.result.structuredContent).toEqual({
      error: 'unauthorized',
      required_scope: 'content:export',
      resource_metadata: `${FIXTURE_ORIGIN}/.well-known/oauth-protected-resource/mcp`,
    });
    if (era === 'modern') expect(json.result.resultType).toBe('complete');
  });

  it('the gate is pluggable: an authorizer returning null lets the export run (paging)', async () => {
    const deps: McpDeps = { ...FIXTURE_DEPS, authorize: async () => null };
    const page = async (args: object) =>
      (
        await body(
          await call(
            mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'export_article_index', arguments: args } }),
            deps,
          ),
        )
      ).result;
    const first = await page({ limit: 3 });
    expect(first.structuredContent.total).toBe(4);
    expect(first.structuredContent.items).toHaveLength(3);
    const second = await page({ limit: 3, cursor: first.structuredContent.next_cursor });
    expect(second.structuredContent.items).toHaveLength(1);
    expect(second.structuredContent.next_cursor).toBeUndefined();
  });

  it('public tools never consult the gate', async () => {
    let asked = 0;
    const deps: McpDeps = {
      ...FIXTURE_DEPS,
      authorize: async () => {
        asked++;
        return null;
      },
    };
    await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_products' } }), deps);
    expect(asked).toBe(0);
  });
});

describe('header values (SEP-2243)', () => {
  it.each([
    [null, null],
    [' tools/list ', 'tools/list'],
    [`=?base64?${btoa('list_products')}?=`, 'list_products'],
    [` =?BASE64?${btoa('x')}?= `, 'x'],
    // Only a value that is wholly one encoded word is decoded.
    [`a=?base64?${btoa('x')}?=`, `a=?base64?${btoa('x')}?=`],
    [`=?base64?${btoa('x')}?=a`, `=?base64?${btoa('x')}?=a`],
    // Undecodable: base64 that is not, and bytes that are not UTF-8.
    ['=?base64?a?=', null],
    ['=?base64?/w==?=', null],
  ])('%j -> %j', (value, decoded) => expect(decodeHeaderValue(value)).toBe(decoded));
});

describe('Accept', () => {
  const ping = (accept: string | null) => {
    const req = mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' });
    if (accept === null) req.headers.delete('accept');
    else req.headers.set('accept', accept);
    return call(req);
  };
  it.each([
    [null, 200],
    ['text/event-stream, application/json', 200],
    ['text/html,application/json', 200],
    ['application/*', 200],
    ['APPLICATION/JSON', 200],
    ['application/json;q=0.5', 200],
    ['application/json ; q=1', 200],
    ['application/json;x-q=0', 200],
    ['application/json;q=0.000', 406],
    ['application/json; Q=0', 406],
    ['*/*;q=0', 406],
    ['text/*', 406],
    ['application/jsonx', 406],
  ])('%s -> %i', async (accept, status) => {
    const res = await ping(accept);
    expect(res.status).toBe(status);
    if (status === 406)
      expect((await body(res)).error.message).toBe(
        'Not acceptable: the response is application/json; include it (and text/event-stream) in Accept.',
      );
  });
});

describe('what each refusal says', () => {
  it('transport refusals: the exact message, the headers a client needs, CORS for an allowed origin', async () => {
    // A site that names its browser origins (AGENT_BROWSER_ORIGINS): any other origin is refused.
    const evil = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'https://evil.example' }), {
      ...FIXTURE_DEPS,
      browserOrigins: { kind: 'listed', origins: [] },
    });
    expect((await body(evil)).error).toEqual({
      code: -32600,
      message: 'Forbidden: requests from origin https://evil.example are not allowed.',
    });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();

    const get = await call(mcpRequest(null, { origin: FIXTURE_ORIGIN }, 'GET'));
    expect((await body(get)).error.message).toBe(
      'Method not allowed: this stateless MCP endpoint takes POST only (no SSE stream, no sessions).',
    );
    expect(get.headers.get('access-control-allow-origin')).toBe(FIXTURE_ORIGIN);
    expect(get.headers.get('vary')).toBe('Origin');

    const text = await call(mcpRequest('{}', { 'content-type': 'text/plain' }));
    expect(text.headers.get('accept-post')).toBe('application/json');
    expect((await body(text)).error.message).toBe('Unsupported media type: send the JSON-RPC message as Content-Type: application/json.');

    const big = await call(mcpRequest(JSON.stringify({ pad: 'x'.repeat(MAX_BODY_BYTES) })));
    expect((await body(big)).error).toEqual({ code: -32600, message: 'Content too large: the body must be at most 1048576 bytes.' });

    const notUtf8 = new Request(`${FIXTURE_ORIGIN}/mcp`, { method: 'POST', headers: LEGACY_HEADERS, body: new Uint8Array([0x7b, 0xff]) });
    expect((await body(await call(notUtf8))).error).toEqual({ code: -32700, message: 'Parse error: the body is not valid UTF-8 JSON.' });
  });

  it('a notification is answered 202 with no body and no content type', async () => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', method: 'notifications/initialized' }, { origin: FIXTURE_ORIGIN }));
    expect(res.status).toBe(202);
    expect(res.headers.get('content-type')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBe(FIXTURE_ORIGIN);
  });

  it.each([
    ['legacy: an unknown method', mcpRequest({ jsonrpc: '2.0', id: 1, method: 'prompts/list' }), -32601, 'Method not found: prompts/list.'],
    [
      'legacy: an unsupported MCP-Protocol-Version',
      mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2026-07-28x' }),
      -32600,
      'Unsupported MCP-Protocol-Version "2026-07-28x". Supported: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26.',
    ],
    [
      'legacy: tools/list with a cursor',
      mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'c' } }),
      -32602,
      'Invalid cursor: tools/list has a single page; omit cursor.',
    ],
    [
      'legacy: tools/call with array arguments',
      mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_products', arguments: [] } }),
      -32602,
      'Invalid params: tools/call needs {"name": string, "arguments"?: object}.',
    ],
    [
      'legacy: tools/call without a name',
      mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }),
      -32602,
      'Invalid params: tools/call needs {"name": string, "arguments"?: object}.',
    ],
    [
      'legacy: an unknown tool',
      mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'nope' } }),
      -32602,
      'Unknown tool: nope. Call tools/list for the available tools.',
    ],
    [
      'modern: no protocol version in _meta',
      modernRequest('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': undefined } }),
      -32602,
      'Invalid params: every request needs params._meta["io.modelcontextprotocol/protocolVersion"] and ' +
        'params._meta["io.modelcontextprotocol/clientCapabilities"].',
    ],
    [
      'modern: capabilities that are not an object',
      modernRequest('tools/list', { _meta: { 'io.modelcontextprotocol/clientCapabilities': 'all' } }),
      -32602,
      'Invalid params: every request needs params._meta["io.modelcontextprotocol/protocolVersion"] and ' +
        'params._meta["io.modelcontextprotocol/clientCapabilities"].',
    ],
    [
      'modern: an unsupported version',
      modernRequest(
        'tools/list',
        { _meta: { 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } },
        { 'mcp-protocol-version': '2030-01-01' },
      ),
      -32022,
      'Unsupported protocol version 2030-01-01.',
    ],
    ['modern: an unknown method', modernRequest('prompts/list'), -32601, 'Method not found: prompts/list (protocol 2026-07-28).'],
    [
      'modern: subscriptions/listen',
      modernRequest('subscriptions/listen'),
      -32601,
      'Method not found: subscriptions/listen (this server declares no listChanged or subscribe capability; its lists are fixed for a deploy).',
    ],
    [
      'modern: no MCP-Protocol-Version header',
      modernRequest('tools/list', {}, { 'mcp-protocol-version': '' }),
      -32020,
      'Header mismatch: the MCP-Protocol-Version header is required.',
    ],
    [
      'modern: header and _meta versions differ',
      modernRequest('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-06-18' } }),
      -32020,
      'Header mismatch: MCP-Protocol-Version "2026-07-28" differs from _meta["io.modelcontextprotocol/protocolVersion"] "2025-06-18".',
    ],
    // An unsupported revision is said first, before the headers that revision may not even have (report s8a, minor).
    [
      'modern: an unsupported header version, whatever _meta says',
      modernRequest('tools/list', {}, { 'mcp-protocol-version': '2030-01-01' }),
      -32022,
      'Unsupported protocol version 2030-01-01.',
    ],
    [
      'modern: an unsupported header version without Mcp-Method',
      modernRequest('tools/list', {}, { 'mcp-protocol-version': '2099-01-01', 'mcp-method': '' }),
      -32022,
      'Unsupported protocol version 2099-01-01.',
    ],
    [
      'modern: no Mcp-Method',
      modernRequest('tools/list', {}, { 'mcp-method': '' }),
      -32020,
      'Header mismatch: the Mcp-Method header is required.',
    ],
    [
      'modern: Mcp-Method differs',
      modernRequest('tools/list', {}, { 'mcp-method': 'tools/call' }),
      -32020,
      'Header mismatch: Mcp-Method "tools/call" differs from the body method "tools/list".',
    ],
    [
      'modern: no Mcp-Name on tools/call',
      modernRequest('tools/call', { name: 'list_products' }, { 'mcp-name': '' }),
      -32020,
      'Header mismatch: the Mcp-Name header is required for tools/call.',
    ],
    [
      'modern: no Mcp-Name on prompts/get',
      modernRequest('prompts/get', { name: 'p' }, { 'mcp-name': '' }),
      -32020,
      'Header mismatch: the Mcp-Name header is required for prompts/get.',
    ],
    [
      'modern: Mcp-Name differs from params.uri',
      modernRequest('resources/read', { uri: 'https://acme-ai.example/blog/rag-chunking.md' }, { 'mcp-name': 'https://x.example/' }),
      -32020,
      'Header mismatch: Mcp-Name "https://x.example/" differs from params.uri "https://acme-ai.example/blog/rag-chunking.md".',
    ],
  ])('%s', async (_name, req, code, message) => {
    expect((await body(await call(req))).error).toMatchObject({ code, message });
  });

  it('a Mcp-Name is compared only with a string parameter', async () => {
    const res = await call(modernRequest('tools/call', { name: 7 }, { 'mcp-name': 'list_products' }));
    expect((await body(res)).error).toEqual({
      code: -32602,
      message: 'Invalid params: tools/call needs {"name": string, "arguments"?: object}.',
    });
  });

  it('a modern notification that fails header validation echoes no id', async () => {
    const res = await call(
      mcpRequest(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: MODERN_META } },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      ),
    );
    expect(res.status).toBe(400);
    expect(await body(res)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32020, message: 'Header mismatch: Mcp-Method "tools/list" differs from the body method "notifications/cancelled".' },
    });
  });

  it('a version that is not date-shaped never selects the modern era', async () => {
    for (const version of ['x2026-07-28', '2026-07-28x', '20260-07-28'])
      expect(
        (await body(await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': version })))).error,
      ).toMatchObject({
        code: -32600,
        data: { requested: version },
      });
  });
});

describe('legacy requests without params', () => {
  it.each([
    ['initialize', { protocolVersion: '2025-11-25' }],
    ['resources/list', { resources: expect.any(Array) }],
    ['resources/templates/list', { resourceTemplates: expect.any(Array) }],
    ['tools/list', { tools: expect.any(Array) }],
  ])('%s answers', async (method, result) => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method }));
    expect(res.status).toBe(200);
    expect((await body(res)).result).toMatchObject(result);
  });

  it('initialize with a protocol version that is not a string answers the latest', async () => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 20251125 } }));
    expect((await body(res)).result.protocolVersion).toBe('2025-11-25');
  });

  it('tools/call without arguments runs the tool', async () => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_products' } }));
    expect(res.status).toBe(200);
    expect((await body(res)).result.structuredContent.products).toHaveLength(2);
  });

  it.each([
    ['resources/read without params', 'resources/read', undefined, 'Invalid params: resources/read needs {"uri": string}.'],
    ['resources/read with a number', 'resources/read', { uri: 7 }, 'Invalid params: resources/read needs {"uri": string}.'],
    [
      'resources/templates/list with a cursor',
      'resources/templates/list',
      { cursor: 'c' },
      'Invalid cursor: resources/templates/list has a single page; omit cursor.',
    ],
    [
      'resources/list with a cursor we did not issue',
      'resources/list',
      { cursor: 'c' },
      'Invalid cursor: pass the nextCursor of the previous page unchanged, or omit cursor.',
    ],
    [
      'an unknown resource',
      'resources/read',
      { uri: 'https://acme-ai.example/nope.md' },
      'Resource not found: https://acme-ai.example/nope.md. Call resources/list, or fill a template from resources/templates/list.',
    ],
  ])('%s', async (_name, method, params, message) => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }));
    expect((await body(res)).error.message).toBe(message);
  });
});

describe('completion/complete refusals', () => {
  const NEEDS = 'Invalid params: completion/complete needs {"ref": object, "argument": {"name": string, "value": string}}.';
  const REF = 'Invalid params: ref must be {"type": "ref/resource", "uri": <a template from resources/templates/list>}.';
  const TEMPLATE = 'https://acme-ai.example/blog/{slug}.md';
  it.each([
    ['no params', undefined, NEEDS],
    ['ref not an object', { ref: 'x', argument: { name: 'slug', value: '' } }, NEEDS],
    ['argument not an object', { ref: { type: 'ref/resource', uri: TEMPLATE }, argument: 'x' }, NEEDS],
    ['argument name not a string', { ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 1, value: '' } }, NEEDS],
    ['argument value not a string', { ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'slug', value: 1 } }, NEEDS],
    [
      'a prompt',
      { ref: { type: 'ref/prompt', name: 'summarise' }, argument: { name: 'x', value: '' } },
      'Unknown prompt summarise: this server has no prompts.',
    ],
    ['another ref type', { ref: { type: 'ref/tool', uri: TEMPLATE }, argument: { name: 'slug', value: '' } }, REF],
    ['a ref without uri', { ref: { type: 'ref/resource' }, argument: { name: 'slug', value: '' } }, REF],
  ])('%s', async (_name, params, message) => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 4, method: 'completion/complete', ...(params ? { params } : {}) }));
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32602, message } });
  });
});

describe('presented credentials', () => {
  const withCredentials = (check: Awaited<ReturnType<NonNullable<McpDeps['credentials']>>>) => {
    const seen: string[] = [];
    const deps: McpDeps = {
      ...FIXTURE_DEPS,
      credentials: async (req) => {
        seen.push(req.headers.get('authorization') ?? '');
        return check;
      },
    };
    return { deps, seen };
  };
  const CHALLENGE =
    'Bearer error="invalid_token", error_description="the access token is not valid", ' +
    `resource_metadata="${FIXTURE_ORIGIN}/.well-known/oauth-protected-resource/mcp"`;

  it('an invalid token is refused on a public method: 401, -32600 naming the reason, the challenge, CORS', async () => {
    const { deps, seen } = withCredentials({ kind: 'invalid', reason: 'expired' });
    const res = await call(
      mcpRequest({ jsonrpc: '2.0', id: 'p', method: 'ping' }, { authorization: 'Bearer x', origin: FIXTURE_ORIGIN }),
      deps,
    );
    expect(seen).toEqual(['Bearer x']);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(res.headers.get('access-control-allow-origin')).toBe(FIXTURE_ORIGIN);
    expect(await body(res)).toEqual({
      jsonrpc: '2.0',
      id: 'p',
      error: { code: -32600, message: 'Unauthorized: the access token is not valid (expired).', data: { error: 'invalid_token' } },
    });
  });

  it('an invalid token on a notification: 401 with no id', async () => {
    const { deps } = withCredentials({ kind: 'invalid', reason: 'revoked' });
    const res = await call(mcpRequest({ jsonrpc: '2.0', method: 'notifications/initialized' }, { authorization: 'Bearer x' }), deps);
    expect(res.status).toBe(401);
    expect((await body(res)).id).toBeNull();
  });

  it('an invalid token on tools/call: 401 with a tool error the model can read, and CORS', async () => {
    const { deps } = withCredentials({ kind: 'invalid', reason: 'revoked' });
    const res = await call(
      mcpRequest(
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_products' } },
        { authorization: 'Bearer x', origin: FIXTURE_ORIGIN },
      ),
      deps,
    );
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(FIXTURE_ORIGIN);
    expect(res.headers.get('vary')).toBe('Origin');
    expect(res.headers.get('www-authenticate')).toContain('error_description="the access token was revoked"');
    const json = await body(res);
    expect(json.id).toBe(3);
    expect(json.result.isError).toBe(true);
    expect(json.result.structuredContent).toMatchObject({ error: 'invalid_token', reason: 'revoked' });
  });

  it('a valid token, or none, goes through; without an Authorization header the check is not made', async () => {
    const valid = withCredentials({ kind: 'valid', clientId: 'agt_1', scopes: [] });
    expect((await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: 'Bearer x' }), valid.deps)).status).toBe(200);
    const none = withCredentials({ kind: 'invalid', reason: 'expired' });
    expect((await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }), none.deps)).status).toBe(200);
    expect(none.seen).toEqual([]);
    // No checker configured: a presented header is not looked at.
    expect((await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: 'Bearer x' }))).status).toBe(200);
  });

  it('the protected tool answer carries CORS too', async () => {
    const res = await call(
      mcpRequest(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'export_article_index', arguments: {} } },
        { origin: FIXTURE_ORIGIN },
      ),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe(FIXTURE_ORIGIN);
    expect(res.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate, MCP-Protocol-Version');
  });

  it('an unexpected failure: 500 naming the request id under which it was logged, with CORS', async () => {
    const logged: string[] = [];
    const deps: McpDeps = {
      ...FIXTURE_DEPS,
      engine: {
        search: () => {
          throw new Error('boom');
        },
      } as never,
      log: (m) => logged.push(m),
    };
    const res = await call(
      mcpRequest(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_articles', arguments: { query: 'rag' } } },
        { origin: FIXTURE_ORIGIN },
      ),
      deps,
    );
    const json = await body(res);
    const requestId = /^Internal error \(request ([0-9a-f-]{36})\)\.$/.exec(json.error.message)?.[1];
    expect(requestId).toBeDefined();
    expect(logged[0]).toContain(requestId);
    expect(res.headers.get('access-control-allow-origin')).toBe(FIXTURE_ORIGIN);
  });
});

describe('CORS of /mcp', () => {
  it('a preflight allows the MCP headers and exposes the challenge and the version', async () => {
    const pre = await call(mcpRequest(null, { origin: FIXTURE_ORIGIN }, 'OPTIONS'));
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(pre.headers.get('access-control-allow-headers')).toBe(
      'Accept, Authorization, Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID',
    );
    expect(pre.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate, MCP-Protocol-Version');
    expect(pre.headers.get('vary')).toBe('Origin');
  });

  it('a request without Origin gets no CORS headers', async () => {
    const res = await call(mcpRequest({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
